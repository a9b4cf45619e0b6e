/**
 * The projection's payment lines as UTF-8 bytes, written straight into one large buffer that is reused. A line is
 * `before`, the nominal date, `between`, the execution date and the text after it; everything but the dates is the
 * same for every payment of an order, so each order's line is made once as bytes (the part after the dates that
 * many orders have in common, such as accounts and names, is kept once, so that it stays in cache), and a
 * payment's line is that copied with its two dates put in from a table of ISO date bytes by day number. The
 * payments come as columns, one execution date at a time (the engine's `Merge.days`: an order index and a nominal
 * date per payment), so nothing is allocated per payment. Runtime-neutral: `Uint8Array` and `TextEncoder` only. A full buffer is handed on as one chunk and
 * refilled when the next chunk is asked for, so memory holds one chunk whatever the number of payments.
 *
 * Totals: the payments of one order in one month are handed to the cash-flow tables together when the month ends,
 * as one payment with the order's amount, currency and debtor added that many times at once (`Tables.addTimes`):
 * the tables (by month) see the same payments in another order, and their sums are exact, so the totals are the
 * same.
 */
import { LocalDate, Money, Text } from "@tppkit/core"
import type * as Payment from "../Payment.ts"
import type * as Merge from "./merge.ts"
import * as Plans from "./plans.ts"
import * as Tables from "./tables.ts"

/**
 * The payments the writer reads: the orders' fields and the payments date by date (each date once, in order) as
 * indices into them, as the engine gives them (`Merge.days`). Each date's columns are read before the next is
 * asked for.
 */
export interface Source {
  readonly orders: ReadonlyArray<Plans.Fields>
  readonly days: Iterable<Pick<Merge.Day, "day" | "length" | "order" | "nominal">>
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
   * order's fields and of the payment's provenance (only `own` may depend on it: a payment executing on its order's
   * `nextDate` is `bank-confirmed`).
   */
  readonly around: (
    o: Plans.Fields,
    provenance: Payment.Provenance
  ) => readonly [before: string, own: string, shared: string]
  /** When given, every payment is added to it (with the period `"month"`) before the tail is made. */
  readonly accumulator?: Tables.Tables | undefined
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

const encoder = new TextEncoder()

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
  const writeDate = (out: Uint8Array, at: number, day: number): void => {
    let d = day - first
    if (d < 0 || d >= days) {
      writeAscii(out, at, LocalDate.format(day as LocalDate.LocalDate))
      return
    }
    d *= DATE_BYTES
    for (let i = 0; i < DATE_BYTES; i++) out[at + i] = dates[d + i]!
  }
  const between = encoder.encode(format.between)
  const separatorBytes = encoder.encode(format.separator).length
  const executionAt = DATE_BYTES + between.length
  // per order (by index): its line up to the text many orders share, with room for the dates (a view of a slab:
  // an array of its own per order would cost a backing store and its bookkeeping each), that shared text (one
  // array per distinct text), and where the nominal date goes
  const orders = source.orders
  const heads: Array<Uint8Array | undefined> = new Array(orders.length).fill(undefined)
  const tails: Array<Uint8Array> = new Array(orders.length).fill(EMPTY)
  const nominalAts: Array<number> = new Array(orders.length).fill(0)
  // per order its nextDate (a payment executing on it is bank-confirmed) and, once one is, its confirmed line
  const nextDates: Array<number> = new Array(orders.length).fill(Plans.NO_NEXT_DATE)
  const confirmedHeads: Array<Uint8Array | undefined> = new Array(orders.length).fill(undefined)
  const tailOf = new Map<string, Uint8Array>()
  let slab = new Uint8Array(SLAB)
  let slabUsed = 0
  /** Makes order `i`'s line of a provenance; its head opens with the separator. */
  const lineOf = (i: number, provenance: Payment.Provenance): Uint8Array => {
    const order = orders[i]!
    const [before, own, text] = format.around(order, provenance)
    let tail = tailOf.get(text)
    if (tail === undefined) {
      tail = encoder.encode(text)
      tailOf.set(text, tail)
    }
    // the separator is ASCII: its bytes and those of the text before the nominal date, together
    const opening = encoder.encode(format.separator + before)
    const ownBytes = encoder.encode(own)
    const nominalAt = opening.length
    const size = nominalAt + executionAt + DATE_BYTES + ownBytes.length
    if (slabUsed + size > slab.length) {
      slab = new Uint8Array(Math.max(SLAB, size))
      slabUsed = 0
    }
    const head = slab.subarray(slabUsed, slabUsed + size)
    slabUsed += size
    head.set(opening, 0)
    head.set(between, nominalAt + DATE_BYTES)
    head.set(ownBytes, nominalAt + executionAt + DATE_BYTES)
    if (provenance === "bank-confirmed") {
      confirmedHeads[i] = head
      return head
    }
    heads[i] = head
    tails[i] = tail
    nominalAts[i] = nominalAt
    nextDates[i] = order.nextDate ?? Plans.NO_NEXT_DATE
    return head
  }
  // totals: per order the payments of the current month not yet added, and the orders that have some
  const acc = format.accumulator
  let pendingCount = new Int32Array(orders.length)
  const pending: Array<number> = []
  let month = Number.NaN
  let monthDay = 0
  const addPending = (): void => Tables.addCounted(acc!, orders, pendingCount, pending, monthDay)

