/**
 * A balance forecast per account: from the projected payments (an order whose creditor IBAN is one of the user's
 * accounts is incoming for it, and outgoing for its debtor), the opening balances the user gives (each at the start
 * of its date) and optional expected flows (a salary as a standing-order-like flow, on the same recurrence), a ladder
 * of end-of-day balances per account, exact in the account's currency. It answers the lowest balance and its date,
 * every day at or below zero or below the account's threshold, the payments due on those days (earliest first) and
 * the day's total that must be covered together. A payment in another currency than the account's is shown on its
 * side and listed as not netted (no exchange rate is known). Funds-check answers (APPR/DECL, taken days before the
 * payment) are set beside the forecast; a DECL for a payment the forecast covers is the most urgent finding.
 * What-if {@link Scenario}s are data; each result lists exactly what changed against the base forecast.
 *
 * The pass over the payments is the projection engine's (the same plans and day columns as `Projection.totals`);
 * the at-risk payments feed `Coverage.riskGroups` with the reason `Balance`.
 *
 * @since 0.1.0
 */

import type { BusinessDayConvention, Calendar, LocalDate } from "@tppkit/core"
import { type BigDecimal, Effect, type Result } from "effect"
import type * as Coverage from "./Coverage.ts"
import * as Engine from "./internal/forecast.ts"
import * as Run from "./internal/forecastRun.ts"
import type * as Payment from "./Payment.ts"
import type * as Projection from "./Projection.ts"
import type { ScheduleError } from "./ScheduleError.ts"

/** The balance of one of the user's accounts at the start of `date` (before that day's payments). */
export interface Balance {
  readonly iban: string
  /** The account's currency: payments in another currency are shown on its side but not netted. */
  readonly currency: string
  readonly amount: BigDecimal.BigDecimal
  readonly date: LocalDate.LocalDate
  /** The line the balance should stay at or above (besides staying above zero); none by default. */
  readonly threshold?: BigDecimal.BigDecimal | undefined
}

/** A funds check the bank answered: whether the payment's amount was available on `checkedOn`. */
export interface Check {
  readonly orderId: string
  readonly executionDate: LocalDate.LocalDate
  readonly debtorIban: string
  readonly amount: BigDecimal.BigDecimal
  readonly currency: string
  readonly checkedOn: LocalDate.LocalDate
  readonly answer: Coverage.Answer
}

/** What a forecast reads. */
export interface Input {
  readonly orders: Iterable<Projection.ProjectableOrder>
  readonly balances: ReadonlyArray<Balance>
  /** Expected flows that are no standing order of the bank (e.g. a salary whose creditor is one of the accounts). */
  readonly flows?: Iterable<Projection.ProjectableOrder> | undefined
  readonly window: Projection.Window
  /** The calendar and convention of the projection (`Projection.Options`). */
  readonly options?: Projection.Options | undefined
  readonly checks?: ReadonlyArray<Check> | undefined
  /**
   * Give every account its ladder (default true); without it only the accounts named by a check have theirs. A ladder
   * costs nothing until it is read (see {@link AccountForecast.rows}).
   */
  readonly ladder?: boolean | undefined
  /**
   * The accounts whose balance could not be used (a record of the balances file that could not be read), with the
   * reason: one that has payments is listed in `withoutBalance` with it.
   */
  readonly unusable?: ReadonlyArray<{ readonly iban: string; readonly reason: string }> | undefined
  /**
   * The most payments of risk days listed (`RiskDay.payments`, `Forecast.atRisk`) over all accounts, so that memory
   * stays bounded however many payments are at risk: each account's earliest risk days in turn, in the order of the
   * balances, a day's first payments when it does not fit whole; every risk day still counts all of its payments
   * (`RiskDay.count`, `Forecast.atRiskCount`). Default {@link AT_RISK_LIMIT}.
   */
  readonly atRiskLimit?: number | undefined
}

/** The default bound on the payments of risk days a forecast lists (`Input.atRiskLimit`). */
export const AT_RISK_LIMIT: number = Engine.AT_RISK_LIMIT

/**
 * An account with payments in the window and no usable balance: not forecast. `reason` says why (no balance given,
 * or why the given one could not be used); `count` is its payments out in the window.
 */
