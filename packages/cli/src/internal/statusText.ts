/**
 * How `tppkit worker status` words what it shows: the report's width, a check's amount with its currency's minor
 * unit digits, a failure's short line, instants as `MM-DD HH:MM` UTC, and counted nouns.
 */
import { Money } from "@tppkit/core"
import * as BankError from "@tppkit/http/BankError"
import type { Checks } from "@tppkit/worker"
// the module itself, not the package: printing a status needs none of the fleet's machinery
import * as CheckFailure from "@tppkit/worker/CheckFailure"
import { BigDecimal, Option } from "effect"

/** The default width of the report: it fits 100 columns. */
export const width = 100
/**
 * A check's amount as the tables and the JSON show it: exact, with its currency's minor unit digits (ISO 4217, core's
 * `Money.formatMinor`: `6.9` EUR as `6.90`, `1200` JPY as `1200`), every decimal of a longer one, never rounded
 * ({@link beyondMinorUnits} says so); a text that is not a decimal (a damaged row) is shown as it is.
 */
export const amountText = (amount: string, currency: string): string =>
  Option.match(BigDecimal.fromString(amount), {
    onNone: () => amount,
    onSome: (value) => Money.formatMinor(value, currency)
  })

/** A check's amount (read once, exact) with its currency's minor unit digits, as {@link amountText} shows it. */
export const checkAmount = (r: Pick<Checks.Row, "amount" | "currency">): string =>
  Money.formatMinor(r.amount, r.currency)

/**
 * Why a check failed in one short line: the bank client's failure without the request line (every check is the same
 * balance-check request) and without the request identifiers (they differ per request), so that checks failed for
 * the same cause share it; rows of older versions have none.
 */
export const reasonOf = (failure: CheckFailure.CheckFailure | undefined): string =>
  failure === undefined
    ? "no description"
    : failure._tag === "BankError"
      ? BankError.headline({
          operation: failure.operation,
          reason: failure.reason,
          ...(failure.attempts === undefined ? {} : { attempts: failure.attempts })
        })
      : CheckFailure.describe(failure)
/** An instant as `MM-DD HH:MM` in UTC (the JSON and the database keep the whole instant). */
export const shortUtc = (millis: number): string => new Date(millis).toISOString().slice(5, 16).replace("T", " ")

/** An RFC 3339 UTC text as `MM-DD HH:MM`; anything else as it is. */
export const shortIso = (text: string | undefined): string =>
  text === undefined ? "" : /^\d{4}-\d\d-\d\dT\d\d:\d\d/.test(text) ? text.slice(5, 16).replace("T", " ") : text
export const isoOrNull = (millis: number | undefined): string | null =>
  millis === undefined ? null : new Date(millis).toISOString()
export const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`
