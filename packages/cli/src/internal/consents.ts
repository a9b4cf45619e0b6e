/**
 * The work behind `tppkit consents add|remove|list`, loaded only when one of them runs (it pulls in the PostgreSQL
 * driver).
 */
import { LocalDate } from "@tppkit/core"
import { Consents } from "@tppkit/worker"
import { Config, Effect, Option, type Redacted, Result } from "effect"
import * as Failure from "../Failure.ts"
import * as Output from "../Output.ts"
import * as DatabaseFailure from "./database.ts"

/** Runs `body` on the database of `--database-url`; a database failure is one line naming its address. */
export const inDatabase = DatabaseFailure.withDatabase

/** Runs `tppkit consents add`. */
export const add = Effect.fn("tppkit.consents.add")(function* (input: {
  readonly databaseUrl: Option.Option<Redacted.Redacted<string>>
  readonly key: string
  readonly iban: Option.Option<string>
  readonly profile: Option.Option<string>
  readonly validUntil: Option.Option<string>
  readonly refreshToken?: Option.Option<Redacted.Redacted<string>> | undefined
}) {
  const key = input.key.trim()
  if (key === "") return yield* Failure.usage("consents add: an empty key")
  const validUntil = Option.getOrUndefined(input.validUntil)?.trim()
  if (validUntil !== undefined && Result.isFailure(LocalDate.parse(validUntil))) {
    return yield* Failure.usage(`--valid-until ${JSON.stringify(validUntil)}: not a date YYYY-MM-DD`)
  }
  const iban = Option.getOrUndefined(input.iban)?.replace(/\s+/g, "")
  const profile = Option.getOrUndefined(input.profile)?.trim()
  const refreshToken = Option.getOrUndefined(input.refreshToken ?? Option.none())
  const tokenKey = yield* Config.Redacted(Consents.refreshTokenKeySetting).pipe(
    Config.option,
    Effect.mapError((e) => Failure.configuration(`${Consents.refreshTokenKeySetting}: ${e.message}`, e))
  )
  // a refresh token without the fleet's key is refused before anything is written (it is kept only sealed)
  const added = yield* inDatabase(
    input.databaseUrl,
    Consents.add({ key, iban, profile, validUntil, refreshToken }).pipe(
      Effect.provideService(Consents.RefreshTokenKey, tokenKey),
      Effect.map(Result.succeed),
      Effect.catchTag("ChecksError", (e) => Effect.succeed(Result.fail(Failure.configuration(e.message, e))))
    )
  ).pipe(Effect.flatMap(Effect.fromResult))
  yield* Output.line(`${added ? "added" : "changed"} consent ${key}; the fleet sweeps it from its next sweep run`)
})

/** Runs `tppkit consents remove`. */
export const remove = Effect.fn("tppkit.consents.remove")(function* (input: {
  readonly databaseUrl: Option.Option<Redacted.Redacted<string>>
  readonly key: string
}) {
  const removed = yield* inDatabase(input.databaseUrl, Consents.remove(input.key.trim()))
  if (!removed) return yield* Failure.make("data", `the fleet has no consent ${input.key.trim()}`)
  yield* Output.line(`removed consent ${input.key.trim()}; the fleet no longer sweeps it from its next sweep run`)
})

/** Runs `tppkit consents list`. */
export const list = Effect.fn("tppkit.consents.list")(function* (input: {
  readonly databaseUrl: Option.Option<Redacted.Redacted<string>>
  readonly format: "table" | "json"
}) {
  const rows = yield* inDatabase(input.databaseUrl, Consents.list)
  if (input.format === "json") {
    return yield* Output.line(
      JSON.stringify(
        rows.map((r) => ({
          key: r.key,
          iban: r.iban ?? null,
          profile: r.profile ?? null,
          validUntil: r.validUntil ?? null
        }))
      )
    )
  }
  const header = ["KEY", "IBAN", "PROFILE", "VALID UNTIL"]
  const table = [header, ...rows.map((r) => [r.key, r.iban ?? "-", r.profile ?? "-", r.validUntil ?? "-"])]
  const widths = header.map((_, i) => Math.max(...table.map((row) => (row[i] ?? "").length)))
  yield* Output.line(
    rows.length === 0
      ? "no consents in the fleet's database"
      : table
          .map((row) =>
            row
              .map((c, i) => c.padEnd(widths[i] ?? 0))
              .join("  ")
              .trimEnd()
          )
          .join("\n")
  )
})