export interface WithoutBalance {
  readonly iban: string
  readonly currency: string
  readonly count: number
  readonly reason: string
}

/** A payment shown on an account's side but not added to its balance: its currency is not the account's. */
export interface NotNetted {
  readonly iban: string
  readonly side: "out" | "in"
  readonly payment: Payment.Payment
}

/**
 * One row of an account's ladder: the day's opening balance, payments out and in (netted ones), the closing balance,
 * whether the closing is at risk, and `until` the last day the closing holds (the day before the next row).
 */
export interface Row {
  readonly date: LocalDate.LocalDate
  readonly until: LocalDate.LocalDate
  readonly opening: BigDecimal.BigDecimal
  readonly out: BigDecimal.BigDecimal
  readonly in: BigDecimal.BigDecimal
  readonly closing: BigDecimal.BigDecimal
  readonly outCount: number
  readonly inCount: number
  readonly notNetted: ReadonlyArray<NotNetted>
  readonly atRisk: boolean
}

/**
 * A day whose closing balance is at or below zero (`zero`) or below the threshold (`threshold`), holding `until`:
 * the payments out that day, their total that must be covered together, and the shortfall to the line.
 */
export interface RiskDay {
  readonly date: LocalDate.LocalDate
  readonly until: LocalDate.LocalDate
  readonly closing: BigDecimal.BigDecimal
  readonly out: BigDecimal.BigDecimal
  /** What brings the closing up to the line (the threshold, or zero when there is none or it is negative). */
  readonly shortfall: BigDecimal.BigDecimal
  readonly reason: "zero" | "threshold"
  /** The payments out that day, in projection order: the first `payments.length` of `count` (`Input.atRiskLimit`). */
  readonly payments: ReadonlyArray<Payment.Payment>
  /** Every payment out that day, listed or not. */
  readonly count: number
}

/** One account's forecast over the window (from `start`, the later of the window's start and the balance's date). */
export interface AccountForecast {
  readonly iban: string
  readonly currency: string
  readonly threshold: BigDecimal.BigDecimal | undefined
  readonly balanceDate: LocalDate.LocalDate
  readonly start: LocalDate.LocalDate
  readonly opening: BigDecimal.BigDecimal
  readonly closing: BigDecimal.BigDecimal
  readonly out: BigDecimal.BigDecimal
  readonly in: BigDecimal.BigDecimal
  readonly outCount: number
  readonly inCount: number
  /** The lowest closing balance and its first date. */
  readonly lowest: { readonly amount: BigDecimal.BigDecimal; readonly date: LocalDate.LocalDate }
  readonly riskDays: ReadonlyArray<RiskDay>
  /**
   * The ladder (`undefined` when not kept): a row on the start day and on each day with payments. It is made when read,
   * by reading the account's orders again; the ladders of the last 64 accounts read stay made, so reading every
   * account's ladder in turn holds one at a time (read it into a variable rather than again and again).
   */
  readonly rows: ReadonlyArray<Row> | undefined
}

/**
 * What a funds check says beside the forecast: `DeclinedButCovered` (the bank declined a payment the forecast
 * covers: the most urgent), `ApprovedButAtRisk` (approved, but the forecast puts its day at risk), `Agrees`, or
 * `Outside` (no forecast for the account on those days).
 */
export type Finding = "DeclinedButCovered" | "ApprovedButAtRisk" | "Agrees" | "Outside"

/** A funds check beside the forecast: the forecast's closing on the check's day and on the payment's day. */
export interface Evidence {
  readonly check: Check
  readonly onCheckDay: BigDecimal.BigDecimal | undefined
  readonly onPaymentDay: BigDecimal.BigDecimal | undefined
  /** Whether the forecast covers the payment's day (not a risk day); `undefined` outside the forecast. */
  readonly covered: boolean | undefined
  readonly finding: Finding
}

