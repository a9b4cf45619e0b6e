/**
 * The projection's payment lines as UTF-8 bytes, written straight into one large buffer that is reused. A line is
 * `before`, the nominal date, `between`, the execution date and the text after it; everything but the dates is the
 * same for every payment of an order, so each order's line is made once as bytes (the part after the dates that
 * many orders have in common, such as accounts and names, is kept once, so that it stays in cache), and a
 * payment's line is that copied with its two dates put in from a table of ISO date bytes by day number. The
 * payments come as columns, one execution date at a time (schedule's `Projection.columns`: an order index and a
 * nominal date per payment), so nothing is allocated per payment. A full buffer is handed on as one chunk and
 * refilled when the next chunk is asked for, so memory holds one chunk whatever the number of payments.
 *
 * Totals: the payments of one order in one month are handed to the CashFlow accumulator together when the month
 * ends, as one payment with the order's amount, currency and debtor added that many times: the accumulator (by
 * month) sees the same payments in another order, and its sums are exact, so the totals are the same.
 */
import { LocalDate } from "@tppkit/core"
import type { Payment, Projection } from "@tppkit/schedule"
import * as CashFlow from "@tppkit/schedule/CashFlow"

/** The fields of a payment a line shows (`Render.PaymentRow`). */
type PaymentRow = Omit<Payment.Payment, "k">

/** The fields of an order that every line of its payments shows. */
export type OrderFields = Projection.OrderFields

/** The payments of one execution date as columns: payment j < `length` is `nominal[j]` of order `order[j]`. */
export interface DayColumns {
  readonly executionDate: LocalDate.LocalDate
  readonly length: number
  readonly order: Int32Array
  readonly nominal: Int32Array
}

/**
 * The payments the writer reads: the orders' fields and the payments date by date (each date once, in order) as
 * indices into them; `Projection.Columns` is one, {@link columnsOf} makes one from payments. Each date's columns
 * are read before the next is asked for.
 */
export interface Source {
  readonly orders: ReadonlyArray<OrderFields>
  readonly days: Iterable<DayColumns>
}

/**
 * Payments in projection order as a {@link Source}: consecutive payments with one execution date make a date,
 * and each distinct set of an order's fields (orderId, amount, currency, accounts, creditor name) one order.
 */
export const columnsOf = (payments: Iterable<PaymentRow>): Source => {
  const orders: Array<OrderFields> = []
  const latest = new Map<string, number>()
  const same = (o: OrderFields, p: PaymentRow): boolean =>
    o.amount === p.amount &&
    o.currency === p.currency &&
    o.debtorIban === p.debtorIban &&
    o.creditorIban === p.creditorIban &&
    o.creditorName === p.creditorName
  function* days(): Generator<DayColumns> {
    const day = {
      executionDate: 0 as LocalDate.LocalDate,
      length: 0,
      order: new Int32Array(64),
      nominal: new Int32Array(64)
    }
    for (const p of payments) {
      if (day.length > 0 && p.executionDate !== day.executionDate) {
        yield day
        day.length = 0
      }
      day.executionDate = p.executionDate
      let i = latest.get(p.orderId)
      if (i === undefined || !same(orders[i]!, p)) {
        i = orders.length
        orders.push({
          orderId: p.orderId,
          amount: p.amount,
          currency: p.currency,
          debtorIban: p.debtorIban,
          creditorIban: p.creditorIban,
          creditorName: p.creditorName
        })
        latest.set(p.orderId, i)
      }
      if (day.length === day.order.length) {
        const order = new Int32Array(2 * day.length)
        const nominal = new Int32Array(2 * day.length)
        order.set(day.order)
        nominal.set(day.nominal)
        day.order = order
        day.nominal = nominal
      }
      day.order[day.length] = i
      day.nominal[day.length++] = p.nominalDate
    }
    if (day.length > 0) yield day
  }
  return { orders, days: days() }
}

/** Bytes of output gathered before a chunk is handed on. */
export const CHUNK = 1 << 20

