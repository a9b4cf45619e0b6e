/**
 * The iCalendar (RFC 5545) engine: the text of an event (public as `ICalendar`), and its column writer, which writes
 * the events of a projection as UTF-8 bytes straight into one large buffer that is reused, as `internal/lines.ts`
 * does for JSON and CSV. Everything of an event but its dates and occurrence number is the same for every payment
 * of an order, so each order's parts are made once as bytes, already folded: the opening (`BEGIN:VEVENT` and the
 * UID up to its date) and the middle (SUMMARY and DESCRIPTION up to the occurrence number). A payment's event is
 * those parts copied, with its dates (from tables of date bytes by day number) and its occurrence number put in,
 * the folding of each line carried on from where the order's part left it. The payments come as columns, one
 * execution date at a time (`Merge.days`), so nothing is allocated per payment. Runtime-neutral: `Uint8Array` and
 * `TextEncoder` only; the bytes are those of the text `ICalendar.fromPayments` makes of the same payments.
 */
import { LocalDate, Money, Text } from "@tppkit/core"
import type { BigDecimal } from "effect"
import * as Payment from "../Payment.ts"
import * as EventProvenance from "./eventProvenance.ts"
import type * as Merge from "./merge.ts"
import * as Plans from "./plans.ts"

/** Options of the iCalendar text (the public `ICalendar.Options`). */
export interface Options {
  readonly name?: string | undefined
  readonly domain?: string | undefined
  readonly stampMillis?: number | undefined
  readonly rule?: string | undefined
}

/** A payment as an event needs it (the public `Payment.Payment`). */
export interface Paid extends Plans.Fields {
  readonly k: number
  readonly nominalDate: LocalDate.LocalDate
  readonly executionDate: LocalDate.LocalDate
}

const CRLF = "\r\n"
const encoder = new TextEncoder()

// ---------------------------------------------------------------------------
// the text
// ---------------------------------------------------------------------------

/**
 * Escapes a TEXT value (RFC 5545 3.3.11): backslash, semicolon, comma and line breaks; any other control character
 * (which TEXT excludes: ESC, BEL, DEL, C1, a bidirectional override) is shown escaped first, as core's
 * `Text.printable` shows it (`\x1b`, `\u{202e}`, its backslash then escaped as TEXT's `\\`), so a reader gets the
 * visible text back and never the character.
 */
export const escapeText = (s: string): string =>
  (Text.hasUnprintable(s)
    ? s
        .split(/\r\n|\r|\n/)
        .map(Text.printable)
        .join("\n")
    : s
  )
    .replace(/\\/g, "\\\\")
    .replace(/;/g, "\\;")
    .replace(/,/g, "\\,")
    .replace(/\r\n|\r|\n/g, "\\n")

/** Octets on a folded line: the first line's, then each continuation's (its leading space counts). */
const FIRST_LINE = 75
const CONTINUATION = 74

/**
 * A content line folded into lines of at most 75 octets (RFC 5545 3.1): each continuation starts with one space,
 * and a multi-byte UTF-8 character is never split.
 */
export const foldLine = (line: string): string => {
  if (line.length <= FIRST_LINE / 3 || encoder.encode(line).length <= FIRST_LINE) return line
  const parts: Array<string> = []
  let current = ""
  let octets = 0
  let limit = FIRST_LINE
  for (const ch of line) {
    const size = utf8Size(ch.codePointAt(0)!)
    if (octets + size > limit) {
      parts.push(current)
      current = ""
      octets = 0
      limit = CONTINUATION
    }
    current += ch
    octets += size
  }
  parts.push(current)
  return parts.join(`${CRLF} `)
}

/** The UTF-8 octets of a code point (a lone surrogate is written as U+FFFD, three octets). */
const utf8Size = (cp: number): number => (cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4)

/**
 * Writes bytes into `out` from `pos` as the rest of a content line, folding it: a break (CRLF and a space) goes
 * before a character that would pass the line's octets. `octets` and `limit` are the state of the line so far.
 */
class Folder {
  out: Uint8Array
  pos = 0
  octets = 0
  limit = FIRST_LINE
  constructor(out: Uint8Array) {
    this.out = out
  }
  /** Folds `src[from..to)` (whole UTF-8 characters) onto the line. */
  fold(src: Uint8Array, from: number, to: number): void {
    const out = this.out
    let pos = this.pos
    let octets = this.octets
    let limit = this.limit
    let i = from
    while (i < to) {
      let size = 1
      while (i + size < to && (src[i + size]! & 0xc0) === 0x80) size++
      if (octets + size > limit) {
        out[pos++] = 13
        out[pos++] = 10
        out[pos++] = 32
        octets = 0
        limit = CONTINUATION
      }
      octets += size
      for (const end = i + size; i < end; i++) out[pos++] = src[i]!
    }
    this.pos = pos
    this.octets = octets
    this.limit = limit
  }
}

