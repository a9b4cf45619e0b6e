/** The check store in memory: a map from a payment's key to its row (tests and single-process runs). */
import { LocalDate } from "@tppkit/core"
import { Effect } from "effect"
import type { Row, Store } from "./checkRows.ts"
import { compareRows, dueOf, isForward, isoSeconds, key, outcomeOf, pendingRow } from "./checkRows.ts"

/** A new, empty store. */
export const make = (): Store => {
  const rows = new Map<string, Row>()
  // per row: the Correlation-ID of the attempt in flight, and the last try whose outcome is recorded
  const states = new Map<
    string,
    { readonly sending: string | undefined; readonly finishedTry: number; readonly finishedAttempt: number }
  >()
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
          .filter((r) => LocalDate.format(r.sweepDay) === sweepDay && r.consent === consent)
          .map(dueOf)
      ),
    // one process: no shard can be lost to another worker, so a fence always holds
    begin: (due, correlationId, tryNo = 1) =>
      Effect.sync(() => {
        const k = key(due)
        const row = rows.get(k) ?? pendingRow(due)
        const state = states.get(k) ?? { sending: undefined, finishedTry: 0, finishedAttempt: 0 }
        if (state.finishedTry >= tryNo && row.outcome !== undefined) {
          return { attempt: row.attempts, recorded: outcomeOf(row) }
        }
        const next = {
          ...row,
          attempts: row.attempts + 1,
          unconfirmed: row.unconfirmed + (state.sending === undefined ? 0 : 1),
          correlationIds: [...row.correlationIds, correlationId]
        }
        rows.set(k, next)
        states.set(k, { ...state, sending: correlationId })
        return { attempt: next.attempts, recorded: undefined }
      }),
    finish: (due, outcome, at, attempt) =>
      Effect.sync(() => {
        const k = key(due)
        const row = rows.get(k) ?? pendingRow(due)
        const state = states.get(k) ?? { sending: undefined, finishedTry: 0, finishedAttempt: 0 }
        const unsent = attempt !== undefined && !attempt.sent
        // a record moves forward only: a bank's answer is never replaced, a failure only by a newer attempt's outcome
        // or an answer
        const forward = isForward(row.outcome, state.finishedAttempt, outcome.outcome, attempt?.attempt)
        rows.set(k, {
          ...row,
          ...(forward
            ? {
                outcome: outcome.outcome,
                failure: outcome.failure,
                requestId: outcome.requestId,
                responseId: outcome.responseId,
                checkedAt: isoSeconds(at)
              }
            : {}),
          ...(unsent
            ? {
                attempts: Math.max(0, row.attempts - 1),
                correlationIds: row.correlationIds.filter((id) => id !== attempt.correlationId)
              }
            : { attempts: row.attempts + (attempt?.extra ?? 0) })
        })
        states.set(k, {
          sending: attempt === undefined || state.sending === attempt.correlationId ? undefined : state.sending,
          finishedTry: forward ? Math.max(state.finishedTry, attempt?.tryNo ?? 1) : state.finishedTry,
          finishedAttempt: forward ? Math.max(state.finishedAttempt, attempt?.attempt ?? 0) : state.finishedAttempt
        })
      }),
    list: (filter) =>
      Effect.sync(() =>
        sorted().filter((r) => filter?.sweepDay === undefined || LocalDate.format(r.sweepDay) === filter.sweepDay)
      ),
    pending: (sweepDay) =>
      Effect.sync(() => {
        let n = 0
        for (const r of rows.values()) if (LocalDate.format(r.sweepDay) === sweepDay && r.outcome === undefined) n++
        return n
      }),
    summary: (sweepDay) =>
      Effect.sync(() => {
        const counts = { checks: 0, APPR: 0, DECL: 0, failed: 0, pending: 0, repeated: 0, requests: 0, unconfirmed: 0 }
        for (const r of rows.values()) {
          if (LocalDate.format(r.sweepDay) !== sweepDay) continue
          counts.checks++
          if (r.outcome === undefined) counts.pending++
          else counts[r.outcome]++
          if (r.attempts > 1) counts.repeated++
          counts.requests += r.attempts
          counts.unconfirmed += r.unconfirmed
        }
        return counts
      })
  }
}
