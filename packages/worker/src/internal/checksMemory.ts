/** The check store in memory: a map from a payment's key to its row (tests and single-process runs). */
import { Effect } from "effect"
import type { Checks, Row } from "../Checks.ts"
import { compareRows, dueOf, isoSeconds, key, pendingRow } from "./checkRows.ts"

/** A new, empty store. */
export const make = (): Checks["Service"] => {
  const rows = new Map<string, Row>()
  const sorted = () => [...rows.values()].sort(compareRows)
  return {
    plan: (due) =>
      Effect.sync(() => {
        for (const d of due) {
          const k = key(d)
          if (!rows.has(k)) rows.set(k, pendingRow(d))
        }
      }),
    planned: (sweepDay, consent) =>
      Effect.sync(() =>
        sorted()
          .filter((r) => r.sweepDay === sweepDay && r.consent === consent)
          .map(dueOf)
      ),
    begin: (due, correlationId) =>
      Effect.sync(() => {
        const k = key(due)
        const row = rows.get(k) ?? pendingRow(due)
        const next = { ...row, attempts: row.attempts + 1, correlationIds: [...row.correlationIds, correlationId] }
        rows.set(k, next)
        return next.attempts
      }),
    finish: (due, outcome, at) =>
      Effect.sync(() => {
        const k = key(due)
        const row = rows.get(k) ?? pendingRow(due)
        rows.set(k, {
          ...row,
          outcome: outcome.outcome,
          failure: outcome.failure,
          requestId: outcome.requestId,
          responseId: outcome.responseId,
          checkedAt: isoSeconds(at)
        })
      }),
    list: (filter) =>
      Effect.sync(() => sorted().filter((r) => filter?.sweepDay === undefined || r.sweepDay === filter.sweepDay)),
    pending: (sweepDay) =>
      Effect.sync(() => {
        let n = 0
        for (const r of rows.values()) if (r.sweepDay === sweepDay && r.outcome === undefined) n++
        return n
      }),
    summary: (sweepDay) =>
      Effect.sync(() => {
        const counts = { checks: 0, APPR: 0, DECL: 0, failed: 0, pending: 0, repeated: 0 }
        for (const r of rows.values()) {
          if (r.sweepDay !== sweepDay) continue
          counts.checks++
          if (r.outcome === undefined) counts.pending++
          else counts[r.outcome]++
          if (r.attempts > 1) counts.repeated++
        }
        return counts
      })
  }
}
