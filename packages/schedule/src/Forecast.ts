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

import { Effect, type Result } from "effect"
import type * as Coverage from "./Coverage.ts"
import * as Engine from "./internal/forecast.ts"
import * as Run from "./internal/forecastRun.ts"
import type { AccountForecast, Evidence, Forecast, Input, Outcome, Scenario } from "./internal/forecastTypes.ts"
import type { ScheduleError } from "./ScheduleError.ts"

/**
 * The forecast's types (each documented in `internal/forecastTypes.ts`): its `Input` and `Balance`s, the `Forecast`
 * with its `AccountForecast`s, `Row`s, `RiskDay`s, `NotNetted` payments and accounts `WithoutBalance`, a `Scenario`'s
 * `Outcome` (`Change`, `AccountChange`, `Moved`), and the funds-check `Evidence` (`Check`, `Finding`).
 */
export type * from "./internal/forecastTypes.ts"

/** The default bound on the payments of risk days a forecast lists (`Input.atRiskLimit`). */
export const AT_RISK_LIMIT: number = Engine.AT_RISK_LIMIT

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