/** How one format writes a payment's line around the two dates. */
export interface LineFormat {
  /** The text before the first line (the document's head). */
  readonly head: string
  /** The text between two lines (not before the first). */
  readonly separator: string
  /** The text between the nominal date and the execution date. */
  readonly between: string
  /**
   * The text of a payment's line before its nominal date and after its execution date, the latter in two parts
   * (`own`, then `shared`, a text many orders usually have in common: accounts, names): a function of the
   * order's fields.
   */
  readonly around: (o: OrderFields) => readonly [before: string, own: string, shared: string]
  /** When given, every payment is added to it (with the period `"month"`) before the tail is made. */
  readonly accumulator?: CashFlow.Accumulator | undefined
  /** The text after the last line, given the number of lines. */
  readonly tail: (count: number) => string
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

/** No bytes. */
const EMPTY = new Uint8Array(0)

/** Bytes of the orders' lines kept together in one array (each order's line is a view of one of them). */
const SLAB = 1 << 16

/**
 * The lines of the payments as UTF-8 chunks of about {@link CHUNK} bytes, head first and tail last: exactly the
 * bytes of the text `head + lines.join(separator) + tail`. Each chunk is a view of a buffer that is reused: it is
 * valid until the next chunk is asked for (write or copy it before).
 */
export function* encode(
  source: Source,
  window: { readonly from: LocalDate.LocalDate; readonly to: LocalDate.LocalDate },
  format: LineFormat
): Generator<Uint8Array> {
  const first = Math.max(LocalDate.MIN, window.from - MARGIN)
  const days = Math.max(0, Math.min(TABLE_DAYS, Math.min(LocalDate.MAX, window.to + MARGIN) - first + 1))
  const dates = dateTable(first, days)
  /** Writes a date's ISO text at `at` of `out` (from the table when it is in it). */
  const writeDate = (out: Buffer, at: number, day: number): void => {
    let d = day - first
    if (d < 0 || d >= days) {
      writeAscii(out, at, LocalDate.format(day as LocalDate.LocalDate))
      return
    }
    d *= DATE_BYTES
    for (let i = 0; i < DATE_BYTES; i++) out[at + i] = dates[d + i]!
  }
  const between = Buffer.from(format.between, "utf8")
  const separatorBytes = Buffer.byteLength(format.separator)
  const executionAt = DATE_BYTES + between.length
  // per order (by index): its line up to the text many orders share, with room for the dates (a view of a slab:
  // an array of its own per order would cost a backing store and its bookkeeping each), that shared text (one
  // array per distinct text), and where the nominal date goes
  const orders = source.orders
  const heads: Array<Uint8Array | undefined> = new Array(orders.length).fill(undefined)
  const tails: Array<Uint8Array> = new Array(orders.length).fill(EMPTY)
  const nominalAts: Array<number> = new Array(orders.length).fill(0)
  const tailOf = new Map<string, Uint8Array>()
  let slab = Buffer.allocUnsafe(SLAB)
  let slabUsed = 0
  /** Makes order `i`'s line; its head opens with the separator. */
  const lineOf = (i: number): Uint8Array => {
    const [before, own, text] = format.around(orders[i]!)
    let tail = tailOf.get(text)
    if (tail === undefined) {
      tail = Buffer.from(text, "utf8")
      tailOf.set(text, tail)
    }
    const nominalAt = separatorBytes + Buffer.byteLength(before)
    const size = nominalAt + executionAt + DATE_BYTES + Buffer.byteLength(own)
    if (slabUsed + size > slab.length) {
      slab = Buffer.allocUnsafe(Math.max(SLAB, size))
      slabUsed = 0
    }
    const head = slab.subarray(slabUsed, slabUsed + size)
    slabUsed += size
    head.write(before, head.write(format.separator, 0, "utf8"), "utf8")
    head.set(between, nominalAt + DATE_BYTES)
    head.write(own, nominalAt + executionAt + DATE_BYTES, "utf8")
    heads[i] = head
    tails[i] = tail
    nominalAts[i] = nominalAt
    return head
  }
  // totals: per order the payments of the current month not yet added, and the orders that have some
  const acc = format.accumulator
  let pendingCount = new Int32Array(orders.length)
  const pending: Array<number> = []
  let month = Number.NaN
  let monthDay = 0
  const addPending = (): void => {
    for (const i of pending) {
      const o = orders[i]!
      const p: CashFlow.Totalled = {
        executionDate: monthDay as LocalDate.LocalDate,
        amount: o.amount,
        currency: o.currency,
        debtorIban: o.debtorIban
      }
      for (let n = pendingCount[i]!; n > 0; n--) acc!.add(p)
      pendingCount[i] = 0
    }
    pending.length = 0
  }
  const reused = Buffer.allocUnsafe(CHUNK)
  let buf = reused
  let pos = 0
  const documentHead = format.head
  if (Buffer.byteLength(documentHead) > buf.length) buf = Buffer.allocUnsafe(Buffer.byteLength(documentHead))
  pos = buf.write(documentHead, 0, "utf8")
  let count = 0
  for (const day of source.days) {
    const executed = day.executionDate
    if (acc !== undefined) {
      const start = CashFlow.periodStart(executed, "month")
      if (start !== month) {
        addPending()
        month = start
      }
      monthDay = executed
      // orders of a source made from payments may appear while it is read
      if (pendingCount.length < orders.length) {
        const wider = new Int32Array(Math.max(orders.length, 2 * pendingCount.length))
        wider.set(pendingCount)
        pendingCount = wider
      }
    }
    const { order, nominal, length } = day
    for (let j = 0; j < length; j++) {
      const i = order[j]!
      const head = heads[i] ?? lineOf(i)
      const tail = tails[i]!
      if (acc !== undefined && pendingCount[i]!++ === 0) pending.push(i)
      const size = head.length + tail.length
      if (pos + size > buf.length) {
        yield buf.subarray(0, pos)
        // a line longer than a chunk gets a buffer of its own
        buf = size > reused.length ? Buffer.allocUnsafe(size) : reused
        pos = 0
      }
      // the head opens with the separator, which the first line leaves out
      const start = count === 0 ? pos - separatorBytes : pos
      if (count === 0) buf.set(head.subarray(separatorBytes), pos)
      else buf.set(head, pos)
      const at = start + nominalAts[i]!
      writeDate(buf, at, nominal[j]!)
      writeDate(buf, at + executionAt, executed)
      pos = start + head.length
      buf.set(tail, pos)
      pos += tail.length
      count++
    }
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
