/** Payments written by hand for the coverage and demo-report suites: one EUR payment, its dates equal. */
import { LocalDate } from "@tppkit/core"
import type { Payment } from "@tppkit/schedule"
import { BigDecimal } from "effect"

/** A debtor account of the mock bank (branch consent). */
export const A = "SK2411000000002612345678"

/** Another debtor account of the mock bank (no consent). */
export const B = "SK1709000000005012348888"

/** The `k`-th payment of `orderId`, executing on its nominal date `date`. */
export const payment = (orderId: string, date: string, amount: string, debtorIban = A, k = 0): Payment.Payment => ({
  orderId,
  k,
  nominalDate: LocalDate.parseUnsafe(date),
  executionDate: LocalDate.parseUnsafe(date),
  amount: BigDecimal.fromStringUnsafe(amount),
  currency: "EUR",
  debtorIban,
  creditorIban: "AT611904300234573201",
  creditorName: `Creditor of ${orderId}`
})
