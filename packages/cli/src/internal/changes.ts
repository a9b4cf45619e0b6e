/** The work behind `tppkit changes`, loaded only when it runs (it pulls in the PostgreSQL driver). */
import { LocalDate } from "@tppkit/core"
import { Warnings } from "@tppkit/worker"
import { Effect, type Option, type Redacted, Result } from "effect"
import * as Failure from "../Failure.ts"
import * as Output from "../Output.ts"
import { inDatabase } from "./consents.ts"

/** What a change says in a few words: the fields changed with before and after, or the dates moved. */
export const detail = (change: Warnings.Kept): string => {
  const d = change.data
  switch (change.type) {
    case "standing_order.created":
      return `${d.amount} ${d.currency} ${d.schedule}, next ${d.nextDate ?? "-"}`
    case "standing_order.removed":
      return `was ${d.amount} ${d.currency} ${d.schedule}`
    case "standing_order.changed":
      return ((d.changes ?? []) as ReadonlyArray<{ field: string; before: string | null; after: string | null }>)
        .map((c) => `${c.field} ${c.before ?? "none"} -> ${c.after ?? "none"}`)
        .join("; ")
    case "standing_order.next_date_moved":
      return `next ${d.before ?? "none"} -> ${d.after} (engine ${d.engine ?? "ended"})`
    default:
      return ""
  }
}

/** Runs `tppkit changes`. */
export const run = Effect.fn("tppkit.changes")(function* (input: {
  readonly databaseUrl: Option.Option<Redacted.Redacted<string>>
  readonly since: string
  readonly format: "table" | "json"
}) {
  const since = input.since.trim()
  if (Result.isFailure(LocalDate.parse(since))) {
    return yield* Failure.usage(`--since ${JSON.stringify(input.since)}: not a date YYYY-MM-DD`)
  }
  const changes = yield* inDatabase(input.databaseUrl, Warnings.changes(since))
  if (input.format === "json") {
    return yield* Output.line(
      JSON.stringify(changes.map((c) => ({ id: c.id, type: c.type, day: c.day, consent: c.consent, ...c.data })))
    )
  }
  if (changes.length === 0) return yield* Output.line(`no changes since ${since}`)
  const header = ["DAY", "CONSENT", "CHANGE", "ORDER", "WHAT"]
  const table = [
    header,
    ...changes.map((c) => [
      c.day,
      c.consent ?? "-",
      c.type.replace("standing_order.", ""),
      String(c.data.orderId ?? "-"),
      detail(c)
    ])
  ]
  const widths = header.map((_, i) => Math.max(...table.map((row) => (row[i] ?? "").length)))
  yield* Output.line(
    table
      .map((row) =>
        row
          .map((c, i) => (i === row.length - 1 ? c : c.padEnd(widths[i] ?? 0)))
          .join("  ")
          .trimEnd()
      )
      .join("\n")
  )
})
