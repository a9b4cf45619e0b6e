/** Shared fixtures of the worker tests. */
import { Calendar, LocalDate } from "@tppkit/core"
import { BankError } from "@tppkit/http"
import { Checks, FundsCheckWorkflow, Sweep } from "@tppkit/worker"
import { BigDecimal, Effect, Layer, Schema } from "effect"
import { WorkflowEngine } from "effect/workflow"

/**
 * The sweep's settings of the worker tests: `consents` (c1 unless given), the payments of the sweep day up to two
 * TARGET working days after it, checked from 08:00 in Bratislava.
 */
export const sweepSettings = (consents: ReadonlyArray<Sweep.Consent> = [{ key: "c1" }]): Sweep.Settings => ({
  consents,
  daysBefore: 2,
  calendar: Calendar.target,
  timeZone: "Europe/Bratislava",
  hour: 8
})

/** The day's workflows in memory over `source` and `checks` (in memory unless given), every check answered APPR. */
export const inMemory = (
  source: Layer.Layer<Sweep.OrderSource>,
  sweepSettings: Sweep.Settings,
  checks: Layer.Layer<Checks.Checks> = Checks.Checks.layerMemory
) =>
  Layer.mergeAll(FundsCheckWorkflow.layer, Sweep.layer).pipe(
    Layer.provideMerge(WorkflowEngine.layerMemory),
    Layer.provideMerge(checks),
    Layer.provide(source),
    Layer.provide(
      Layer.succeed(FundsCheckWorkflow.BalanceChecker)({ check: () => Effect.succeed({ answer: "APPR" as const }) })
    ),
    Layer.provide(Layer.succeed(Sweep.SweepSettings)(sweepSettings))
  )

/**
 * A standing order as an order source lists it: `orderId` paying `value` EUR (100.00 unless given) from
 * SK3112000000198742637541 to SK0809000000000123123123, `frequency` (monthly unless given) from `startDate`, with the
 * bank's next date when `nextDate` is given.
 */
export const listedOrder = (
  orderId: string,
  startDate: string,
  {
    frequency = "MNTH",
    value = "100.00",
    nextDate
  }: { readonly frequency?: "MNTH" | "WEEK" | "DAIL"; readonly value?: string; readonly nextDate?: string } = {}
) => ({
  orderId,
  frequency,
  startDate: LocalDate.parseUnsafe(startDate),
  ...(nextDate === undefined ? {} : { nextDate: LocalDate.parseUnsafe(nextDate) }),
  instructedAmount: { value: BigDecimal.fromStringUnsafe(value), currency: "EUR" },
  debtor: { iban: "SK3112000000198742637541" },
  creditor: { iban: "SK0809000000000123123123" }
})

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

/**
 * An answered check's row (APPR, asked on 2026-11-02 at 07:00 UTC, one request) of a payment due on `executionDate`
 * (its nominal date too) out of `debtorIban`, 100.00 EUR unless `amount` and `currency` say otherwise, planned by the
 * sweep of 2026-11-02 unless `sweepDay` says otherwise (these three as text), with any field replaced.
 */
export const checkRow = (
  orderId: string,
  debtorIban: string,
  executionDate: string,
  {
    amount,
    consent,
    currency,
    sweepDay,
    ...extra
  }: Partial<Omit<Checks.Row, "amount" | "currency" | "sweepDay">> & {
    readonly amount?: string
    readonly currency?: string
    readonly sweepDay?: string
  } = {}
): Checks.Row => ({
  ...due({
    consent: consent ?? "c1",
    orderId,
    nominalDate: executionDate,
    executionDate,
    amount: amount ?? "100.00",
    ...(currency === undefined ? {} : { currency }),
    debtorIban,
    sweepDay: sweepDay ?? "2026-11-02"
  }),
  outcome: "APPR",
  failure: undefined,
  attempts: 1,
  unconfirmed: 0,
  correlationIds: [],
  checkedAt: "2026-11-02T07:00:00Z",
  requestId: "r",
  responseId: "s",
  ...(extra as Partial<Checks.Row>)
})

/**
 * A balance check (`POST /piisp/api/v1/accounts/balanceCheck`) that failed for `reason`, as the client reports it:
 * the request's `identity`, and its `attempts` when given.
 */
export const checkFailed = (
  identity: BankError.BankError["identity"],
  reason: BankError.BankError["reason"],
  attempts?: number
) =>
  new BankError.BankError({
    operation: "balanceCheck",
    identity,
    request: "POST /piisp/api/v1/accounts/balanceCheck",
    reason,
    ...(attempts === undefined ? {} : { attempts })
  })

/** A listing of `consentKey` refused by the day's budget: its four unattended listings used, free again at `freesAt`. */
export const listingExhausted = (consentKey: string, freesAt: string) =>
  new BankError.BankError({
    operation: "standingOrders",
    identity: {},
    reason: new BankError.BudgetExhausted({ consentKey, limit: 4, used: 4, requested: 1, freesAt })
  })
