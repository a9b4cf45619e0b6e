/**
 * Projected payments as the CLI's renderers take them (`ProjectionFormats.PaymentRow`), for test/cli/Render and
 * test/cli/ProjectionFormats: one made from a few fields, and three in two currencies (one moved off a holiday).
 */
import type { ProjectionFormats } from "@tppkit/cli"
import { LocalDate } from "@tppkit/core"
import { BigDecimal } from "effect"

const d = LocalDate.parseUnsafe
const bd = BigDecimal.fromStringUnsafe

/** A payment of `orderId` executing on `date`: its nominal date and creditor's name when given. */
export const payment = (
  orderId: string,
  date: string,
  amount: string,
  currency = "EUR",
  extra: { nominal?: string; creditorName?: string } = {}
): ProjectionFormats.PaymentRow => ({
  orderId,
  nominalDate: d(extra.nominal ?? date),
  executionDate: d(date),
  amount: bd(amount),
  currency,
  debtorIban: "SK3112000000198742637541",
  creditorIban: "SK6807200002891987426353",
  ...(extra.creditorName === undefined ? {} : { creditorName: extra.creditorName })
})

/** Three payments: a rent moved off 1 January, a CZK one, a small EUR one. */
export const payments: ReadonlyArray<ProjectionFormats.PaymentRow> = [
  payment("SO-1", "2026-01-02", "1250.5", "EUR", { nominal: "2026-01-01", creditorName: 'Landlord, "Ltd"' }),
  payment("SO-2", "2026-01-15", "0.1", "CZK"),
  payment("SO-3", "2026-02-02", "0.2", "EUR")
]
