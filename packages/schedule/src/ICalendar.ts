/**
 * iCalendar (RFC 5545) export of projected payments: one all-day VEVENT per payment with a stable UID, the
 * amount and counterparties in SUMMARY and DESCRIPTION, where the date comes from (bank-confirmed, or
 * engine-predicted and the rule that moved it) in DESCRIPTION and `X-TPPKIT-PROVENANCE`, CRLF line endings, 75-octet
 * folding and TEXT escaping.
 *
 * @since 0.1.0
 */
import type { BigDecimal } from "effect"
import * as Events from "./internal/events.ts"
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
  /**
   * The rule the dates were moved by (e.g. `following · target`): a predicted date moved off its nominal date names
   * it in its DESCRIPTION; without it the line says only that the date is predicted.
   */
  readonly rule?: string | undefined
}

/**
 * Escapes a TEXT value (RFC 5545 3.3.11): backslash, semicolon, comma and line breaks; any other control character,
 * which TEXT excludes, is shown escaped first (`\x1b`, `\u{202e}`, as core's `Text.printable` shows it).
 */
export const escapeText: (s: string) => string = Events.escapeText

/**
 * Folds a content line into lines of at most 75 octets (RFC 5545 3.1): each continuation starts with one
 * space, and a multi-byte UTF-8 character is never split.
 */
export const foldLine: (line: string) => string = Events.foldLine

/** An amount with at least two decimals, exactly (e.g. `1250.50`, `0.125`, `-3.00`). */
export const formatAmount: (amount: BigDecimal.BigDecimal) => string = Events.formatAmount

/**
 * The UID of a payment's event: order and nominal date, so that it stays the same when the order is listed
 * again later (the occurrence number k shifts when an order without startDate is anchored on a newer nextDate).
 */
export const uid = (p: Payment, domain = "tppkit"): string => Events.uid(p, domain)

/**
 * An iCalendar document (RFC 5545) as pieces of text, made while the payments are read: the calendar's head, one
 * piece per payment's event, then its end; each piece is whole CRLF-terminated lines, folded at 75 octets. Their
 * concatenation is {@link fromPayments}. (A projection's document as bytes, without a text per payment, is
 * `Export.ics`.)
 */
export function* pieces(payments: Iterable<Payment>, options?: Options): Generator<string> {
  yield Events.head(options)
  for (const p of payments) yield Events.lines(Events.eventLines(p, options))
  yield Events.TAIL
}

/**
 * An iCalendar document (RFC 5545) with one all-day event per payment on its execution date, CRLF-terminated
 * and folded at 75 octets (an event on 9999-12-31 has no DTEND, the day after it having no DATE text: it lasts
 * its day, RFC 5545 3.6.1).
 */
export const fromPayments = (payments: Iterable<Payment>, options?: Options): string =>
  Array.from(pieces(payments, options)).join("")