const pad = (n: number, width: number): string => String(n).padStart(width, "0")

/** A date's iCalendar DATE text (`YYYYMMDD`). */
export const dateValue = (d: LocalDate.LocalDate): string => LocalDate.format(d).replace(/-/g, "")

/** A DATE-TIME text in UTC (`YYYYMMDDTHHMMSSZ`) of milliseconds since the epoch. */
export const stampValue = (millis: number): string => {
  const day = Math.floor(millis / 86_400_000)
  const rest = millis - day * 86_400_000
  const s = Math.floor(rest / 1000)
  return `${dateValue(day as LocalDate.LocalDate)}T${pad(Math.floor(s / 3600), 2)}${pad(Math.floor(s / 60) % 60, 2)}${pad(s % 60, 2)}Z`
}

/** An amount with at least two decimals, exactly (e.g. `1250.50`, `0.125`, `-3.00`). */
export const formatAmount = (amount: BigDecimal.BigDecimal): string => {
  let value = amount.value
  let scale = amount.scale
  if (scale < 2) {
    value = value * 10n ** BigInt(2 - scale)
    scale = 2
  }
  const negative = value < 0n
  const digits = (negative ? -value : value).toString().padStart(scale + 1, "0")
  const sign = negative ? "-" : ""
  return `${sign}${digits.slice(0, digits.length - scale)}.${digits.slice(digits.length - scale)}`
}

/** A lone surrogate (half of a UTF-16 pair without its other half). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g

/**
 * An orderId as the UID writes it: URI-encoded, a lone surrogate (which `encodeURIComponent` refuses) written as
 * U+FFFD, the character every UTF-8 output of tppkit shows in its place.
 */
export const uidName = (orderId: string): string => encodeURIComponent(orderId.replace(LONE_SURROGATE, "\ufffd"))

/** The UID of a payment's event: its orderId (URI-encoded), its nominal date and the domain. */
export const uid = (p: Pick<Paid, "orderId" | "nominalDate">, domain = "tppkit"): string =>
  `${uidName(p.orderId)}-${dateValue(p.nominalDate)}@${domain}`

/** A field of an order as an event shows it: control characters shown escaped (core's `Text.printable`). */
const shown = Text.printable

/** The SUMMARY text of an order's events: amount, currency and creditor. */
export const summary = (o: Plans.Fields): string =>
  `Standing order ${Money.formatMinor(o.amount, o.currency)} ${shown(o.currency)} to ${shown(Payment.creditorLabel(o))}`

/** The DESCRIPTION text of an order's payments up to the occurrence number. */
const descriptionHead = (o: Plans.Fields): string =>
  [
    `Amount: ${Money.formatMinor(o.amount, o.currency)} ${shown(o.currency)}`,
    `From: ${shown(o.debtorIban)}`,
    `To: ${shown(o.creditorName === undefined || o.creditorIban === undefined ? Payment.creditorLabel(o) : `${o.creditorName} (${o.creditorIban})`)}`,
    `Standing order: ${shown(o.orderId)}, occurrence `
  ].join("\n")

const NOMINAL_LABEL = "\nNominal date: "
const EXECUTION_LABEL = "; execution date: "

/** A payment's provenance: its own, else from its order's `nextDate` (the column writer's reading). */
const provenanceOf = (p: Paid & { readonly provenance?: Payment.Provenance | undefined }): Payment.Provenance =>
  p.provenance ?? Plans.provenance(p.nextDate, p.executionDate)

/**
 * The VEVENT lines of one payment (unfolded). An event on 9999-12-31 has no DTEND: the day after it has no DATE
 * text, and an all-day event without one lasts its day (RFC 5545 3.6.1).
 */
export const eventLines = (p: Paid, options: Options | undefined): Array<string> => [
  "BEGIN:VEVENT",
  `UID:${escapeText(uid(p, options?.domain))}`,
  `DTSTAMP:${stampValue(options?.stampMillis ?? p.nominalDate * 86_400_000)}`,
  `DTSTART;VALUE=DATE:${dateValue(p.executionDate)}`,
  ...(p.executionDate < LocalDate.MAX ? [`DTEND;VALUE=DATE:${dateValue(LocalDate.addDays(p.executionDate, 1))}`] : []),
  `SUMMARY:${escapeText(summary(p))}`,
  `DESCRIPTION:${escapeText(
    `${descriptionHead(p)}${p.k}${NOMINAL_LABEL}${LocalDate.format(p.nominalDate)}${EXECUTION_LABEL}` +
      LocalDate.format(p.executionDate) +
      EventProvenance.describe(provenanceOf(p), p.nominalDate !== p.executionDate, options?.rule)
  )}`,
  `${EventProvenance.property}:${provenanceOf(p)}`,
  "TRANSP:TRANSPARENT",
  "END:VEVENT"
]

