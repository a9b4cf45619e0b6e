/**
 * A whole record of a source (COBS, Berlin Group, UK, YNAB, Actual) read as an `Orders` item: `SourceRecord.read`, the
 * accounts file applied (`AccountMap.resolve`), the schedule through its standard's decoder, the source's next date as
 * the order's `nextDate` (the bank's word: payments before it count as made), each missing field a `Missing` warning.
 */
import * as AccountMap from "../../AccountMap.ts"
import type * as BusinessDayConvention from "../../BusinessDayConvention.ts"
import * as LocalDate from "../../LocalDate.ts"
import * as Money from "../../Money.ts"
import type * as Recurrence from "../../Recurrence.ts"
import * as SourceRecord from "../../SourceRecord.ts"
import * as Standard from "../../Standard.ts"
import type * as Orders from "../orderTypes.ts"
import * as Standards from "../standards.ts"
import { isObject } from "./read.ts"
import * as Tracked from "./tracked.ts"

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

/** Why a field of a whole record is a loss (one wording for every such field, so that equal ones group). */
const UNUSED = "tppkit reads who pays what and when: this field is not used"

/** The fields each source's reader reads for the order's own text only (not kept in an `Orders.Order`). */
const TEXT: Readonly<Partial<Record<SourceRecord.Source, ReadonlyArray<string>>>> = {
  cobs: ["standingOrder.alias", "remittanceInformation.unstructured"],
  "berlin-group": ["remittanceInformationUnstructured"],
  "uk-v3": ["Reference", "RemittanceInformation"],
  "uk-v4": ["Reference", "RemittanceInformation"],
  ynab: ["memo"],
  actual: ["name"]
}

const nameOf = (p: SourceRecord.Party) => (p.name === undefined ? {} : { name: p.name })

/** The party of an order: its IBAN, else the source's identifier with its scheme, else undefined (no account named). */
const partyOf = (p: SourceRecord.Party): Orders.Party | undefined => {
  const a = p.account
  const name = p.name === undefined ? {} : { name: p.name }
  if (a?.iban !== undefined) return { iban: a.iban, ...name }
  if (a !== undefined) return { iban: a.id, scheme: a.scheme, ...name }
  return undefined
}

/**
 * A whole record at `position` read as items of the decoder: one, or for a UK order whose first or final payment has
 * its own amount, one order per amount (the same orderId and position).
 */