/** A forecast: the accounts in the order of the balances, and the findings over all of them. */
export interface Forecast {
  readonly window: Projection.Window
  readonly accounts: ReadonlyArray<AccountForecast>
  /** The payments out on risk days that are listed (`Input.atRiskLimit`), earliest first (`Payment.compare`). */
  readonly atRisk: ReadonlyArray<Payment.Payment>
  /** Every payment out on a risk day, listed in `atRisk` or not: more than `atRisk.length` when the bound cut it. */
  readonly atRiskCount: number
  readonly notNetted: ReadonlyArray<NotNetted>
  /**
   * The debtor accounts of the orders with payments in the window and no usable balance, by IBAN: not forecast, each
   * with its reason. A debtor of the expected flows (`Input.flows`, e.g. an employer) is someone else's account and
   * listed only when its payments go to none of the accounts.
   */
  readonly withoutBalance: ReadonlyArray<WithoutBalance>
  readonly skipped: ReadonlyArray<Projection.Skipped>
  /** The funds checks beside the forecast, the most urgent first. */
  readonly evidence: ReadonlyArray<Evidence>
}

/** The reason an account without a usable balance is listed with when no balance was given. */
export const NO_BALANCE: typeof Run.NO_BALANCE = Run.NO_BALANCE

/**
 * The forecast of the user's accounts over the window: fails when a balance is given twice for one account. Payments
 * of an account before its balance's date are taken as already in the balance; those from its date to the window's
 * start move the opening balance of its first day.
 * @example make({ orders, balances: [{ iban, currency: "EUR", amount, date }], window })
 */
export const make: (input: Input) => Result.Result<Forecast, ScheduleError> = Run.make

/** How long the engine computes before {@link makeEffect} gives the runtime its turn (on the effect's `Clock`). */
const TURN_MILLIS = 10

/**
 * A computation in the engine's steps as an effect that gives the runtime its turn (`Effect.yieldNow`) at the first
 * step after {@link TURN_MILLIS} of computing.
 */
const yielding = <A>(steps: Generator<void, Result.Result<A, ScheduleError>>): Effect.Effect<A, ScheduleError> =>
  Effect.clockWith((clock) =>
    Effect.suspend(() => {
      let since = clock.currentTimeMillisUnsafe()
      const resume = Effect.suspend(() => {
        since = clock.currentTimeMillisUnsafe()
        return next()
      })
      const next = (): Effect.Effect<A, ScheduleError> => {
        for (;;) {
          const step = steps.next()
          if (step.done === true) return Effect.fromResult(step.value)
          if (clock.currentTimeMillisUnsafe() - since >= TURN_MILLIS) return Effect.andThen(Effect.yieldNow, resume)
        }
      }
      return next()
    })
  )

/**
 * {@link make} as an effect that gives the runtime its turn while it computes (after the first account that ends
 * 10 ms or more after the last turn, or after the orders are planned), so that the fiber running it can be interrupted (a signal, a
 * timeout) before a large forecast is done; the same forecast, or the same failure.
 */
export const makeEffect = (input: Input): Effect.Effect<Forecast, ScheduleError> => yielding(Run.makeSteps(input))

/** The at-risk payments of a forecast grouped per account and order, with the reason `Balance` (`Coverage`). */
export const riskGroups: (forecast: Forecast) => Array<Coverage.RiskGroup> = Run.riskGroups

/**
 * The accounts worst first: those with risk days before the others, by their first risk day, then by the number of
 * days at risk (more first), then by IBAN; then the others by IBAN.
 */
export const worstFirst: (accounts: ReadonlyArray<AccountForecast>) => Array<AccountForecast> = Run.worstFirst

/** Whether a funds check contradicts the forecast: a DECL for a payment it covers, or an APPR on a day it puts at risk. */
export const contradicts = (e: Evidence): boolean =>
  e.finding === "DeclinedButCovered" || e.finding === "ApprovedButAtRisk"

/** The funds checks that contradict the forecast ({@link contradicts}), the urgent ones (DECL but covered) first. */
export const contradictions = (forecast: Forecast): Array<Evidence> => forecast.evidence.filter(contradicts)

/**
 * Whether the forecast has findings a person should look at: an account at or below zero or below its threshold on
 * some day, or a funds check that contradicts the forecast ({@link contradicts}).
 */
export const hasFindings = (forecast: Forecast): boolean =>
  forecast.accounts.some((a) => a.riskDays.length > 0) || forecast.evidence.some(contradicts)
// ---------------------------------------------------------------------------
// scenarios
// ---------------------------------------------------------------------------