/** Content lines, each folded and CRLF-terminated. */
export const lines = (list: ReadonlyArray<string>): string => list.map((line) => `${foldLine(line)}${CRLF}`).join("")

/** The calendar's head lines (folded, CRLF-terminated). */
export const head = (options: Options | undefined): string =>
  lines([
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//tppkit//schedule//EN",
    "CALSCALE:GREGORIAN",
    "METHOD:PUBLISH",
    `X-WR-CALNAME:${escapeText(options?.name ?? "Standing orders")}`
  ])

/** The calendar's last line. */
export const TAIL = lines(["END:VCALENDAR"])

// ---------------------------------------------------------------------------
// the column writer
// ---------------------------------------------------------------------------

/**
 * The payments the writer reads: the orders' fields and the payments date by date (each date once, in order) as
 * indices into them, with their occurrence numbers (`Merge.days`). Each date's columns are read before the next is
 * asked for.
 */
export interface Source {
  readonly orders: ReadonlyArray<Plans.Fields>
  readonly days: Iterable<Pick<Merge.Day, "day" | "length" | "order" | "k" | "nominal">>
}

/** Bytes of output gathered before a chunk is handed on. */
export const CHUNK = 1 << 20

/** Days of the date tables beyond each end of the window (moved nominal dates and DTEND lie just outside). */
const MARGIN = 64
/** Most days the date tables cover; dates beyond them are formatted one by one (each execution date once). */
const TABLE_DAYS = 40_000

/** Writes ASCII text at `pos`, returning the position after it. */
const writeAscii = (buf: Uint8Array, pos: number, text: string): number => {
  for (let i = 0; i < text.length; i++) buf[pos + i] = text.charCodeAt(i)
  return pos + text.length
}

/** Writes an integer's decimal text at `pos`, returning the position after it. */
const writeNumber = (buf: Uint8Array, pos: number, n: number): number => {
  if (n < 0) return writeAscii(buf, pos, String(n))
  let digits = 1
  for (let m = n; m >= 10; m = Math.floor(m / 10)) digits++
  let m = n
  for (let x = pos + digits - 1; x >= pos; x--) {
    buf[x] = 48 + (m % 10)
    m = Math.floor(m / 10)
  }
  return pos + digits
}

/** The bytes of arrays one after the other. */
const concat = (...arrays: ReadonlyArray<Uint8Array>): Uint8Array => {
  const out = new Uint8Array(arrays.reduce((n, a) => n + a.length, 0))
  let at = 0
  for (const a of arrays) {
    out.set(a, at)
    at += a.length
  }
  return out
}

/**
 * The texts of dates as bytes: the ISO text (`YYYY-MM-DD`) and the DATE text (`YYYYMMDD`) of each day of a span in
 * two tables, and of a day outside it in a slot that keeps the last one made (an execution date is asked for by
 * every payment of its day).
 */
class DateBytes {
  readonly first: number
  readonly days: number
  readonly iso: Uint8Array
  readonly compact: Uint8Array
  private lastDay = Number.NaN
  private lastIso = ""
  private lastCompact = ""
  constructor(from: number, to: number) {
    this.first = Math.max(LocalDate.MIN, from - MARGIN)
    this.days = Math.max(0, Math.min(TABLE_DAYS, Math.min(LocalDate.MAX, to + MARGIN) - this.first + 1))
    this.iso = new Uint8Array(this.days * 10)
    this.compact = new Uint8Array(this.days * 8)
    for (let i = 0; i < this.days; i++) this.make(this.first + i, this.iso, i * 10, this.compact, i * 8)
  }
  private make(day: number, iso: Uint8Array, isoAt: number, compact: Uint8Array, compactAt: number): void {
    const text = LocalDate.format(day as LocalDate.LocalDate)
    writeAscii(iso, isoAt, text)
    writeAscii(compact, compactAt, dateValue(day as LocalDate.LocalDate))
  }
  /** Makes the texts of a day outside the tables (the day after 9999-12-31 has a longer text, as `dateValue` says). */
  private outside(day: number): void {
    if (day === this.lastDay) return
    this.lastIso = LocalDate.format(day as LocalDate.LocalDate)
    this.lastCompact = dateValue(day as LocalDate.LocalDate)
    this.lastDay = day
  }
  /** Writes a day's ISO text at `at`, returning the position after it. */
  writeIso(out: Uint8Array, at: number, day: number): number {
    return this.write(out, at, day, this.iso, 10, false)
  }
  /** Writes a day's DATE text at `at`, returning the position after it. */
  writeCompact(out: Uint8Array, at: number, day: number): number {
    return this.write(out, at, day, this.compact, 8, true)
  }
  /** Writes a day's text of `width` bytes from `table` (ISO or DATE, `compact`), else made for it, at `at`. */
  private write(out: Uint8Array, at: number, day: number, table: Uint8Array, width: number, compact: boolean): number {
    const d = day - this.first
    if (d >= 0 && d < this.days) {
      const s = d * width
      for (let i = 0; i < width; i++) out[at + i] = table[s + i]!
      return at + width
    }
    this.outside(day)
    return writeAscii(out, at, compact ? this.lastCompact : this.lastIso)
  }
}

