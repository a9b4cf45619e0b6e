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
import { BigDecimal, Result } from "effect"
import * as Coverage from "./Coverage.ts"
import * as Engine from "./internal/forecast.ts"
import * as Payment from "./Payment.ts"
import * as Projection from "./Projection.ts"
import { InvalidForecast, ScheduleError } from "./ScheduleError.ts"

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

const fail = (message: string): Result.Result<never, ScheduleError> =>
  Result.fail(new ScheduleError({ reason: new InvalidForecast({ message }) }))

const validate = (input: Input): string | undefined => {
  const seen = new Set<string>()
  for (const b of input.balances) {
    if (seen.has(b.iban)) return `the balance of ${b.iban} is given twice`
    seen.add(b.iban)
  }
  return undefined
}

const FINDING_RANK: Record<Finding, number> = { DeclinedButCovered: 0, ApprovedButAtRisk: 1, Agrees: 2, Outside: 3 }

/** The row whose closing holds on `day` (the last row on or before it), if any. */
const rowOn = (rows: ReadonlyArray<Row> | undefined, day: LocalDate.LocalDate): Row | undefined => {
  if (rows === undefined || rows.length === 0 || day < rows[0]!.date || day > rows[rows.length - 1]!.until) return
  let lo = 0
  let hi = rows.length - 1
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1
    if (rows[mid]!.date <= day) lo = mid
    else hi = mid - 1
  }
  return rows[lo]
}

const evidenceOf = (checks: ReadonlyArray<Check>, accounts: ReadonlyArray<AccountForecast>): Array<Evidence> => {
  const byIban = new Map(accounts.map((a) => [a.iban, a]))
  const out = checks.map((check): Evidence => {
    const account = byIban.get(check.debtorIban)
    const onCheck = rowOn(account?.rows, check.checkedOn)
    const onPayment = rowOn(account?.rows, check.executionDate)
    const covered = onPayment === undefined ? undefined : !onPayment.atRisk
    const finding: Finding =
      covered === undefined
        ? "Outside"
        : check.answer === "DECL" && covered
          ? "DeclinedButCovered"
          : check.answer === "APPR" && !covered
            ? "ApprovedButAtRisk"
            : "Agrees"
    return { check, onCheckDay: onCheck?.closing, onPaymentDay: onPayment?.closing, covered, finding }
  })
  return out.sort(
    (a, b) =>
      FINDING_RANK[a.finding] - FINDING_RANK[b.finding] ||
      a.check.checkedOn - b.check.checkedOn ||
      a.check.executionDate - b.check.executionDate ||
      (a.check.orderId < b.check.orderId ? -1 : a.check.orderId > b.check.orderId ? 1 : 0)
  )
}

/** The reason an account without a usable balance is listed with when no balance was given. */
export const NO_BALANCE = "no balance given"

const compute = (
  input: Input,
  given: Orders,
  options: Projection.Options | undefined,
  edited: ReadonlySet<string>,
  edit: Engine.Edit | undefined
): { readonly forecast: Forecast; readonly edited: ReadonlyArray<Engine.EditedPayment> } => {
  const checks = input.checks ?? []
  const engine = Engine.run(
    given.orders,
    input.balances.map((b) => ({
      iban: b.iban,
      currency: b.currency,
      amount: b.amount,
      date: b.date,
      threshold: b.threshold
    })),
    {
      window: input.window,
      options,
      ladder: input.ladder ?? true,
      keep: new Set(checks.map((c) => c.debtorIban)),
      edited,
      edit,
      flowsFrom: given.flowsFrom,
      atRiskLimit: input.atRiskLimit
    }
  )
  const unusable = new Map<string, string>()
  for (const u of input.unusable ?? []) if (!unusable.has(u.iban)) unusable.set(u.iban, u.reason)
  const accounts = engine.accounts.map((r): AccountForecast => {
    const b = input.balances[r.index]!
    return {
      iban: b.iban,
      currency: b.currency,
      threshold: b.threshold,
      balanceDate: b.date,
      start: r.start,
      opening: r.opening,
      closing: r.closing,
      out: r.out,
      in: r.in,
      outCount: r.outCount,
      inCount: r.inCount,
      lowest: { amount: r.lowest, date: r.lowestDate },
      riskDays: r.riskDays,
      // made from the engine's columns when first read
      get rows() {
        return r.rows
      }
    }
  })
  let atRisk: ReadonlyArray<Payment.Payment> | undefined
  const forecast: Forecast = {
    window: input.window,
    accounts,
    // made when first read (a million orders may put millions of payments at risk)
    get atRisk() {
      if (atRisk === undefined) atRisk = engine.atRisk()
      return atRisk
    },
    atRiskCount: engine.atRiskCount,
    notNetted: engine.notNetted,
    withoutBalance: engine.withoutBalance.map((w) => ({ ...w, reason: unusable.get(w.iban) ?? NO_BALANCE })),
    skipped: engine.skipped,
    evidence: evidenceOf(checks, accounts)
  }
  return { forecast, edited: engine.edited }
}

