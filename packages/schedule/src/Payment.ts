/**
 * One projected payment of a standing order: occurrence number, nominal and execution date, exact amount and
 * the two accounts. Ordering follows the schedule rules (packages/core/README.md, "Already paid").
 *
 * @since 0.1.0
 */

import type { LocalDate } from "@tppkit/core"
import type { BigDecimal } from "effect"

/** The provenances of a payment's execution date, the bank's own first. */
export const provenances = ["bank-confirmed", "engine-predicted"] as const

/**
 * Where a payment's execution date comes from: `bank-confirmed` when it is the bank's own `nextDate` for the order,
 * `engine-predicted` when only the engine says so (docs/bank-interface.md, "The bank's date rule").
 */
export type Provenance = (typeof provenances)[number]

/** A payment the bank is expected to execute for a standing order. */
export interface Payment {
  /** The bank's reference of the standing order. */
  readonly orderId: string
  /** The occurrence number k (0 for the anchor). */
  readonly k: number
  /** The nominal date of occurrence k, before any business-day adjustment. */
  readonly nominalDate: LocalDate.LocalDate
  /** The date the bank executes the payment (nominal date moved by the convention). */
  readonly executionDate: LocalDate.LocalDate
  /**
   * Whether the execution date is the bank's listed `nextDate` (`bank-confirmed`) or the engine's alone; every payment
   * a projection makes has it, and a payment without it reads as `engine-predicted` ({@link provenanceOf}).
   */
  readonly provenance?: Provenance | undefined
  /** The exact instructed amount. */
  readonly amount: BigDecimal.BigDecimal
  /** The ISO 4217 currency code of the amount. */
  readonly currency: string
  /** The IBAN of the paying account. */
  readonly debtorIban: string
  /**
   * The IBAN of the receiving account (or the identifier the record gives, packages/core/README.md, "Whole records");
   * `undefined` when the record names no payee's account (a COBS list item): the creditor is unknown.
   */
  readonly creditorIban: string | undefined
  /** The creditor's name, when the bank reported one. */
  readonly creditorName?: string | undefined
}

/** How a payment's creditor is shown when the record names none ({@link creditorLabel}). */
export const unknownCreditor = "(creditor unknown)"

/** How a payment's creditor is shown to people: its name, else its IBAN, else {@link unknownCreditor}. */
export const creditorLabel = (p: {
  readonly creditorIban: string | undefined
  readonly creditorName?: string | undefined
}): string => p.creditorName ?? p.creditorIban ?? unknownCreditor

/**
 * A fresh plain object with every field of a payment. Payments from the projection are plain objects already
 * (spread, `structuredClone`, `Equal` and JSON see every field); this copies one, or any object that has the
 * fields.
 */
export const toPlain = (p: Payment): Payment => ({
  orderId: p.orderId,
  k: p.k,
  nominalDate: p.nominalDate,
  executionDate: p.executionDate,
  provenance: provenanceOf(p),
  amount: p.amount,
  currency: p.currency,
  debtorIban: p.debtorIban,
  creditorIban: p.creditorIban,
  creditorName: p.creditorName
})

/**
 * Compares two payments by execution date, then orderId, then nominal date (packages/core/README.md,
 * "Already paid"); orderIds compare by UTF-16 code units.
 */
export const compare = (a: Payment, b: Payment): -1 | 0 | 1 => {
  if (a.executionDate !== b.executionDate) return a.executionDate < b.executionDate ? -1 : 1
  if (a.orderId !== b.orderId) return a.orderId < b.orderId ? -1 : 1
  if (a.nominalDate !== b.nominalDate) return a.nominalDate < b.nominalDate ? -1 : 1
  return 0
}

/** A stable identity of a payment (orderId and occurrence number), e.g. for iCalendar UIDs. */
export const key = (p: Payment): string => `${p.orderId}#${p.k}`

/** A payment's provenance: its own, `engine-predicted` when it has none. */
export const provenanceOf = (p: Pick<Payment, "provenance">): Provenance => p.provenance ?? "engine-predicted"