/** A line's text folded from its start: its bytes and where the last line stands (octets so far, its limit). */
interface Folded {
  readonly bytes: Uint8Array
  readonly octets: number
  readonly limit: number
}

const folded = (text: string): Folded => {
  const bytes = encoder.encode(text)
  const f = new Folder(new Uint8Array(2 * bytes.length + 3))
  f.fold(bytes, 0, bytes.length)
  return { bytes: f.out.slice(0, f.pos), octets: f.octets, limit: f.limit }
}

/** What every event of one order shares, as bytes. */
interface OrderParts {
  /** `BEGIN:VEVENT` and the UID line up to the nominal date, folded. */
  readonly opening: Folded
  /** The SUMMARY line and the DESCRIPTION line up to the occurrence number, folded. */
  readonly middle: Folded
  /** Most bytes one event of the order takes. */
  readonly room: number
}

/**
 * The events of the payments as an iCalendar document in UTF-8 chunks of about {@link CHUNK} bytes, the calendar's
 * head first and its end last. Each chunk is a view of a buffer that is reused: it is valid until the next chunk is
 * asked for (write or copy it before).
 */
export function* encode(
  source: Source,
  window: { readonly from: LocalDate.LocalDate; readonly to: LocalDate.LocalDate },
  options: Options | undefined
): Generator<Uint8Array> {
  const dates = new DateBytes(window.from, window.to)
  // the UID after its date (`@domain`, escaped), and the DTSTAMP when it is one for every event
  const uidEnd = encoder.encode(escapeText(`@${options?.domain ?? "tppkit"}`))
  const stamp =
    options?.stampMillis === undefined
      ? undefined
      : encoder.encode(`${foldLine(`DTSTAMP:${stampValue(options.stampMillis)}`)}${CRLF}`)
  const afterUid = encoder.encode(`${CRLF}DTSTAMP:`)
  const stampTime = encoder.encode(`T000000Z${CRLF}`)
  const start = encoder.encode("DTSTART;VALUE=DATE:")
  const end = encoder.encode(`${CRLF}DTEND;VALUE=DATE:`)
  const afterDates = encoder.encode(CRLF)
  const begin = encoder.encode(`BEGIN:VEVENT${CRLF}`)
  // the DESCRIPTION after the occurrence number, all ASCII: the labels of its two dates
  const nominalLabel = encoder.encode(escapeText(NOMINAL_LABEL))
  const executionLabel = encoder.encode(escapeText(EXECUTION_LABEL))
  const closing = encoder.encode(`${CRLF}TRANSP:TRANSPARENT${CRLF}END:VEVENT${CRLF}`)
  // the DESCRIPTION's provenance line (escaped; a bank-confirmed date, a predicted one, a predicted one moved) and the
  // provenance property's line, each after its line break
  const provenanceText = (provenance: Payment.Provenance, moved: boolean): Uint8Array =>
    encoder.encode(escapeText(EventProvenance.describe(provenance, moved, options?.rule)))
  const confirmedText = provenanceText("bank-confirmed", false)
  const predictedText = provenanceText("engine-predicted", false)
  const movedText = provenanceText("engine-predicted", true)
  const confirmedLine = encoder.encode(`${CRLF}${EventProvenance.property}:bank-confirmed`)
  const predictedLine = encoder.encode(`${CRLF}${EventProvenance.property}:engine-predicted`)
  const longest = Math.max(confirmedText.length, predictedText.length, movedText.length)
  // the unfolded rest of a DESCRIPTION line: occurrence number (at most 11 characters), labels and two dates (of
  // at most 11 characters: the day after 9999-12-31 is 10000-01-01), then the provenance line
  const rest = new Uint8Array(11 + nominalLabel.length + 11 + executionLabel.length + 11 + longest)
  const fixed =
    afterUid.length +
    stampTime.length +
    start.length +
    end.length +
    afterDates.length +
    closing.length +
    confirmedLine.length +
    32 +
    (stamp?.length ?? 0)
  const orders = source.orders
  const parts: Array<OrderParts | undefined> = new Array(orders.length).fill(undefined)
  const partsOf = (i: number): OrderParts => {
    const o = orders[i]!
    const uidStart = folded(`UID:${escapeText(uidName(o.orderId))}-`)
    const opening = { ...uidStart, bytes: concat(begin, uidStart.bytes) }
    const middle = folded(`SUMMARY:${escapeText(summary(o))}`)
    const description = folded(`DESCRIPTION:${escapeText(descriptionHead(o))}`)
    const joined = concat(middle.bytes, afterDates, description.bytes)
    const made: OrderParts = {
      opening,
      middle: { bytes: joined, octets: description.octets, limit: description.limit },
      // folding adds at most three bytes per 74
      room: opening.bytes.length + joined.length + 2 * (8 + uidEnd.length + rest.length) + fixed
    }
    parts[i] = made
    return made
  }

  const reused = new Uint8Array(CHUNK)
  let buf = reused
  const documentHead = encoder.encode(head(options))
  if (documentHead.length > buf.length) buf = new Uint8Array(documentHead.length)
  buf.set(documentHead, 0)
  const f = new Folder(buf)
  f.pos = documentHead.length
  for (const day of source.days) {
    const executed = day.day
    const { order, k, nominal, length } = day
    for (let j = 0; j < length; j++) {
      const i = order[j]!
      const p = parts[i] ?? partsOf(i)
      if (f.pos + p.room > buf.length) {
        yield buf.subarray(0, f.pos)
        // an event longer than a chunk gets a buffer of its own
        buf = p.room > reused.length ? new Uint8Array(p.room) : reused
        f.out = buf
        f.pos = 0
      }
      const nominalDay = nominal[j]!
      // BEGIN:VEVENT, the UID: its opening, then its date and domain folded on
      let pos = f.pos
      buf.set(p.opening.bytes, pos)
      f.pos = pos + p.opening.bytes.length
      f.octets = p.opening.octets
      f.limit = p.opening.limit
      const at = dates.writeCompact(rest, 0, nominalDay)
      f.fold(rest, 0, at)
      f.fold(uidEnd, 0, uidEnd.length)
      // DTSTAMP, DTSTART, DTEND: short lines, never folded
      pos = f.pos
      if (stamp === undefined) {
        buf.set(afterUid, pos)
        pos = dates.writeCompact(buf, pos + afterUid.length, nominalDay)
        buf.set(stampTime, pos)
        pos += stampTime.length
      } else {
        buf.set(afterDates, pos)
        buf.set(stamp, pos + afterDates.length)
        pos += afterDates.length + stamp.length
      }
      buf.set(start, pos)
      pos = dates.writeCompact(buf, pos + start.length, executed)
      if (executed < LocalDate.MAX) {
        buf.set(end, pos)
        pos = dates.writeCompact(buf, pos + end.length, executed + 1)
      }
      buf.set(afterDates, pos)
      pos += afterDates.length
      // SUMMARY and DESCRIPTION up to the occurrence number, then its number and dates folded on
      buf.set(p.middle.bytes, pos)
      f.pos = pos + p.middle.bytes.length
      f.octets = p.middle.octets
      f.limit = p.middle.limit
      let r = writeNumber(rest, 0, k[j]!)
      rest.set(nominalLabel, r)
      r = dates.writeIso(rest, r + nominalLabel.length, nominalDay)
      rest.set(executionLabel, r)
      r = dates.writeIso(rest, r + executionLabel.length, executed)
      const confirmed = executed === (orders[i]!.nextDate ?? Plans.NO_NEXT_DATE)
      const said = confirmed ? confirmedText : nominalDay === executed ? predictedText : movedText
      rest.set(said, r)
      f.fold(rest, 0, r + said.length)
      const line = confirmed ? confirmedLine : predictedLine
      buf.set(line, f.pos)
      f.pos += line.length
      buf.set(closing, f.pos)
      f.pos += closing.length
    }
  }
  const tail = encoder.encode(TAIL)
  if (f.pos + tail.length > buf.length) {
    yield buf.subarray(0, f.pos)
    buf = reused
    f.pos = 0
  }
  buf.set(tail, f.pos)
  yield buf.subarray(0, f.pos + tail.length)
}
