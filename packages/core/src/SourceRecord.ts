/**
 * Standing orders read whole, as each standard's banks and apps send them (packages/core/README.md, "Whole records"):
 * a COBS list item or detail, a Berlin Group periodic payment or `bookingStatus=information` transaction, a UK Open
 * Banking v3.1 or v4 standing order, a YNAB scheduled transaction, an Actual schedule. Each reading gives the
 * schedule fragment its standard's decoder reads (`Standard.decode`), who pays what (amount exact from its text,
 * accounts with their scheme, names), the source's own next date, and what the record lacks that tppkit needs, each
 * named by the field as the source calls it. `envelope` finds the records in a list answer (a COBS page, a UK
 * `Data.StandingOrder` list, a YNAB answer, a Berlin Group transactions answer, an Actual array).
 *
 * @since 0.3.0
 */
import * as Apps from "./internal/records/apps.ts"
import * as BerlinGroup from "./internal/records/berlinGroup.ts"
import * as Cobs from "./internal/records/cobs.ts"
import type { Missing, Read } from "./internal/records/read.ts"
import { isObject } from "./internal/records/read.ts"
import * as Uk from "./internal/records/ukOpenBanking.ts"
import * as Write from "./internal/records/write.ts"
import type * as LocalDate from "./LocalDate.ts"
import * as Standard from "./Standard.ts"
import type * as Translation from "./Translation.ts"

/**
 * The reading's types (`internal/records/read.ts` documents each): an `Account` as a source names it, a payer or payee
 * (`Party`), an exact `Amount`, a field a record lacks that tppkit needs (`Missing`), one standing order read whole
 * (`Reading`), and a record read (`Read`: an order with its reading, or skipped with the reason).
 */
export type { Account, Amount, Missing, Party, Read, Reading } from "./internal/records/read.ts"

/** The standards whose records are read whole. */
export const sources = ["cobs", "berlin-group", "uk-v3", "uk-v4", "ynab", "actual"] as const
/** A standard whose records are read whole. */
export type Source = (typeof sources)[number]

/** Whether a standard's records are read whole. */
export const isSource = (standard: Standard.Standard | undefined): standard is Source =>
  standard !== undefined && (sources as ReadonlyArray<string>).includes(standard)

/** What a reading may be told: the standard to read (else detected), the listing day, the listed account. */
export interface Options {
  readonly standard?: Standard.Standard | undefined
  /** The day the list was read: a COBS list item names no start, and a daily, weekly or monthly one counts from it. */
  readonly listedOn?: LocalDate.LocalDate | undefined
  /** The account a Berlin Group transactions answer lists (its `account`): the payer of its standing orders. */
  readonly account?: unknown
}

/**
 * The standard a whole record reveals: COBS by `standingOrderIdentification` or `standingOrder`; UK by `AccountId` or
 * `StandingOrderId` (v3 with a `Frequency` string or an `Active`/`Inactive` status, else v4); Berlin Group by
 * `standingOrderDetails` or `instructedAmount.amount`; YNAB by `date_first` or `date_next`; Actual by `amountOp` or a
 * `RecurConfig` in `date`; else what `Standard.detect` reads from the schedule fields.
 */
export const detect = (record: unknown): Standard.Standard | undefined => {
  if (!isObject(record)) return undefined
  if (isObject(record.standingOrderIdentification) || isObject(record.standingOrder)) return "cobs"
  if (record.AccountId !== undefined || record.StandingOrderId !== undefined) {
    if (typeof record.Frequency === "string") return "uk-v3"
    if (isObject(record.MandateRelatedInformation) || isObject(record.Frequency)) return "uk-v4"
    const status = record.StandingOrderStatusCode
    return status === "Active" || status === "Inactive" || typeof record.Reference === "string" ? "uk-v3" : "uk-v4"
  }
  if (isObject(record.additionalInformationStructured)) return "berlin-group"
  if (isObject(record.instructedAmount) && record.instructedAmount.amount !== undefined) return "berlin-group"
  if (typeof record.date_first === "string" || typeof record.date_next === "string") return "ynab"
  if (record.amountOp !== undefined || record._amountOp !== undefined) return "actual"
  if (isObject(record.date) && typeof record.date.start === "string") return "actual"
  return Standard.detect(record)
}

/**
 * A record read whole in its standard (the one `options.standard` forces, else the one it reveals, {@link detect}).
 * Undefined when the standard is none of {@link sources} (the seed bank's record, an RRULE, ISO 20022: read by
 * `StandingOrder`'s schema and `Standard.decode`).
 */
export const read = (record: unknown, options?: Options): Read | undefined => {
  const standard = options?.standard ?? detect(record)
  const context = { listedOn: options?.listedOn, account: options?.account }
  switch (standard) {
    case "cobs":
      return Cobs.read(record, context)
    case "berlin-group":
      return BerlinGroup.read(record, context)
    case "uk-v3":
    case "uk-v4":
      return Uk.read(record, standard)
    case "ynab":
      return Apps.readYnab(record)
    case "actual":
      return Apps.readActual(record)
    default:
      return undefined
  }
}

/** A missing field as one sentence: "creditorAccount is missing: tppkit expects …; the order is projected …". */
export const describeMissing = (m: Missing): string =>
  `${m.field} is missing: tppkit expects ${m.expected}; ${m.consequence}`

