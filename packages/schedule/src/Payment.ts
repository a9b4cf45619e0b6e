/**
 * One projected payment of a standing order: occurrence number, nominal and execution date, exact amount and
 * the two accounts. Ordering follows the schedule rules (spec: projection window, ordering).
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

/** The fields every payment of one standing order shares: its reference, amount and accounts. */
export interface Shared {
  readonly orderId: string
  readonly amount: BigDecimal.BigDecimal
  readonly currency: string
  readonly debtorIban: string
  readonly creditorIban: string
  readonly creditorName: string | undefined
}

/**
 * Shared fields as the projection makes them: numbered within the orders of one projection (`group`, `slot`
 * 0, 1, 2, …), so that per-order tables (cash-flow totals) can be arrays indexed by slot instead of maps.
 */
export interface NumberedShared extends Shared {
  readonly group: object
  readonly slot: number
}

/**
 * A payment as the projection builds it: its occurrence number and dates, plus one reference to the fields its
 * order's payments share, read through getters (a small object of fixed shape: millions of them cost little
 * memory). Being a class instance, its order's fields are not own properties: spread or copy it with
 * {@link toPlain}; `JSON.stringify` uses `toJSON`, which gives every field.
 */
export class Projected implements Payment {
  /** The fields shared with the other payments of the same order. */
  readonly shared: Shared
  readonly k: number
  readonly nominalDate: LocalDate.LocalDate
  readonly executionDate: LocalDate.LocalDate
  constructor(shared: Shared, k: number, nominalDate: LocalDate.LocalDate, executionDate: LocalDate.LocalDate) {
    this.shared = shared
    this.k = k
    this.nominalDate = nominalDate
    this.executionDate = executionDate
  }
  get orderId(): string {
    return this.shared.orderId
  }
  get amount(): BigDecimal.BigDecimal {
    return this.shared.amount
  }
  get currency(): string {
    return this.shared.currency
  }
  get debtorIban(): string {
    return this.shared.debtorIban
  }
  get creditorIban(): string {
    return this.shared.creditorIban
  }
  get creditorName(): string | undefined {
    return this.shared.creditorName
  }
  /** Every field as a plain object (what `JSON.stringify` writes). */
  toJSON(): Payment {
    return toPlain(this)
  }
}

/** A plain object with every field of a payment, e.g. to spread or compare it field by field. */
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
 * Compares two payments by execution date, then orderId, then nominal date (spec: projected payments are
 * ordered by execution date, then `orderId`, then nominal date); orderIds compare by UTF-16 code units.
 */
export const compare = (a: Payment, b: Payment): -1 | 0 | 1 => {
  if (a.executionDate !== b.executionDate) return a.executionDate < b.executionDate ? -1 : 1
  if (a.orderId !== b.orderId) return a.orderId < b.orderId ? -1 : 1
  if (a.nominalDate !== b.nominalDate) return a.nominalDate < b.nominalDate ? -1 : 1
  return 0
}

/** A stable identity of a payment (orderId and occurrence number), e.g. for iCalendar UIDs. */
export const key = (p: Payment): string => `${p.orderId}#${p.k}`
