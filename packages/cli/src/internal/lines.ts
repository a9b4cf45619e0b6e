/**
 * The projection's payment lines as UTF-8 bytes, written straight into one large buffer that is reused. A line is
 * `before`, the nominal date, `between`, the execution date and the text after it; the texts before and after stay
 * the same for every payment of an order, so they are made once per order and copied afterwards (the part of the
 * text after that many orders have in common is kept once, so it stays in cache), and the dates are copied from
 * a table of ISO date bytes by day number. A full buffer is handed on as one chunk and refilled when the next
 * chunk is asked for, so memory holds one chunk whatever the number of payments.
 *
 * Totals: the payments of one order in one month are handed to the CashFlow accumulator together when the month
 * ends, as one payment with the order's amount, currency and debtor added that many times: the accumulator (by
 * month) sees the same payments in another order, and its sums are exact, so the totals are the same.
 */
import { LocalDate } from "@tppkit/core"
import type { Payment } from "@tppkit/schedule"
import * as CashFlow from "@tppkit/schedule/CashFlow"
import type { BigDecimal } from "effect"

/** The fields of a payment a line shows (`Render.PaymentRow`). */
type PaymentRow = Omit<Payment.Payment, "k">

/** Bytes of output gathered before a chunk is handed on. */
export const CHUNK = 1 << 20

/** How one format writes a payment's line around the two dates. */
export interface LineFormat<P extends PaymentRow> {
  /** The text before the first line (the document's head). */
  readonly head: string
  /** The text between two lines (not before the first). */
  readonly separator: string
  /** The text between the nominal date and the execution date. */
  readonly between: string
  /**
   * The text of a payment's line before its nominal date and after its execution date, the latter in two parts
   * (`own`, then `shared`, a text many orders usually have in common: accounts, names): a function of the
   * payment's orderId, amount, currency, accounts and creditor name only.
   */
  readonly around: (p: P) => readonly [before: string, own: string, shared: string]
  /** When given, every payment is added to it (with the period `"month"`) before the tail is made. */
  readonly accumulator?: CashFlow.Accumulator | undefined
  /** The text after the last line, given the number of lines. */
  readonly tail: (count: number) => string
}

/** The text around the dates of one order's payments, the fields it was made from, and the order's pending total. */
interface Parts {
  readonly orderId: string
  readonly amount: BigDecimal.BigDecimal
  readonly currency: string
  readonly debtorIban: string
  readonly creditorIban: string
  readonly creditorName: string | undefined
  /** The separator and `before`. */
  readonly before: string
  readonly own: string
  /** One string for every equal text, so that the common ones stay in the processor's caches. */
  readonly shared: string
  /** Whether both texts are ASCII (one byte per character). */
  readonly ascii: boolean
  /** The bytes of the longest line these parts make, dates included. */
  readonly size: number
  /** The parts of the payment that came after this order's payment last time (the usual next one). */
  next: Parts | undefined
  /** Payments of the current month not yet added to the accumulator, and the execution date of the last. */
  pending: number
  lastDay: number
}

/** Bytes of the ISO text of a date (years 0001–9999). */
const DATE_BYTES = 10
/** Days of the date table beyond each end of the window (nominal dates moved by a convention lie just outside). */
const MARGIN = 64
/** Most days the date table covers; dates beyond it are formatted one by one. */
const TABLE_DAYS = 40_000

/** Writes ASCII text (an ISO date) at `pos`, returning the position after it. */
const writeAscii = (buf: Uint8Array, pos: number, text: string): number => {
  for (let i = 0; i < text.length; i++) buf[pos + i] = text.charCodeAt(i)
  return pos + text.length
}

/** The ISO texts of the days `first`, `first + 1`, … as bytes, `DATE_BYTES` per day. */
const dateTable = (first: number, days: number): Uint8Array => {
  const table = new Uint8Array(days * DATE_BYTES)
  for (let i = 0; i < days; i++) writeAscii(table, i * DATE_BYTES, LocalDate.format((first + i) as LocalDate.LocalDate))
  return table
}

/** Writes text at `pos` as UTF-8 (`ascii`: every character is one byte), returning the position after it. */
const writeText = (buf: Buffer, pos: number, text: string, ascii: boolean): number =>
  pos + buf.write(text, pos, ascii ? "latin1" : "utf8")

/**
 * The lines of the payments as UTF-8 chunks of about {@link CHUNK} bytes, head first and tail last: exactly the
 * bytes of the text `head + lines.join(separator) + tail`. Each chunk is a view of a buffer that is reused: it is
 * valid until the next chunk is asked for (write or copy it before).
 */