/** Where a list answer keeps its records, and what it says about them. */
export interface Envelope {
  /** The list's kind: `cobs-page`, `uk-list`, `ynab-answer`, `berlin-group-transactions`, `array`, `record` (one record). */
  readonly kind: "cobs-page" | "uk-list" | "ynab-answer" | "berlin-group-transactions" | "array" | "record"
  readonly records: ReadonlyArray<unknown>
  /** The standard the envelope itself reveals (UK, YNAB, Berlin Group), for records that do not. */
  readonly standard?: Standard.Standard | undefined
  /** A Berlin Group transactions answer's `account`: the payer of its standing orders. */
  readonly account?: unknown
}

/**
 * The records of a document: a page with `standingOrders` (COBS and the seed bank), UK `Data.StandingOrder` (a list or
 * one order), YNAB `data.scheduled_transactions` (or `data.scheduled_transaction`), a Berlin Group answer's
 * `transactions.information`, a bare array (Actual's `getSchedules`), or the document as one record.
 */
export const envelope = (document: unknown): Envelope => {
  if (Array.isArray(document)) return { kind: "array", records: document }
  if (!isObject(document)) return { kind: "record", records: [document] }
  if (Array.isArray(document.standingOrders)) return { kind: "cobs-page", records: document.standingOrders }
  const data = isObject(document.Data) ? document.Data : undefined
  if (data !== undefined && data.StandingOrder !== undefined) {
    const list = data.StandingOrder
    const records = Array.isArray(list) ? list : [list]
    return { kind: "uk-list", records, standard: records.some((r) => detect(r) === "uk-v3") ? "uk-v3" : "uk-v4" }
  }
  if (data !== undefined && document.Links !== undefined) return { kind: "uk-list", records: [], standard: "uk-v4" }
  const ynab = isObject(document.data) ? document.data : undefined
  if (ynab !== undefined && Array.isArray(ynab.scheduled_transactions)) {
    return { kind: "ynab-answer", records: ynab.scheduled_transactions, standard: "ynab" }
  }
  if (ynab !== undefined && isObject(ynab.scheduled_transaction)) {
    return { kind: "ynab-answer", records: [ynab.scheduled_transaction], standard: "ynab" }
  }
  const transactions = isObject(document.transactions) ? document.transactions : undefined
  if (transactions !== undefined && Array.isArray(transactions.information)) {
    return {
      kind: "berlin-group-transactions",
      records: transactions.information,
      standard: "berlin-group",
      account: document.account
    }
  }
  return { kind: "record", records: [document] }
}

/** What a COBS list page says about paging: `last` when `pageNumber + 1 >= pageCount` (a last page may say `nextPage: 0`). */
export type Page = Cobs.Page

/** The paging fields of a COBS list page (rule book, "Paging"): stop on `pageNumber + 1 >= pageCount`, not on `nextPage`. */
export const page: (body: unknown) => Page = Cobs.page

/** What a COBS list item says at a glance, as given: its amount, currency, interval and interval day. */
export type Glance = Cobs.Glance

/**
 * A COBS record's amount, currency, interval and interval day as it gives them (text, a number as written; `undefined`
 * where absent or no text), for a listing to show beside core's reading of the record ({@link read}).
 */
export const glance: (record: unknown) => Glance = Cobs.glance

/** A Czech account number as `prefix-number/bank` (from 16 zero-padded digits, `prefix-number`, or `number/bank`). */
export const czechAccount: (text: string, bankCode: string | undefined) => string | undefined = Cobs.czechAccount

/** An order to write whole: its schedule and who pays what (the fields of `Orders.Order`; `nextDate` where known). */
export type Writable = Write.Writable

/** A standard written whole by {@link write}. */
export type Target = Write.Target

/** The standards written whole. */
export const targets: ReadonlyArray<Target> = [
  "cobs",
  "uk-v3",
  "uk-v4",
  "berlin-group",
  "berlin-group-ais",
  "ynab",
  "actual"
]

/** A YNAB `ScheduledTransactionDetail` as {@link write} makes it. */
export type YnabScheduledTransaction = Write.YnabScheduledTransaction

/** An Actual `APIScheduleEntity` as {@link write} makes it. */
export type ActualSchedule = Write.ActualSchedule

/**
 * An order written whole in a target standard, so that the target's readers (and {@link read}) take it: a COBS
 * standing order (detail fields), a UK v3.1 or v4 `OBStandingOrder6` (`AccountId` the payer's IBAN), a Berlin Group
 * periodic payment body (`berlin-group`: `periodicPaymentInitiation_json`, what a TPP sends) or
 * `bookingStatus=information` transaction (`berlin-group-ais`: `standingOrderDetails`, how banks list them), a YNAB scheduled transaction (milliunits, negative: money out of `account_id`, the payer's
 * IBAN), an Actual schedule (cents, `amountOp` `is`). Every loss is named: the schedule's (its standard's encoder),
 * the currency YNAB and Actual keep per budget, the payee's account YNAB does not keep. Unrepresentable when the
 * schedule or the amount cannot be said (more decimals than the target's amounts hold).
 */
export const write: {
  (target: "ynab", order: Writable): Translation.Translation<YnabScheduledTransaction>
  (target: "actual", order: Writable): Translation.Translation<ActualSchedule>
  (target: Target, order: Writable): Translation.Translation<object>
} = Write.write as never

/**
 * The list envelope of a target around written records: a COBS page, a UK `Data.StandingOrder` list (with `Links` and
 * `Meta`), a YNAB `data.scheduled_transactions` answer, an array of Berlin Group periodic payment bodies, a Berlin Group
 * transactions answer (`information`), an array of Actual schedules.
 */
export const list: (target: Target, records: ReadonlyArray<object>) => unknown = Write.envelope
