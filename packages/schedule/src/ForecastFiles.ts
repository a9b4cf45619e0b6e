/**
 * The files a forecast reads besides the orders: opening balances and the bank's funds-check answers, each a JSON
 * array of records (or an object with `balances` / `checks`). Each record is decoded on its own by a Schema built on
 * core's (`BalanceRecord`, `CheckRecord`): amounts are JSON numbers (their text) or decimal strings, never floats;
 * IBANs are core's `Iban`, checked and written without spaces; currencies core's `Currency.CurrencyCode`; dates core's
 * `LocalDate`, `YYYY-MM-DD`. A record that cannot be read is kept aside with its position, the field and why, and the
 * others are used; only a text that is no such list fails. The engine is `internal/forecastFiles.ts`.
 *
 * @since 0.1.0
 */
import { Result } from "effect"
import type * as Forecast from "./Forecast.ts"
import * as Engine from "./internal/forecastFiles.ts"
import { InvalidForecast, ScheduleError } from "./ScheduleError.ts"

/**
 * A record of an input file that could not be read: its position (from 0; messages show it from 1), the field at
 * fault (none when the record as a whole is) and why (`field: …`, with the text given when the reason does not say it);
 * its IBAN when that was read.
 */
export type Unreadable = Engine.Unreadable

/** What a file gave: the records read, and those that could not be. */
export type Read<A> = Engine.Read<A>

/**
 * A balances file's record, `{ iban, currency, amount, date, threshold? }` (text around values trimmed; `threshold` may
 * be null): decodes to the fields of a `Forecast.Balance`.
 */
export const BalanceRecord = Engine.BalanceRecord

/**
 * A funds-checks file's record, `{ answer, orderId, executionDate, debtorIban, amount, currency, checkedOn }`: decodes to
 * a `Forecast.Check`.
 */
export const CheckRecord = Engine.CheckRecord

const failed = (message: string) => new ScheduleError({ reason: new InvalidForecast({ message }) })

/**
 * A balances file read: each record `{ iban, currency, amount, date, threshold? }` is the balance at the start of
 * `date`, before that day's payments; a record that cannot be read, or an account given again, is kept aside with its
 * position (the first record of an account is used). Fails only when the text is no JSON array of records (nor an
 * object with `balances`): the reason's message says why.
 * @example balances("balances.json", '[{"iban":"SK24…","currency":"EUR","amount":"1200.50","date":"2027-01-01"}]')
 */
export const balances = (
  file: string,
  bytes: Uint8Array | string
): Result.Result<Read<Forecast.Balance>, ScheduleError> => Result.mapError(Engine.balances(file, bytes), failed)

/**
 * A funds-checks file read: each record `{ orderId, executionDate, debtorIban, amount, currency, checkedOn, answer }`
 * (`answer` APPR or DECL, the bank's answer on `checkedOn`); a record that cannot be read is kept aside. Fails only
 * when the text is no JSON array of records (nor an object with `checks`).
 */
export const checks = (file: string, bytes: Uint8Array | string): Result.Result<Read<Forecast.Check>, ScheduleError> =>
  Result.mapError(Engine.checks(file, bytes), failed)

/**
 * The accounts of a balances file's unreadable records, with why, for `Forecast.Input.unusable` (the forecast lists
 * them under `withoutBalance` with that reason); a record whose IBAN could not be read names no account.
 */
export const unusableBalances: (
  unreadable: ReadonlyArray<Unreadable>
) => Array<{ readonly iban: string; readonly reason: string }> = Engine.unusableBalances