/** The orders a forecast reads: the user's orders, then the expected flows (from `flowsFrom` on). */
interface Orders {
  readonly orders: ReadonlyArray<Projection.ProjectableOrder>
  readonly flowsFrom: number
}

const ordersOf = (
  input: Input,
  keep?: (o: Projection.ProjectableOrder) => boolean,
  added: ReadonlyArray<Projection.ProjectableOrder> = []
): Orders => {
  const orders = keep === undefined ? [...input.orders] : [...input.orders].filter(keep)
  orders.push(...added)
  const flowsFrom = orders.length
  if (input.flows !== undefined) for (const o of input.flows) if (keep === undefined || keep(o)) orders.push(o)
  return { orders, flowsFrom }
}

/**
 * The forecast of the user's accounts over the window: fails when a balance is given twice for one account. Payments
 * of an account before its balance's date are taken as already in the balance; those from its date to the window's
 * start move the opening balance of its first day.
 * @example make({ orders, balances: [{ iban, currency: "EUR", amount, date }], window })
 */
export const make = (input: Input): Result.Result<Forecast, ScheduleError> => {
  const problem = validate(input)
  if (problem !== undefined) return fail(problem)
  return Result.succeed(compute(input, ordersOf(input), input.options, new Set(), undefined).forecast)
}

/** The at-risk payments of a forecast grouped per account and order, with the reason `Balance` (`Coverage`). */
export const riskGroups = (forecast: Forecast): Array<Coverage.RiskGroup> =>
  Coverage.riskGroups(forecast.atRisk.map((payment) => ({ payment, reason: { _tag: "Balance" } as const })))

/**
 * The accounts worst first: those with risk days before the others, by their first risk day, then by the number of
 * days at risk (more first), then by IBAN; then the others by IBAN.
 */
export const worstFirst = (accounts: ReadonlyArray<AccountForecast>): Array<AccountForecast> => {
  const riskDays = (a: AccountForecast): number => a.riskDays.reduce((n, d) => n + (d.until - d.date + 1), 0)
  return [...accounts].sort((a, b) => {
    const fa = a.riskDays[0]?.date ?? Number.POSITIVE_INFINITY
    const fb = b.riskDays[0]?.date ?? Number.POSITIVE_INFINITY
    if (fa !== fb) return fa < fb ? -1 : 1
    const n = riskDays(b) - riskDays(a)
    if (n !== 0) return n
    return a.iban < b.iban ? -1 : a.iban > b.iban ? 1 : 0
  })
}

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

/** The day a scenario makes a payment of `orderId` executing on `day` due: the same day, a later one, or -1 (gone). */
const editOf = (changes: ReadonlyArray<Change>): { edited: Set<string>; edit: Engine.Edit } => {
  const edited = new Set<string>()
  for (const c of changes) if (c._tag === "Skip" || c._tag === "Fail" || c._tag === "Delay") edited.add(c.orderId)
  const edit: Engine.Edit = (orderId, _k, day) => {
    let at = day
    for (const c of changes) {
      if (at < 0) break
      if (c._tag === "Skip" || c._tag === "Fail") {
        if (c.orderId === orderId && c.date === day) at = -1
      } else if (c._tag === "Delay") {
        if (c.orderId === orderId && (c.date === undefined || c.date === day)) at += c.days
      }
    }
    return at
  }
  return { edited, edit }
}

