/**
 * A whole record of a source (COBS, Berlin Group, UK, YNAB, Actual) read as an `Orders` item: `SourceRecord.read`, the
 * accounts file applied (`AccountMap.resolve`), the schedule through its standard's decoder, the source's next date as
 * the order's `nextDate` (the bank's word: payments before it count as made), each missing field a `Missing` warning.
 */
import * as AccountMap from "../../AccountMap.ts"
import type * as BusinessDayConvention from "../../BusinessDayConvention.ts"
import type * as LocalDate from "../../LocalDate.ts"
import * as Money from "../../Money.ts"
import type * as Orders from "../../Orders.ts"
import * as SourceRecord from "../../SourceRecord.ts"
import * as Standard from "../../Standard.ts"
import { isObject } from "./read.ts"

/** What a whole record is read with. */
export interface Settings {
  readonly standard: Standard.Standard | undefined
  readonly convention: BusinessDayConvention.BusinessDayConvention | undefined
  readonly accounts: AccountMap.AccountMap | undefined
  readonly listedOn: LocalDate.LocalDate | undefined
  /** A Berlin Group transactions answer's listed account. */
  readonly account?: unknown
}

/** Fields of the seed bank's order a record of another standard is wrapped in (the orders-file form). */
const WRAPPER = ["orderId", "instructedAmount", "debtor", "creditor"] as const

/**
 * The source a record is read whole in, or undefined: a record that carries none of the seed bank's wrapper fields
 * (`orderId`, `instructedAmount`, `debtor`, `creditor`) and is a source's by its standard (the forced one, else the one
 * it reveals, `SourceRecord.detect`).
 */
export const wholeSource = (
  record: unknown,
  forced: Standard.Standard | undefined
): SourceRecord.Source | undefined => {
  if (!isObject(record)) return undefined
  // a Berlin Group body has its own instructedAmount (with amount, not value)
  const amount = record.instructedAmount
  const wrapped = WRAPPER.some((k) =>
    k === "instructedAmount" ? isObject(amount) && amount.value !== undefined : record[k] !== undefined
  )
  if (wrapped) return undefined
  const standard = forced ?? SourceRecord.detect(record)
  return SourceRecord.isSource(standard) ? standard : undefined
}

/** The party of an order: its IBAN, else the source's identifier with its scheme, else unknown. */
const partyOf = (p: SourceRecord.Party): Orders.Party => {
  const a = p.account
  const name = p.name === undefined ? {} : { name: p.name }
  if (a?.iban !== undefined) return { iban: a.iban, ...name }
  if (a !== undefined) return { iban: a.id, scheme: a.scheme, ...name }
  return { iban: "", scheme: "unknown", ...name }
}

/** A whole record at `position` read as an item of the decoder. */
export const item = (
  record: unknown,
  source: SourceRecord.Source,
  position: number,
  settings: Settings
): Orders.Item => {
  const read = SourceRecord.read(record, { standard: source, listedOn: settings.listedOn, account: settings.account })
  const unread = (orderId: string | undefined, path: string, reason: string, kind: Orders.Unread["kind"]) =>
    ({ _tag: "Unread", kind, position, orderId, path, reason, standard: source }) as const
  if (read === undefined) return unread(undefined, "", "the record is no whole record of its standard", "record")
  if (read._tag === "Skipped") {
    return { _tag: "Skipped", position, orderId: read.orderId ?? `#${position}`, reason: `${source}: ${read.reason}` }
  }
  const resolved = AccountMap.resolve(settings.accounts ?? AccountMap.empty, read.reading)
  if (resolved._tag === "Unresolved") return unread(read.reading.orderId, "", resolved.reason, "record")
  const r = resolved.reading
  const decoded = Standard.decode(r.schedule, { standard: source, start: r.start, convention: settings.convention })
  const t = decoded.translation
  if (t._tag === "Unrepresentable") return unread(r.orderId, "", t.reason, "schedule")
  const warnings: Array<Orders.Warning> = []
  for (const w of r.warnings) warnings.push({ _tag: "Tolerated", standard: source, ...w })
  for (const w of decoded.warnings) warnings.push({ _tag: "Tolerated", standard: source, ...w })
  if (t._tag === "Lossy") for (const l of t.losses) warnings.push({ _tag: "Lost", standard: source, ...l })
  for (const m of r.missing) warnings.push({ _tag: "Missing", standard: source, ...m })
  // the first payment made already (before the bank's next date) is no payment to project
  const firstMade = r.nextDate !== undefined && t.value.start < r.nextDate
  for (const [field, other] of [
    ["FirstPaymentAmount", firstMade ? undefined : r.firstAmount],
    ["FinalPaymentAmount", r.finalAmount]
  ] as const) {
    if (other === undefined) continue
    warnings.push({
      _tag: "Lost",
      standard: source,
      field,
      from: `${Money.toPlainString(other.value)} ${other.currency ?? r.amount.currency}`,
      to: `${Money.toPlainString(r.amount.value)} ${r.amount.currency}`,
      why: "tppkit projects one amount per order: that payment is projected at NextPaymentAmount"
    })
  }
  const orderId = r.orderId ?? `#${position}`
  return {
    _tag: "Order",
    position,
    orderId,
    standard: source,
    recurrence: t.value,
    ownConvention: decoded.ownConvention,
    ...(r.nextDate === undefined ? {} : { nextDate: r.nextDate }),
    instructedAmount: { value: r.amount.value, currency: r.amount.currency },
    debtor: partyOf(r.debtor),
    creditor: partyOf(r.creditor),
    warnings
  }
}
