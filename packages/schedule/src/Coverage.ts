/**
 * Is an account covered? Funds checks answer it per payment: a balance check for each payment's amount on its
 * debtor IBAN, a number of working days before the payment, reporting the payments at risk (DECL). The check
 * itself is a function or the `FundsChecker` service, so this package never depends on an HTTP client; the bank
 * client satisfies it where it is wired. On top: the checks summed per account, the search for the first payment
 * whose running total an account no longer covers, and the payments at risk grouped per account, reason and order.
 *
 * @since 0.1.0
 */
import { type BalanceCheck, Calendar, LocalDate } from "@tppkit/core"
import { BigDecimal, Context, Effect, Layer } from "effect"
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

const ZERO = BigDecimal.fromBigInt(0n)

/** One account's line of a funds check: payments due, their sum, and how many the bank approved or declined. */
export interface AccountSummary {
  readonly debtorIban: string
  readonly currency: string
  readonly count: number
  readonly amount: BigDecimal.BigDecimal
  readonly approved: number
  readonly declined: number
  readonly failed: number
}

/** One payment's contribution to its account's line: the outcome `undefined` while it has none. */
export interface Tally {
  readonly debtorIban: string
  readonly currency: string
  readonly amount: BigDecimal.BigDecimal
  readonly outcome: Answer | "failed" | undefined
}

/** Sums tallies per debtor account and currency, in first-seen order (a pending tally counts in `count` only). */
export const perAccount = (tallies: Iterable<Tally>): Array<AccountSummary> => {
  const acc = new Map<string, AccountSummary>()
  for (const t of tallies) {
    const key = `${t.debtorIban} ${t.currency}`
    const line = acc.get(key) ?? {
      debtorIban: t.debtorIban,
      currency: t.currency,
      count: 0,
      amount: ZERO,
      approved: 0,
      declined: 0,
      failed: 0
    }
    acc.set(key, {
      ...line,
      count: line.count + 1,
      amount: BigDecimal.sum(line.amount, t.amount),
      approved: line.approved + (t.outcome === "APPR" ? 1 : 0),
      declined: line.declined + (t.outcome === "DECL" ? 1 : 0),
      failed: line.failed + (t.outcome === "failed" ? 1 : 0)
    })
  }
  return [...acc.values()]
}

/** Sums a funds-check report per debtor account and currency (first-seen order). */
export const summarize = <E>(report: Report<E>): Array<AccountSummary> =>
  perAccount(
    report.outcomes.map((o) => ({
      debtorIban: o.payment.debtorIban,
      currency: o.payment.currency,
      amount: o.payment.amount,
      outcome: o._tag === "Checked" ? o.answer : "failed"
    }))
  )

/**
 * The position of the first payment whose running total (this payment plus every earlier one, in the given
 * order) the account no longer covers, or `amounts.length` when it covers them all. `covers` must be monotone
 * (covering a sum covers every smaller sum, as a balance check does), so a binary search needs about
 * log2(n + 1) checks.
 */
export const firstUncovered = <E, R>(
  amounts: ReadonlyArray<BigDecimal.BigDecimal>,
  covers: (total: BigDecimal.BigDecimal) => Effect.Effect<boolean, E, R>
): Effect.Effect<number, E, R> =>
  Effect.gen(function* () {
    const prefix: Array<BigDecimal.BigDecimal> = [ZERO]
    for (const a of amounts) prefix.push(BigDecimal.sum(prefix[prefix.length - 1]!, a))
    // the answer is the least i in 1..n whose prefix sum is not covered, minus one; n when there is none
    let lo = 1
    let hi = amounts.length + 1
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (yield* covers(prefix[mid]!)) lo = mid + 1
      else hi = mid
    }
    return lo - 1
  })

/**
 * Why payments are at risk: the bank declined them, it gave no answer (`detail` says why, in the caller's words),
 * their running total is not covered, or the forecast balance of their day is at or below zero or the threshold
 * (`Balance`, from `Forecast`).
 */
export type RiskReason =
  | { readonly _tag: "Declined" }
  | { readonly _tag: "NoAnswer"; readonly detail: string }
  | { readonly _tag: "RunningTotal" }
  | { readonly _tag: "Balance" }

/** The payments of one order at risk for one reason. */
export interface OrderRisk {
  readonly orderId: string
  readonly creditor: string
  readonly count: number
  readonly amount: BigDecimal.BigDecimal
  readonly currency: string
  readonly first: LocalDate.LocalDate
}

/** The payments of one account at risk for one reason, with their orders (earliest first). */
export interface RiskGroup {
  readonly debtorIban: string
  readonly currency: string
  readonly reason: RiskReason
  readonly count: number
  readonly amount: BigDecimal.BigDecimal
  readonly first: LocalDate.LocalDate
  readonly orders: ReadonlyArray<OrderRisk>
}

/** A payment at risk with its reason. */
export interface AtRisk {
  readonly payment: Payment.Payment
  readonly reason: RiskReason
}

const reasonKey = (r: RiskReason): string => (r._tag === "NoAnswer" ? `NoAnswer ${r.detail}` : r._tag)

/**
 * Groups payments at risk per account, currency and reason, and inside a group per order; groups and orders are
 * ordered by their earliest execution date (then account, then orderId).
 */
export const riskGroups = (items: Iterable<AtRisk>): Array<RiskGroup> => {
  const groups = new Map<string, { head: Omit<RiskGroup, "orders">; orders: Map<string, OrderRisk> }>()
  for (const { payment: p, reason } of items) {
    const key = `${p.debtorIban} ${p.currency} ${reasonKey(reason)}`
    let g = groups.get(key)
    if (g === undefined) {
      g = {
        head: {
          debtorIban: p.debtorIban,
          currency: p.currency,
          reason,
          count: 0,
          amount: ZERO,
          first: p.executionDate
        },
        orders: new Map()
      }
      groups.set(key, g)
    }
    g.head = {
      ...g.head,
      count: g.head.count + 1,
      amount: BigDecimal.sum(g.head.amount, p.amount),
      first: LocalDate.min(p.executionDate, g.head.first)
    }
    const o = g.orders.get(p.orderId) ?? {
      orderId: p.orderId,
      creditor: Payment.creditorLabel(p),
      count: 0,
      amount: ZERO,
      currency: p.currency,
      first: p.executionDate
    }
    g.orders.set(p.orderId, {
      ...o,
      count: o.count + 1,
      amount: BigDecimal.sum(o.amount, p.amount),
      first: LocalDate.min(p.executionDate, o.first)
    })
  }
  const byFirst =
    <A extends { readonly first: number }>(key: (a: A) => string) =>
    (a: A, b: A) =>
      a.first - b.first || (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0)
  return [...groups.values()]
    .map((g) => ({ ...g.head, orders: [...g.orders.values()].sort(byFirst((o) => o.orderId)) }))
    .sort(byFirst((g) => `${g.debtorIban} ${reasonKey(g.reason)}`))
}
