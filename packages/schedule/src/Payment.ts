/**
 * One projected payment of a standing order: occurrence number, nominal and execution date, exact amount and
 * the two accounts. Ordering follows the schedule rules (packages/core/README.md, "Already paid").
 *
 * @since 0.1.0
 */

import type { LocalDate } from "@tppkit/core"
import type { BigDecimal } from "effect"

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
  /** The exact instructed amount. */
  readonly amount: BigDecimal.BigDecimal
  /** The ISO 4217 currency code of the amount. */
  readonly currency: string
  /** The IBAN of the paying account. */
  readonly debtorIban: string
  /** The IBAN of the receiving account. */
  readonly creditorIban: string
  /** The creditor's name, when the bank reported one. */
  readonly creditorName?: string | undefined
}

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