/** One payment of one order (orders may share an orderId: their accounts and amount tell them apart). */
const same = (p: Payment.Payment, q: Payment.Payment): boolean =>
  p.k === q.k &&
  p.nominalDate === q.nominalDate &&
  p.orderId === q.orderId &&
  p.debtorIban === q.debtorIban &&
  p.creditorIban === q.creditorIban &&
  p.currency === q.currency &&
  (p.amount === q.amount || BigDecimal.equals(p.amount, q.amount))

/**
 * The payments of `a` not in `b` (as multisets of payments by order, occurrence and execution date), both in order of
 * execution date: compared day by day.
 */
const minus = (a: ReadonlyArray<Payment.Payment>, b: ReadonlyArray<Payment.Payment>): Array<Payment.Payment> => {
  const out: Array<Payment.Payment> = []
  let j = 0
  for (let i = 0; i < a.length; ) {
    const day = a[i]!.executionDate
    let iEnd = i + 1
    while (iEnd < a.length && a[iEnd]!.executionDate === day) iEnd++
    while (j < b.length && b[j]!.executionDate < day) j++
    let jEnd = j
    while (jEnd < b.length && b[jEnd]!.executionDate === day) jEnd++
    const used = new Uint8Array(jEnd - j)
    for (let x = i; x < iEnd; x++) {
      const p = a[x]!
      let found = false
      for (let y = j; y < jEnd; y++) {
        if (used[y - j] === 0 && same(p, b[y]!)) {
          used[y - j] = 1
          found = true
          break
        }
      }
      if (!found) out.push(p)
    }
    i = iEnd
  }
  return out
}

const text = (d: BigDecimal.BigDecimal): string => BigDecimal.format(BigDecimal.normalize(d))
const riskKey = (d: RiskDay): string => `${d.date}..${d.until} ${text(d.closing)} ${text(d.out)}`
const eq = BigDecimal.equals

/** Whether two forecasts of one account agree: balances, ladders, risk days and lowest point. */
const sameForecast = (a: AccountForecast, b: AccountForecast): boolean => {
  if (!eq(a.opening, b.opening) || !eq(a.closing, b.closing)) return false
  if (a.lowest.date !== b.lowest.date || !eq(a.lowest.amount, b.lowest.amount)) return false
  if (a.riskDays.length !== b.riskDays.length) return false
  for (let i = 0; i < a.riskDays.length; i++) if (riskKey(a.riskDays[i]!) !== riskKey(b.riskDays[i]!)) return false
  const x = a.rows ?? []
  const y = b.rows ?? []
  if (x.length !== y.length) return false
  for (let i = 0; i < x.length; i++) {
    const r = x[i]!
    const q = y[i]!
    if (r.date !== q.date || r.notNetted.length !== q.notNetted.length || !eq(r.out, q.out) || !eq(r.in, q.in))
      return false
  }
  return true
}

const accountChanges = (base: Forecast, next: Forecast): Array<AccountChange> => {
  const out: Array<AccountChange> = []
  for (let i = 0; i < base.accounts.length; i++) {
    const a = base.accounts[i]!
    const b = next.accounts[i]!
    if (sameForecast(a, b)) continue
    const aRisk = new Set(a.riskDays.map(riskKey))
    const bRisk = new Set(b.riskDays.map(riskKey))
    const aPaid = a.riskDays.flatMap((d) => d.payments)
    const bPaid = b.riskDays.flatMap((d) => d.payments)
    out.push({
      iban: a.iban,
      currency: a.currency,
      closing: { base: a.closing, scenario: b.closing },
      lowest: { base: a.lowest, scenario: b.lowest },
      riskDaysAdded: b.riskDays.filter((d) => !aRisk.has(riskKey(d))),
      riskDaysRemoved: a.riskDays.filter((d) => !bRisk.has(riskKey(d))),
      atRiskAdded: minus(bPaid, aPaid),
      atRiskRemoved: minus(aPaid, bPaid)
    })
  }
  return out
}

