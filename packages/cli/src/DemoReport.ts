/**
 * The pure parts of `tppkit demo`'s report: the funds check summed per account, the payments at risk grouped per
 * account and order, the search for the first payment an account's running total no longer covers, and the
 * tables that print them within 80 columns. Nothing here performs I/O.
 *
 * @since 0.1.0
 */
import { type BalanceCheck, LocalDate } from "@tppkit/core"
import { CashFlow, type FundsCheck, type Payment } from "@tppkit/schedule"
import { BigDecimal, Effect, Option } from "effect"
import * as Render from "./Render.ts"

const ZERO = BigDecimal.fromBigInt(0n)

/** One account's line of the funds check: payments due, their sum, and how many the bank approved or declined. */
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
interface Tally {
  readonly debtorIban: string
  readonly currency: string
  readonly amount: BigDecimal.BigDecimal
  readonly outcome: BalanceCheck.Answer | "failed" | undefined
}

/** Sums tallies per debtor account and currency, in first-seen order. */
const sumPerAccount = (tallies: Iterable<Tally>): Array<AccountSummary> => {
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
export const summarize = <E>(report: FundsCheck.Report<E>): Array<AccountSummary> =>
  sumPerAccount(
    report.outcomes.map((o) => ({
      debtorIban: o.payment.debtorIban,
      currency: o.payment.currency,
      amount: o.payment.amount,
      outcome: o._tag === "Checked" ? o.answer : "failed"
    }))
  )

/** One funds check as the fleet records it: the payment's debtor, amount as text, and the outcome once known. */
export interface RecordedCheck {
  readonly debtorIban: string
  readonly currency: string
  /** The exact amount as a plain decimal, e.g. "1250.50". */
  readonly amount: string
  readonly outcome: BalanceCheck.Answer | "failed" | undefined
}

/**
 * Sums the fleet's recorded checks per debtor account and currency (first-seen order), like {@link summarize}: a
 * `failed` check counts as no answer, a pending one only in the count.
 */
export const summarizeRecorded = (checks: ReadonlyArray<RecordedCheck>): Array<AccountSummary> =>
  sumPerAccount(
    checks.map((c) => ({
      debtorIban: c.debtorIban,
      currency: c.currency,
      amount: BigDecimal.fromString(c.amount).pipe(Option.getOrElse(() => ZERO)),
      outcome: c.outcome
    }))
  )

/** The per-account funds-check summary as table rows, with a totals line when there is more than one account. */
export const fundsTable = (rows: ReadonlyArray<AccountSummary>, width: number = Render.WIDTH): Array<string> => {
  const line = (r: AccountSummary) => [
    r.debtorIban,
    String(r.count),
    Render.fixed2(r.amount),
    r.currency,
    String(r.approved),
    String(r.declined),
    String(r.failed)
  ]
  const all = rows.reduce(
    (t, r) => ({
      count: t.count + r.count,
      approved: t.approved + r.approved,
      declined: t.declined + r.declined,
      failed: t.failed + r.failed
    }),
    { count: 0, approved: 0, declined: 0, failed: 0 }
  )
  const totals =
    rows.length < 2
      ? []
      : [["All accounts", String(all.count), "", "", String(all.approved), String(all.declined), String(all.failed)]]
  const lines = Render.table(
    [
      { header: "Account", flex: true },
      { header: "Payments", align: "right" },
      { header: "Amount", align: "right" },
      { header: "Cur" },
      { header: "APPR", align: "right" },
      { header: "DECL", align: "right" },
      { header: "No answer", align: "right" }
    ],
    [...rows.map(line), ...totals],
    width
  )
  return withRuleBefore(lines, rows.length)
}

// repeats the header's rule above the totals rows that follow `bodyRows` body rows
const withRuleBefore = (lines: ReadonlyArray<string>, bodyRows: number): Array<string> => {
  const rule = lines[1]
  if (rule === undefined || lines.length <= 2 + bodyRows) return [...lines]
  return [...lines.slice(0, 2 + bodyRows), rule, ...lines.slice(2 + bodyRows)]
}

/** Totals per month and currency as table rows, followed by the total of the whole window per currency. */
export const cashFlowTable = (
  payments: ReadonlyArray<Render.PaymentRow>,
  width: number = Render.WIDTH
): Array<string> => {
  const { byPeriod: months, byCurrency: all } = CashFlow.totals(payments, { period: "month" })
  const lines = Render.table(
    [
      { header: "Month" },
      { header: "Currency" },
      { header: "Payments", align: "right" },
      { header: "Total", align: "right" }
    ],
    [
      ...months.map((t) => [t.label, t.currency, String(t.count), Render.fixed2(t.amount)]),
      ...all.map((t) => ["All", t.currency, String(t.count), Render.fixed2(t.amount)])
    ],
    width
  )
  return withRuleBefore(lines, months.length)
}

/** Why payments are at risk: the bank declined them, it gave no answer, or their running total is not covered. */
export type RiskReason =
  | { readonly _tag: "Declined" }
  | { readonly _tag: "NoAnswer"; readonly detail: string }
  | { readonly _tag: "RunningTotal" }

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
      creditor: p.creditorName ?? p.creditorIban,
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

/** The orders of a risk group as table rows: order, creditor, payments, earliest date, amount, currency. */
export const orderRiskTable = (orders: ReadonlyArray<OrderRisk>, width: number = Render.WIDTH): Array<string> =>
  Render.table(
    [
      { header: "Order", flex: true },
      { header: "Creditor", flex: true },
      { header: "Payments", align: "right" },
      { header: "First" },
      { header: "Amount", align: "right" },
      { header: "Cur" }
    ],
    orders.map((o) => [
      o.orderId,
      o.creditor,
      String(o.count),
      LocalDate.format(o.first),
      Render.fixed2(o.amount),
      o.currency
    ]),
    width
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