  const reused = new Uint8Array(CHUNK)
  let buf = reused
  let pos = 0
  const documentHead = encoder.encode(format.head)
  if (documentHead.length > buf.length) buf = new Uint8Array(documentHead.length)
  buf.set(documentHead, 0)
  pos = documentHead.length
  let count = 0
  for (const day of source.days) {
    const executed = day.day as LocalDate.LocalDate
    if (acc !== undefined) {
      const start = Tables.periodStart(executed, "month")
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
      let head = heads[i] ?? lineOf(i, "engine-predicted")
      if (executed === nextDates[i]) head = confirmedHeads[i] ?? lineOf(i, "bank-confirmed")
      const tail = tails[i]!
      if (acc !== undefined && pendingCount[i]!++ === 0) pending.push(i)
      const size = head.length + tail.length
      if (pos + size > buf.length) {
        yield buf.subarray(0, pos)
        // a line longer than a chunk gets a buffer of its own
        buf = size > reused.length ? new Uint8Array(size) : reused
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
  const tail = encoder.encode(format.tail(count))
  if (pos + tail.length > buf.length) {
    if (pos > 0) yield buf.subarray(0, pos)
    buf = tail.length > reused.length ? new Uint8Array(tail.length) : reused
    pos = 0
  }
  buf.set(tail, pos)
  pos += tail.length
  if (pos > 0) yield buf.subarray(0, pos)
}

// ---------------------------------------------------------------------------
// the formats
// ---------------------------------------------------------------------------

/** An order left out of the document, with the reason in words. */
export interface Skipped {
  readonly orderId: string | undefined
  /** The record's position in its file, from 1, when the entry names a record. */
  readonly position?: number | undefined
  readonly reason: string
}

/** What the JSON document states besides the payments: the window, the settings and the skipped orders. */
export interface Header {
  readonly from: LocalDate.LocalDate
  readonly to: LocalDate.LocalDate
  readonly calendar: string
  readonly convention: string
  readonly skipped: ReadonlyArray<Skipped>
  /** The orderIds that several records give, with the records' positions (written only when there are any). */
  readonly repeated?: ReadonlyArray<{ readonly orderId: string; readonly positions: ReadonlyArray<number> }> | undefined
}

const jsonArray = (indent: string, items: ReadonlyArray<unknown>): string =>
  items.length === 0
    ? "]"
    : `${items.map((item) => `\n${indent}${JSON.stringify(item)}`).join(",")}\n${indent.slice(2)}]`

/**
 * The JSON document, one payment per line (each line `JSON.stringify` of the payment's object: orderId, nominalDate,
 * executionDate, provenance, amount with its currency's minor unit digits, currency, debtorIban, creditorIban, creditorName when known), then the
 * skipped orders and the totals per currency (summed while the lines are written).
 */
export const jsonFormat = (header: Header): LineFormat => {
  const acc = new Tables.Tables("month")
  const head = (key: string, value: string) => `  ${JSON.stringify(key)}: ${JSON.stringify(value)},\n`
  return {
    head:
      `{\n${head("from", LocalDate.format(header.from))}${head("to", LocalDate.format(header.to))}` +
      `${head("calendar", header.calendar)}${head("convention", header.convention)}  "payments": [`,
    separator: ",",
    between: '","executionDate":"',
    around: (p, provenance) => [
      `\n    {"orderId":${JSON.stringify(p.orderId)},"nominalDate":"`,
      `","provenance":"${provenance}","amount":${JSON.stringify(Money.formatMinor(p.amount, p.currency))}`,
      `,"currency":${JSON.stringify(p.currency)},"debtorIban":${JSON.stringify(p.debtorIban)}` +
        `,"creditorIban":${p.creditorIban === undefined ? "null" : JSON.stringify(p.creditorIban)}` +
        `${p.creditorName === undefined ? "" : `,"creditorName":${JSON.stringify(p.creditorName)}`}}`
    ],
    accumulator: acc,
    tail: (count) => {
      const skipped = header.skipped.map((s) =>
        s.position === undefined
          ? { orderId: s.orderId ?? null, reason: s.reason }
          : { orderId: s.orderId ?? null, position: s.position, reason: s.reason }
      )
      const totals = acc.result().byCurrency.map((t) => ({
        currency: t.currency,
        count: t.count,
        amount: Money.formatMinor(t.amount, t.currency)
      }))
      const repeated = header.repeated ?? []
      return (
        `${count === 0 ? "]" : "\n  ]"},\n  "skipped": [${jsonArray("    ", skipped)}` +
        (repeated.length === 0 ? "" : `,\n  "repeated": [${jsonArray("    ", repeated)}`) +
        `,\n  "totals": [${jsonArray("    ", totals)}\n}\n`
      )
    }
  }
}

/** Options of the CSV writers. */
export interface CsvOptions {
  /**
   * Write cells that begin like a spreadsheet formula as they are, for programs that read the file (default
   * `false`: neutralised for spreadsheets, see {@link csvCell}). Control characters are shown escaped either way.
   */
  readonly rawFormulas?: boolean | undefined
}

/**
 * The first characters by which a spreadsheet takes a cell for a formula (OWASP, "CSV Injection"): `=`, `+`, `-`,
 * `@`, tab, carriage return, line feed and NUL, and their full-width forms, which some spreadsheets read alike.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters a formula may begin with
const FORMULA_LEADER = /^[=+\-@\t\r\n\u0000\uff1d\uff0b\uff0d\uff20]/

/** A plain decimal number: a cell a spreadsheet reads as a number, never as a formula, so it is kept. */
const NUMBER = /^-?\d+(\.\d+)?$/

/**
 * A CSV cell (RFC 4180) from any text: control characters shown escaped (core's `Text.printable`: `\x1b`,
 * `\u{202e}`), quoted when it holds a quote or a comma, and, unless `rawFormulas`, a text that begins like a formula
 * neutralised as OWASP recommends for spreadsheet exports: a single quote before it, the whole quoted
 * (`=HYPERLINK(…)` is written `"'=HYPERLINK(…)"`); a plain number (`-300.00`) is kept as it is, so a negative amount
 * stays a number a spreadsheet sums.
 */
export const csvCell = (text: string, rawFormulas = false): string => {
  const shown = Text.printable(text)
  if (!rawFormulas && FORMULA_LEADER.test(shown) && !NUMBER.test(shown)) return `"'${shown.replaceAll('"', '""')}"`
  return /[",\r\n]/.test(shown) ? `"${shown.replaceAll('"', '""')}"` : shown
}

/** The columns of the CSV format, in order. */
export const CSV_HEADER = [
  "orderId",
  "nominalDate",
  "executionDate",
  "provenance",
  "amount",
  "currency",
  "debtorIban",
  "creditorIban",
  "creditorName"
] as const

/**
 * CSV (RFC 4180): the header, then one CRLF-terminated line per payment with the JSON format's fields; every text
 * cell is a {@link csvCell} (control characters escaped, formulas neutralised unless `rawFormulas`).
 */
export const csvFormat = (options?: CsvOptions): LineFormat => {
  const raw = options?.rawFormulas === true
  const cell = (text: string) => csvCell(text, raw)
  return {
    head: `${CSV_HEADER.join(",")}\r\n`,
    separator: "",
    between: ",",
    around: (p, provenance) => [
      `${cell(p.orderId)},`,
      `,${provenance},${Money.formatMinor(p.amount, p.currency)}`,
      `,${[p.currency, p.debtorIban, p.creditorIban ?? "", p.creditorName ?? ""].map(cell).join(",")}\r\n`
    ],
    tail: () => ""
  }
}