export function* encode<P extends PaymentRow>(
  payments: Iterable<P>,
  window: { readonly from: LocalDate.LocalDate; readonly to: LocalDate.LocalDate },
  format: LineFormat<P>
): Generator<Uint8Array> {
  const first = Math.max(LocalDate.MIN, window.from - MARGIN)
  const days = Math.max(0, Math.min(TABLE_DAYS, Math.min(LocalDate.MAX, window.to + MARGIN) - first + 1))
  const dates = dateTable(first, days)
  /** Writes a date's ISO text at `at` of `out` (from the table when it is in it) and returns the end. */
  const writeDate = (out: Buffer, at: number, day: number): number => {
    let d = day - first
    if (d < 0 || d >= days) return writeAscii(out, at, LocalDate.format(day as LocalDate.LocalDate))
    d *= DATE_BYTES
    for (let i = 0; i < DATE_BYTES; i++) out[at + i] = dates[d + i]!
    return at + DATE_BYTES
  }
  const between = format.between
  const betweenAscii = Buffer.byteLength(between) === between.length
  const betweenBytes = Buffer.byteLength(between)
  const byOrder = new Map<string, Parts>()
  const sharedTexts = new Map<string, string>()
  const partsOf = (p: P): Parts => {
    const [b, own, text] = format.around(p)
    const before = format.separator + b
    let shared = sharedTexts.get(text)
    if (shared === undefined) {
      shared = text
      sharedTexts.set(text, text)
    }
    const bytes = Buffer.byteLength(before) + Buffer.byteLength(own) + Buffer.byteLength(shared)
    const parts: Parts = {
      orderId: p.orderId,
      amount: p.amount,
      currency: p.currency,
      debtorIban: p.debtorIban,
      creditorIban: p.creditorIban,
      creditorName: p.creditorName,
      before,
      own,
      shared,
      ascii: bytes === before.length + own.length + shared.length,
      size: bytes + betweenBytes + 2 * DATE_BYTES,
      next: undefined,
      pending: 0,
      lastDay: 0
    }
    byOrder.set(p.orderId, parts)
    return parts
  }
  // totals: the orders with payments of the current month not yet added
  const acc = format.accumulator
  const pending: Array<Parts> = []
  let month = Number.NaN
  let lastDay = Number.NaN
  const addPending = (): void => {
    for (const parts of pending) {
      const p: CashFlow.Totalled = {
        executionDate: parts.lastDay as LocalDate.LocalDate,
        amount: parts.amount,
        currency: parts.currency,
        debtorIban: parts.debtorIban
      }
      for (let n = parts.pending; n > 0; n--) acc!.add(p)
      parts.pending = 0
    }
    pending.length = 0
  }
  const reused = Buffer.allocUnsafe(CHUNK)
  let buf = reused
  let pos = 0
  const head = format.head
  if (Buffer.byteLength(head) > buf.length) buf = Buffer.allocUnsafe(Buffer.byteLength(head))
  pos = buf.write(head, 0, "utf8")
  let count = 0
  let previous: Parts | undefined
  for (const p of payments) {
    // payments come day by day with the orders in the same order, so the order that followed last time is
    // usually the one: try it before the map
    let parts = previous?.next
    if (parts === undefined || parts.orderId !== p.orderId) parts = byOrder.get(p.orderId)
    if (
      parts === undefined ||
      parts.orderId !== p.orderId ||
      parts.amount !== p.amount ||
      parts.currency !== p.currency ||
      parts.debtorIban !== p.debtorIban ||
      parts.creditorIban !== p.creditorIban ||
      parts.creditorName !== p.creditorName
    ) {
      parts = partsOf(p)
    }
    if (previous !== undefined) previous.next = parts
    previous = parts
    if (acc !== undefined) {
      if (p.executionDate !== lastDay) {
        lastDay = p.executionDate
        const start = CashFlow.periodStart(p.executionDate, "month")
        if (start !== month) {
          addPending()
          month = start
        }
      }
      if (parts.pending === 0) pending.push(parts)
      parts.pending++
      parts.lastDay = p.executionDate
    }
    if (pos + parts.size > buf.length) {
      yield buf.subarray(0, pos)
      // a line longer than a chunk gets a buffer of its own
      buf = parts.size > reused.length ? Buffer.allocUnsafe(parts.size) : reused
      pos = 0
    }
    // the separator opens `before`; the first line starts after it
    if (count === 0) pos = writeText(buf, pos, parts.before.slice(format.separator.length), parts.ascii)
    else pos = writeText(buf, pos, parts.before, parts.ascii)
    pos = writeDate(buf, pos, p.nominalDate)
    pos = writeText(buf, pos, between, betweenAscii)
    pos = writeDate(buf, pos, p.executionDate)
    pos = writeText(buf, pos, parts.own, parts.ascii)
    pos = writeText(buf, pos, parts.shared, parts.ascii)
    count++
  }
  if (acc !== undefined) addPending()
  const tail = format.tail(count)
  const tailBytes = Buffer.byteLength(tail)
  if (pos + tailBytes > buf.length) {
    if (pos > 0) yield buf.subarray(0, pos)
    buf = tailBytes > reused.length ? Buffer.allocUnsafe(tailBytes) : reused
    pos = 0
  }
  pos += buf.write(tail, pos, "utf8")
  if (pos > 0) yield buf.subarray(0, pos)
}