export const items = (
  record: unknown,
  source: SourceRecord.Source,
  position: number,
  settings: Settings
): ReadonlyArray<Orders.Item> => {
  const tracked = Tracked.make(record)
  const read = SourceRecord.read(tracked.value, {
    standard: source,
    listedOn: settings.listedOn,
    account: settings.account
  })
  const unread = (orderId: string | undefined, path: string, reason: string, kind: Orders.Unread["kind"]) =>
    ({ _tag: "Unread", kind, position, orderId, path, reason, standard: source }) as const
  if (read === undefined) return [unread(undefined, "", "the record is no whole record of its standard", "record")]
  if (read._tag === "Skipped") {
    return [{ _tag: "Skipped", position, orderId: read.orderId ?? `#${position}`, reason: `${source}: ${read.reason}` }]
  }
  const resolved = AccountMap.resolve(settings.accounts ?? AccountMap.empty, read.reading)
  if (resolved._tag === "Unresolved") return [unread(read.reading.orderId, "", resolved.reason, "record")]
  const r = resolved.reading
  const decoded = Standard.decode(r.schedule, { standard: source, start: r.start, convention: settings.convention })
  const t = decoded.translation
  if (t._tag === "Unrepresentable") return [unread(r.orderId, "", t.reason, "schedule")]
  // read whole, but no payment is ever due: skipped with the reason, never silently dropped
  const never = Standards.neverPays(t.value)
  if (never !== undefined)
    return [{ _tag: "Skipped", position, orderId: r.orderId ?? `#${position}`, reason: `${source}: ${never}` }]
  const warnings: Array<Orders.Warning> = []
  for (const w of r.warnings) warnings.push({ _tag: "Tolerated", standard: source, ...w })
  for (const w of decoded.warnings) warnings.push({ _tag: "Tolerated", standard: source, ...w })
  if (t._tag === "Lossy") for (const l of t.losses) warnings.push({ _tag: "Lost", standard: source, ...l })
  for (const m of r.missing) warnings.push({ _tag: "Missing", standard: source, ...m })
  const unstated = Standards.conventionUnstated(source, decoded.ownConvention, t.value.convention)
  if (unstated !== undefined) warnings.push({ _tag: "Lost", standard: source, ...unstated })
  // the fields neither who pays what nor when is read from (a memo, a flag): each said, never dropped without a word
  for (const [field, value] of tracked.unread(TEXT[source] ?? [])) {
    warnings.push({ _tag: "Lost", standard: source, field, from: Standards.show(value), to: "not read", why: UNUSED })
  }
  // UK: the first and the final payment carry their own amounts, every other one NextPaymentAmount — each is an order
  // of its own (one payment, the same orderId), unless the first was made already (before the bank's next date)
  const firstMade = r.nextDate !== undefined && t.value.start < r.nextDate
  let regular: Recurrence.Recurrence | undefined = t.value
  const ones: Array<{ readonly start: LocalDate.LocalDate; readonly amount: SourceRecord.Amount }> = []
  if (r.finalAmount !== undefined) {
    const last = regular.end === undefined && regular.count === undefined ? undefined : Standards.lastNominal(regular)
    if (last === undefined) {
      warnings.push({
        _tag: "Lost",
        standard: source,
        field: "FinalPaymentAmount",
        from: `${Money.toPlainString(r.finalAmount.value)} ${r.finalAmount.currency ?? r.amount.currency}`,
        to: `${Money.toPlainString(r.amount.value)} ${r.amount.currency}`,
        why: "the order names no final payment (FinalPaymentDateTime or NumberOfPayments): every payment is NextPaymentAmount"
      })
    } else {
      ones.push({ start: last, amount: r.finalAmount })
      regular = less(regular, { end: LocalDate.addDays(last, -1) })
    }
  }
  if (r.firstAmount !== undefined && !firstMade && regular !== undefined) {
    const [first, second] = Standards.nominals(regular, 2)
    if (first !== undefined) {
      ones.push({ start: first, amount: r.firstAmount })
      regular = second === undefined ? undefined : less(regular, { start: second })
    }
  }
  const orderId = r.orderId ?? `#${position}`
  // a payer not named stays an empty identifier of scheme unknown; a payee's account not named is none: the creditor
  // is unknown (by name when the record gives one)
  const debtor = partyOf(r.debtor) ?? { iban: "", scheme: "unknown", ...nameOf(r.debtor) }
  const creditor: Orders.Creditor = partyOf(r.creditor) ?? { iban: undefined, ...nameOf(r.creditor) }
  const order = (recurrence: Recurrence.Recurrence, amount: SourceRecord.Amount): Orders.Order => ({
    _tag: "Order",
    position,
    orderId,
    standard: source,
    recurrence,
    ownConvention: decoded.ownConvention,
    ...(r.nextDate === undefined ? {} : { nextDate: r.nextDate }),
    instructedAmount: { value: amount.value, currency: amount.currency ?? r.amount.currency },
    debtor,
    creditor,
    warnings
  })
  const once = (start: LocalDate.LocalDate): Recurrence.Recurrence => {
    const { count: _, ...rest } = t.value
    return { ...rest, start, end: start }
  }
  const orders = ones.map((o) => order(once(o.start), o.amount))
  if (regular !== undefined) orders.unshift(order(regular, r.amount))
  return orders
}

/**
 * The recurrence from a later start (one occurrence fewer to count) or to an earlier end (the last one left out), or
 * undefined when no occurrence is left.
 */
const less = (
  r: Recurrence.Recurrence,
  change: { readonly start?: LocalDate.LocalDate; readonly end?: LocalDate.LocalDate }
): Recurrence.Recurrence | undefined => {
  const count = r.count === undefined ? undefined : r.count - 1
  if (count !== undefined && count < 1) return undefined
  const next: Recurrence.Recurrence = {
    ...r,
    ...(change.start === undefined ? {} : { start: change.start }),
    ...(change.end === undefined ? {} : { end: r.end === undefined || change.end < r.end ? change.end : r.end }),
    ...(count === undefined ? {} : { count })
  }
  return next.end !== undefined && next.end < next.start ? undefined : next
}
