/**
 * Payments written by hand for the coverage and demo-report suites (one EUR payment, its dates equal), and the rows a
 * writer takes (a payment without its occurrence number) for the lines' and the CLI's renderers' suites.
 */
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

/** A row of `orderId` executing on `date`: its nominal date and creditor's name when given. */
export const row = (
  orderId: string,
  date: string,
  amount: string,
  currency = "EUR",
  extra: { nominal?: string; creditorName?: string } = {}
): Omit<Payment.Payment, "k"> => ({
  orderId,
  nominalDate: LocalDate.parseUnsafe(extra.nominal ?? date),
  executionDate: LocalDate.parseUnsafe(date),
  amount: BigDecimal.fromStringUnsafe(amount),
  currency,
  debtorIban: "SK3112000000198742637541",
  creditorIban: "SK6807200002891987426353",
  ...(extra.creditorName === undefined ? {} : { creditorName: extra.creditorName })
})

/** Three rows: a rent moved off 1 January, a CZK one, a small EUR one. */
export const rows: ReadonlyArray<Omit<Payment.Payment, "k">> = [
  row("SO-1", "2026-01-02", "1250.5", "EUR", { nominal: "2026-01-01", creditorName: 'Landlord, "Ltd"' }),
  row("SO-2", "2026-01-15", "0.1", "CZK"),
  row("SO-3", "2026-02-02", "0.2", "EUR")
]
