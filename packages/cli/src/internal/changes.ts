/** The work behind `tppkit changes`, loaded only when it runs (it pulls in the PostgreSQL driver). */
import { LocalDate } from "@tppkit/core"
import { OrderChanges, Warnings } from "@tppkit/worker"
import { Effect, type Option, type Redacted, Result } from "effect"
import * as Failure from "../Failure.ts"
import * as Output from "../Output.ts"
import { inDatabase } from "./consents.ts"

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
      OrderChanges.describe(c.type, c.data)
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
