/**
 * The engine of `Forecast` (its types are `forecastTypes.ts`; the public module re-exports them and documents the
 * functions).
 */
import type { LocalDate } from "@tppkit/core"
import { BigDecimal, Result } from "effect"
import * as Coverage from "../Coverage.ts"
import * as Payment from "../Payment.ts"
import * as Projection from "../Projection.ts"
import { InvalidForecast, ScheduleError } from "../ScheduleError.ts"
import * as Engine from "./forecast.ts"
import type {
  AccountChange,
  AccountForecast,
  Change,
  Check,
  Evidence,
  Finding,
  Forecast,
  Input,
  Moved,
  Outcome,
  RiskDay,
  Row,
  Scenario
} from "./forecastTypes.ts"

export const fail = (message: string): Result.Result<never, ScheduleError> =>
  Result.fail(new ScheduleError({ reason: new InvalidForecast({ message }) }))

export const validate = (input: Input): string | undefined => {
  const seen = new Set<string>()
  for (const b of input.balances) {
    if (seen.has(b.iban)) return `the balance of ${b.iban} is given twice`
    seen.add(b.iban)
  }
  return undefined
}

export const FINDING_RANK: Record<Finding, number> = {
  DeclinedButCovered: 0,
  ApprovedButAtRisk: 1,
  Agrees: 2,
  Outside: 3
}

/** The row whose closing holds on `day` (the last row on or before it), if any. */
export const rowOn = (rows: ReadonlyArray<Row> | undefined, day: LocalDate.LocalDate): Row | undefined => {
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

export const evidenceOf = (checks: ReadonlyArray<Check>, accounts: ReadonlyArray<AccountForecast>): Array<Evidence> => {
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

/** The engine's run over the given orders made a forecast, in the engine's steps (`Engine.steps`). */
export function* compute(
  input: Input,
  given: Orders,
  options: Projection.Options | undefined,
  edited: ReadonlySet<string>,
  edit: Engine.Edit | undefined
): Generator<void, { readonly forecast: Forecast; readonly edited: ReadonlyArray<Engine.EditedPayment> }> {
  const checks = input.checks ?? []
  const engine = yield* Engine.steps(
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
export interface Orders {
  readonly orders: ReadonlyArray<Projection.ProjectableOrder>
  readonly flowsFrom: number
}

export const ordersOf = (
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
export const make = (input: Input): Result.Result<Forecast, ScheduleError> => Engine.finish(makeSteps(input))

/** {@link make} in the engine's steps (`Engine.steps`): a caller may pause between them. */
export function* makeSteps(input: Input): Generator<void, Result.Result<Forecast, ScheduleError>> {
  const problem = validate(input)
  if (problem !== undefined) return fail(problem)
  return Result.succeed((yield* compute(input, ordersOf(input), input.options, new Set(), undefined)).forecast)
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

/** The day a scenario makes a payment of `orderId` executing on `day` due: the same day, a later one, or -1 (gone). */
export const editOf = (changes: ReadonlyArray<Change>): { edited: Set<string>; edit: Engine.Edit } => {
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
export const same = (p: Payment.Payment, q: Payment.Payment): boolean =>
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
export const minus = (a: ReadonlyArray<Payment.Payment>, b: ReadonlyArray<Payment.Payment>): Array<Payment.Payment> => {
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

export const text = (d: BigDecimal.BigDecimal): string => BigDecimal.format(BigDecimal.normalize(d))

export const riskKey = (d: RiskDay): string => `${d.date}..${d.until} ${text(d.closing)} ${text(d.out)}`

export const eq = BigDecimal.equals

/** Whether two forecasts of one account agree: balances, ladders, risk days and lowest point. */
export const sameForecast = (a: AccountForecast, b: AccountForecast): boolean => {
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

export const accountChanges = (base: Forecast, next: Forecast): Array<AccountChange> => {
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
export const scenario = (input: Input, scenario: Scenario, base?: Forecast): Result.Result<Outcome, ScheduleError> =>
  Engine.finish(scenarioSteps(input, scenario, base))

/** {@link scenario} in the engine's steps (`Engine.steps`): a caller may pause between them. */
export function* scenarioSteps(
  input: Input,
  scenario: Scenario,
  base?: Forecast
): Generator<void, Result.Result<Outcome, ScheduleError>> {
  const problem = validate(input)
  if (problem !== undefined) return fail(problem)
  for (const c of scenario.changes) {
    if (c._tag === "Delay" && !(Number.isInteger(c.days) && c.days >= 1)) {
      return fail(`scenario ${JSON.stringify(scenario.name)}: a delay of ${c.days} days (whole days, at least 1)`)
    }
  }
  const before = base ?? (yield* compute(input, ordersOf(input), input.options, new Set(), undefined)).forecast
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
  const made = yield* compute(input, given, options, edited, edited.size === 0 ? undefined : edit)
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
