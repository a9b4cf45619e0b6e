/**
 * The types of `Forecast`, declared beside its engines (`forecast.ts`, the day-by-day balances, and `forecastRun.ts`,
 * the checks and scenarios): the public module re-exports each and documents it.
 */
import type { BusinessDayConvention, Calendar, LocalDate } from "@tppkit/core"
import type { BigDecimal } from "effect"
import type * as Coverage from "../Coverage.ts"
import type * as Payment from "../Payment.ts"
import type * as Projection from "../Projection.ts"

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

/** A funds check beside the forecast: the forecast's closing on the check's day and on the payment's day. */
export interface Evidence {
  readonly check: Check
  readonly onCheckDay: BigDecimal.BigDecimal | undefined
  readonly onPaymentDay: BigDecimal.BigDecimal | undefined
  /** Whether the forecast covers the payment's day (not a risk day); `undefined` outside the forecast. */
  readonly covered: boolean | undefined
  readonly finding: Finding
}

/**
 * What a funds check says beside the forecast: `DeclinedButCovered` (the bank declined a payment the forecast
 * covers: the most urgent), `ApprovedButAtRisk` (approved, but the forecast puts its day at risk), `Agrees`, or
 * `Outside` (no forecast for the account on those days).
 */
export type Finding = "DeclinedButCovered" | "ApprovedButAtRisk" | "Agrees" | "Outside"

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

/** A named set of changes, applied together. */
export interface Scenario {
  readonly name: string
  readonly changes: ReadonlyArray<Change>
}
