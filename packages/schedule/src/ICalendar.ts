/**
 * iCalendar (RFC 5545) export of projected payments: one all-day VEVENT per payment with a stable UID, the
 * amount and counterparties in SUMMARY and DESCRIPTION, CRLF line endings, 75-octet folding and TEXT escaping.
 *
 * @since 0.1.0
 */
import { LocalDate } from "@tppkit/core"
import type { BigDecimal } from "effect"
import type { Payment } from "./Payment.ts"

/** Options of {@link fromPayments}. */
export interface Options {
  /** The calendar's name (X-WR-CALNAME), default "Standing orders". */
  readonly name?: string | undefined
  /** The right-hand side of every UID, default "tppkit". */
  readonly domain?: string | undefined
  /**
   * DTSTAMP of every event as milliseconds since the epoch (e.g. from effect's Clock); without it the stamp is
   * midnight UTC of the payment's nominal date, so the output is a pure function of the payments.
   */
  readonly stampMillis?: number | undefined
}

const CRLF = "\r\n"
const encoder = new TextEncoder()

/** Escapes a TEXT value (RFC 5545 3.3.11): backslash, semicolon, comma and line breaks. */
export const escapeText = (s: string): string =>
  s
    .replace(/\\/g, "\\\\")
    .replace(/;/g, "\\;")
    .replace(/,/g, "\\,")
    .replace(/\r\n|\r|\n/g, "\\n")

/**
 * Folds a content line into lines of at most 75 octets (RFC 5545 3.1): each continuation starts with one
 * space, and a multi-byte UTF-8 character is never split.
 */
export const foldLine = (line: string): string => {
  if (encoder.encode(line).length <= 75) return line
  const parts: Array<string> = []
  let current = ""
  let octets = 0
  let limit = 75
  for (const ch of line) {
    const size = encoder.encode(ch).length
    if (octets + size > limit) {
      parts.push(current)
      current = ""
      octets = 0
      limit = 74 // the leading space of a continuation line counts
    }
    current += ch
    octets += size
  }
  parts.push(current)
  return parts.join(`${CRLF} `)
}

const pad = (n: number, width: number): string => String(n).padStart(width, "0")

const dateValue = (d: LocalDate.LocalDate): string => LocalDate.format(d).replace(/-/g, "")

const stampValue = (millis: number): string => {
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

/**
 * The UID of a payment's event: order and nominal date, so that it stays the same when the order is listed
 * again later (the occurrence number k shifts when an order without startDate is anchored on a newer nextDate).
 */
export const uid = (p: Payment, domain = "tppkit"): string =>
  `${encodeURIComponent(p.orderId)}-${dateValue(p.nominalDate)}@${domain}`

const summary = (p: Payment): string =>
  `Standing order ${formatAmount(p.amount)} ${p.currency} to ${p.creditorName ?? p.creditorIban}`

const description = (p: Payment): string =>
  [
    `Amount: ${formatAmount(p.amount)} ${p.currency}`,
    `From: ${p.debtorIban}`,
    `To: ${p.creditorName === undefined ? p.creditorIban : `${p.creditorName} (${p.creditorIban})`}`,
    `Standing order: ${p.orderId}, occurrence ${p.k}`,
    `Nominal date: ${LocalDate.format(p.nominalDate)}; execution date: ${LocalDate.format(p.executionDate)}`
  ].join("\n")

/** The VEVENT lines of one payment (unfolded). */
const eventLines = (p: Payment, options: Options | undefined): Array<string> => [
  "BEGIN:VEVENT",
  `UID:${escapeText(uid(p, options?.domain))}`,
  `DTSTAMP:${stampValue(options?.stampMillis ?? p.nominalDate * 86_400_000)}`,
  `DTSTART;VALUE=DATE:${dateValue(p.executionDate)}`,
  `DTEND;VALUE=DATE:${dateValue(LocalDate.addDays(p.executionDate, 1))}`,
  `SUMMARY:${escapeText(summary(p))}`,
  `DESCRIPTION:${escapeText(description(p))}`,
  "TRANSP:TRANSPARENT",
  "END:VEVENT"
]

/**
 * An iCalendar document (RFC 5545) as pieces of text, made while the payments are read: the calendar's head, one
 * piece per payment's event, then its end; each piece is whole CRLF-terminated lines, folded at 75 octets. Their
 * concatenation is {@link fromPayments}.
 */
export function* pieces(payments: Iterable<Payment>, options?: Options): Generator<string> {
  yield lines([
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//tppkit//schedule//EN",
    "CALSCALE:GREGORIAN",
    "METHOD:PUBLISH",
    `X-WR-CALNAME:${escapeText(options?.name ?? "Standing orders")}`
  ])
  for (const p of payments) yield lines(eventLines(p, options))
  yield lines(["END:VCALENDAR"])
}

const lines = (list: ReadonlyArray<string>): string => list.map((line) => `${foldLine(line)}${CRLF}`).join("")

/**
 * An iCalendar document (RFC 5545) with one all-day event per payment on its execution date, CRLF-terminated
 * and folded at 75 octets.
 */
export const fromPayments = (payments: Iterable<Payment>, options?: Options): string =>
  Array.from(pieces(payments, options)).join("")