/** One change of a scenario. */
export type Change =
  /** The payment of `orderId` executing on `date` does not happen. */
  | { readonly _tag: "Skip"; readonly orderId: string; readonly date: LocalDate.LocalDate }
  /** The payment of `orderId` executing on `date` fails (no money moves; reported as failed). */
  | { readonly _tag: "Fail"; readonly orderId: string; readonly date: LocalDate.LocalDate }
  /**
   * Every payment of `orderId` (or the one executing on `date`) is due `days` calendar days later (days ≥ 1) and
   * executes where its order's rule puts a payment due that day: moved by the convention on the calendar for the codes
   * that move dates, on the next working day for DAIL, on that day for DAI7 (core's `Occurrence.executionOfDue`). A
   * payment executing before an account's balance date is in that balance already and does not move for it.
   */
  | {
      readonly _tag: "Delay"
      readonly orderId: string
      readonly days: number
      readonly date?: LocalDate.LocalDate | undefined
    }
  /** An order (or flow) is added. */
  | { readonly _tag: "Add"; readonly order: Projection.ProjectableOrder }
  /** Every order and flow with this orderId is removed. */
  | { readonly _tag: "Remove"; readonly orderId: string }
  /** Another calendar or convention for the whole projection. */
  | {
      readonly _tag: "Settings"
      readonly calendar?: Calendar.Calendar | ((currency: string) => Calendar.Calendar) | undefined
      readonly convention?: BusinessDayConvention.BusinessDayConvention | undefined
    }

/** A named set of changes, applied together. */
export interface Scenario {
  readonly name: string
  readonly changes: ReadonlyArray<Change>
}

/** How one account's forecast differs under a scenario. */
export interface AccountChange {
  readonly iban: string
  readonly currency: string
  readonly closing: { readonly base: BigDecimal.BigDecimal; readonly scenario: BigDecimal.BigDecimal }
  readonly lowest: { readonly base: AccountForecast["lowest"]; readonly scenario: AccountForecast["lowest"] }
  readonly riskDaysAdded: ReadonlyArray<RiskDay>
  readonly riskDaysRemoved: ReadonlyArray<RiskDay>
  readonly atRiskAdded: ReadonlyArray<Payment.Payment>
  readonly atRiskRemoved: ReadonlyArray<Payment.Payment>
}

/**
 * A delayed payment that does not execute on the day it was made due: its order's rule moved it (a weekend or a
 * holiday under a convention that moves dates). `payment` is where it executes; `was` where it executed before.
 */
export interface Moved {
  readonly payment: Payment.Payment
  readonly was: LocalDate.LocalDate
  readonly due: LocalDate.LocalDate
}

/** A scenario's result: its forecast and exactly what changed against the base forecast. */
export interface Outcome {
  readonly scenario: Scenario
  readonly forecast: Forecast
  /** The payments in the window that are gone (skipped, failed, removed, moved away) and new (added, moved here). */
  readonly payments: {
    readonly removed: ReadonlyArray<Payment.Payment>
    readonly added: ReadonlyArray<Payment.Payment>
  }
  /** The delayed payments in the window that their order's rule moved off the day they were made due. */
  readonly moved: ReadonlyArray<Moved>
  /** The accounts whose ladder, lowest point, closing or risk days differ, in the order of the balances. */
  readonly accounts: ReadonlyArray<AccountChange>
  /** The changes that named no payment of the window (an unknown orderId or a date without its payment). */
  readonly unmatched: ReadonlyArray<Change>
}

/**
 * The forecast under a scenario and what changed against the base (computed when not given): the payments gone and
 * new, the accounts that differ, and the changes that named nothing. Fails on an invalid input or a delay that is not
 * a whole number of days ≥ 1.
 * @example scenario(input, { name: "salary late", changes: [{ _tag: "Delay", orderId: "salary", days: 3 }] })
 */
export const scenario: (input: Input, scenario: Scenario, base?: Forecast) => Result.Result<Outcome, ScheduleError> =
  Run.scenario

/**
 * {@link scenario} as an effect that gives the runtime its turn while the engine computes (as {@link makeEffect}), so
 * that the fiber running it can be interrupted before it is done; the same outcome, or the same failure.
 */
export const scenarioEffect = (
  input: Input,
  scenario: Scenario,
  base?: Forecast
): Effect.Effect<Outcome, ScheduleError> => yielding(Run.scenarioSteps(input, scenario, base))
