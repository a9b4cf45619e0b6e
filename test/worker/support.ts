/** Shared fixtures of the worker tests. */
import type { Checks } from "@tppkit/worker"

/** A payment due for a check (consent c1, EUR, checked right away), with any field replaced. */
export const due = (over: Partial<Checks.Due> = {}): Checks.Due => ({
  consent: "c1",
  orderId: "SO-1",
  nominalDate: "2026-03-02",
  executionDate: "2026-03-02",
  amount: "120.50",
  currency: "EUR",
  debtorIban: "SK3112000000198742637541",
  sweepDay: "2026-02-26",
  checkAt: 0,
  ...over
})
