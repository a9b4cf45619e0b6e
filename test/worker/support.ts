/** Shared fixtures of the worker tests. */
import { Checks } from "@tppkit/worker"
import { Schema } from "effect"

/**
 * A payment due for a check (consent c1, EUR, checked right away), with any field replaced, given as the text a store
 * keeps (`"2026-03-02"`, `"120.5"`) and read with `Checks.Due`'s schemas.
 */
export const due = (over: Partial<Checks.DueText> = {}): Checks.Due =>
  Schema.decodeSync(Checks.Due)({
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

/** A payment (or a check's row) with its payment's fields as text, as a store keeps them. */
export const dueText = (d: Checks.Due): Checks.DueText => Checks.text(d)
