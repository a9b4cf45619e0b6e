/**
 * Funds checks: a balance check for each payment's amount on its debtor IBAN, a number of working days before
 * the payment, reporting the payments at risk (DECL). The check itself is a function or the `FundsChecker`
 * service, so this package never depends on an HTTP client; the bank client satisfies it where it is wired.
 *
 * @since 0.1.0
 */
import { type BalanceCheck, Calendar, LocalDate } from "@tppkit/core"
import { Context, Effect, Layer } from "effect"
import * as Payment from "./Payment.ts"
import { CheckFailed, ScheduleError } from "./ScheduleError.ts"

/** The bank's answer to a balance check (core's `BalanceCheck.Answer`): APPR sufficient funds, DECL insufficient funds. */
export type Answer = BalanceCheck.Answer

/** The outcome of one payment's check: the answer, or the checker's error. */
export type Outcome<E> =
  | { readonly _tag: "Checked"; readonly payment: Payment.Payment; readonly answer: Answer }
  | { readonly _tag: "Failed"; readonly payment: Payment.Payment; readonly error: E }

/** A funds-check report: every outcome in payment order, the payments at risk (DECL) and the failed checks. */
export interface Report<E> {
  readonly today: LocalDate.LocalDate
  /** The last execution date covered: `daysBefore` working days after today. */
  readonly horizon: LocalDate.LocalDate
  readonly outcomes: ReadonlyArray<Outcome<E>>
  readonly atRisk: ReadonlyArray<Payment.Payment>
  readonly failed: ReadonlyArray<{ readonly payment: Payment.Payment; readonly error: E }>
}

/** What a funds checker does: answer a balance check for one payment's amount on its debtor IBAN. */
export interface Checker {
  readonly check: (payment: Payment.Payment) => Effect.Effect<Answer, ScheduleError>
}

/** A balance check for one payment, as a service; the HTTP client's balance check satisfies it once wired. */
export class FundsChecker extends Context.Service<FundsChecker, Checker>()("@tppkit/schedule/FundsChecker") {
  /** A checker that answers from a pure function (tests and demos). */
  static readonly layerFrom = (answer: (payment: Payment.Payment) => Answer): Layer.Layer<FundsChecker> =>
    Layer.succeed(FundsChecker, FundsChecker.of({ check: (payment) => Effect.succeed(answer(payment)) }))

  /** Wraps a checker with any error type into the service, keeping its error as the cause. */
  static readonly fromFunction = <E, R>(
    check: (payment: Payment.Payment) => Effect.Effect<Answer, E, R>
  ): Effect.Effect<Checker, never, R> =>
    Effect.map(Effect.context<R>(), (context) =>
      FundsChecker.of({
        check: (payment) =>
          check(payment).pipe(
            Effect.mapError(
              (cause) =>
                new ScheduleError({
                  reason: new CheckFailed({
                    message: cause instanceof Error ? cause.message : String(cause),
                    cause
                  })
                })
            ),
            Effect.provideContext(context)
          )
      })
    )
}

/**
 * The last execution date a check made today covers: `daysBefore` working days after `today` (for 0 the next
 * working day on or after today), 9999-12-31 when the calendar runs out.
 */
export const horizon = (
  today: LocalDate.LocalDate,
  daysBefore: number,
  calendar: Calendar.Calendar = Calendar.target
): LocalDate.LocalDate => Calendar.addWorkingDays(calendar, today, Math.max(0, daysBefore)) ?? LocalDate.MAX

/** The payments due within the next `daysBefore` working days: execution date in `today..horizon`. */
export const due = (
  payments: Iterable<Payment.Payment>,
  today: LocalDate.LocalDate,
  daysBefore: number,
  calendar: Calendar.Calendar = Calendar.target
): Array<Payment.Payment> => {
  const last = horizon(today, daysBefore, calendar)
  const out: Array<Payment.Payment> = []
  for (const p of payments) if (p.executionDate >= today && p.executionDate <= last) out.push(p)
  return out.sort(Payment.compare)
}

/** Options of {@link run}: today, how many working days ahead, the calendar (default `target`), the check. */
export interface Options<E, R> {
  readonly today: LocalDate.LocalDate
  readonly daysBefore: number
  readonly calendar?: Calendar.Calendar | undefined
  readonly check: (payment: Payment.Payment) => Effect.Effect<Answer, E, R>
  /** How many checks run at once (default 1: banks limit request rates). */
  readonly concurrency?: number | undefined
}

/**
 * Checks right away every payment due within the next `daysBefore` working days and reports the answers:
 * a failed check is reported with its error and the other payments are still checked.
 * @example run(payments, { today, daysBefore: 7, check }) // "the payments due in the next 7 working days"
 */
export const run = <E, R>(
  payments: Iterable<Payment.Payment>,
  options: Options<E, R>
): Effect.Effect<Report<E>, never, R> =>
  Effect.gen(function* () {
    const calendar = options.calendar ?? Calendar.target
    const list = due(payments, options.today, options.daysBefore, calendar)
    const outcomes = yield* Effect.forEach(
      list,
      (payment) =>
        Effect.match(options.check(payment), {
          onSuccess: (answer): Outcome<E> => ({ _tag: "Checked", payment, answer }),
          onFailure: (error): Outcome<E> => ({ _tag: "Failed", payment, error })
        }),
      { concurrency: options.concurrency ?? 1 }
    )
    return report(options.today, horizon(options.today, options.daysBefore, calendar), outcomes)
  })

/** {@link run} with the `FundsChecker` service as the check. */
export const runWithService = (
  payments: Iterable<Payment.Payment>,
  options: Omit<Options<ScheduleError, never>, "check">
): Effect.Effect<Report<ScheduleError>, never, FundsChecker> =>
  FundsChecker.use((checker) => run(payments, { ...options, check: checker.check }))

/** A report from outcomes. */
export const report = <E>(
  today: LocalDate.LocalDate,
  last: LocalDate.LocalDate,
  outcomes: ReadonlyArray<Outcome<E>>
): Report<E> => {
  const atRisk: Array<Payment.Payment> = []
  const failed: Array<{ payment: Payment.Payment; error: E }> = []
  for (const o of outcomes) {
    if (o._tag === "Failed") failed.push({ payment: o.payment, error: o.error })
    else if (o.answer === "DECL") atRisk.push(o.payment)
  }
  return { today, horizon: last, outcomes, atRisk, failed }
}