/**
 * The forecast under a scenario and what changed against the base (computed when not given): the payments gone and
 * new, the accounts that differ, and the changes that named nothing. Fails on an invalid input or a delay that is not
 * a whole number of days ≥ 1.
 * @example scenario(input, { name: "salary late", changes: [{ _tag: "Delay", orderId: "salary", days: 3 }] })
 */
export const scenario = (input: Input, scenario: Scenario, base?: Forecast): Result.Result<Outcome, ScheduleError> => {
  const problem = validate(input)
  if (problem !== undefined) return fail(problem)
  for (const c of scenario.changes) {
    if (c._tag === "Delay" && !(Number.isInteger(c.days) && c.days >= 1)) {
      return fail(`scenario ${JSON.stringify(scenario.name)}: a delay of ${c.days} days (whole days, at least 1)`)
    }
  }
  const before = base ?? compute(input, ordersOf(input), input.options, new Set(), undefined).forecast
  const removed = new Set(scenario.changes.flatMap((c) => (c._tag === "Remove" ? [c.orderId] : [])))
  const added = scenario.changes.flatMap((c) => (c._tag === "Add" ? [c.order] : []))
  let options = input.options
  let settings = false
  for (const c of scenario.changes) {
    if (c._tag === "Settings") {
      settings = true
      options = {
        ...options,
        ...(c.calendar === undefined ? {} : { calendar: c.calendar }),
        ...(c.convention === undefined ? {} : { convention: c.convention })
      }
    }
  }
  const baseOrders = ordersOf(input).orders
  const given = ordersOf(input, removed.size === 0 ? undefined : (o) => !removed.has(o.orderId), added)
  const orders = given.orders
  const { edited, edit } = editOf(scenario.changes)
  const made = compute(input, given, options, edited, edited.size === 0 ? undefined : edit)
  const after = made.forecast

  // the payments of the named orders (all of them when the settings change), before and after
  const named = new Set<string>([...edited, ...removed, ...added.map((o) => o.orderId)])
  const pick = (list: ReadonlyArray<Projection.ProjectableOrder>) =>
    settings ? list : list.filter((o) => named.has(o.orderId))
  const window = input.window
  const paidBefore = Projection.project(pick(baseOrders), window, input.options).payments
  const paidAfter: Array<Payment.Payment> = [
    ...Projection.project(
      pick(orders).filter((o) => !edited.has(o.orderId)),
      window,
      options
    ).payments
  ]
  // an edited order's payments as the forecast counts them: where the edit puts them when they move, else where they
  // were (a payment in the balances of its accounts already)
  const moved: Array<Moved> = []
  for (const e of made.edited) {
    const day = e.moves ? e.day : e.payment.executionDate
    if (day < window.from || day > window.to) continue
    const p: Payment.Payment =
      day === e.payment.executionDate
        ? e.payment
        : { ...e.payment, executionDate: day as LocalDate.LocalDate, provenance: "engine-predicted" }
    paidAfter.push(p)
    if (e.moves && e.due >= 0 && e.due !== e.day && e.due !== e.payment.executionDate) {
      moved.push({ payment: p, was: e.payment.executionDate, due: e.due as LocalDate.LocalDate })
    }
  }
  paidAfter.sort(Payment.compare)
  const unmatched = scenario.changes.filter((c) => {
    switch (c._tag) {
      case "Skip":
      case "Fail":
        return !paidBefore.some((p) => p.orderId === c.orderId && p.executionDate === c.date)
      case "Delay":
        return !paidBefore.some((p) => p.orderId === c.orderId && (c.date === undefined || p.executionDate === c.date))
      case "Remove":
        return !baseOrders.some((o) => o.orderId === c.orderId)
      default:
        return false
    }
  })
  return Result.succeed({
    scenario,
    forecast: after,
    payments: { removed: minus(paidBefore, paidAfter), added: minus(paidAfter, paidBefore) },
    moved: moved.sort((a, b) => Payment.compare(a.payment, b.payment)),
    accounts: accountChanges(before, after),
    unmatched
  })
}
