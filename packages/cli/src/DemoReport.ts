/**
 * The tables of `tppkit demo`'s report, within 80 columns: the funds check per account, the cash flow per month,
 * the orders of a group of payments at risk. The analysis they print (sums per account, running totals, risk
 * groups) is schedule's `Coverage`. Nothing here performs I/O.
 *
 * @since 0.1.0
 */
import { type BalanceCheck, LocalDate, Money } from "@tppkit/core"
import { CashFlow, Coverage } from "@tppkit/schedule"
import type { BigDecimal } from "effect"
import * as Periods from "./internal/periods.ts"
import type * as ProjectionFormats from "./ProjectionFormats.ts"
import * as Render from "./Render.ts"

/** One funds check as the fleet records it: the payment's debtor, exact amount, and the outcome once known. */
export interface RecordedCheck {
  readonly debtorIban: string
  readonly currency: string
  readonly amount: BigDecimal.BigDecimal
  readonly outcome: BalanceCheck.Answer | "failed" | undefined
}

/**
 * Sums the fleet's recorded checks per debtor account and currency (first-seen order), like `Coverage.summarize`:
 * a `failed` check counts as no answer, a pending one only in the count.
 */
export const summarizeRecorded = (checks: ReadonlyArray<RecordedCheck>): Array<Coverage.AccountSummary> =>
  Coverage.perAccount(
    checks.map((c) => ({
      debtorIban: c.debtorIban,
      currency: c.currency,
      amount: c.amount,
      outcome: c.outcome
    }))
  )

/** The per-account funds-check summary as table rows, with a totals line when there is more than one account. */
export const fundsTable = (
  rows: ReadonlyArray<Coverage.AccountSummary>,
  width: number = Render.WIDTH
): Array<string> => {
  const line = (r: Coverage.AccountSummary) => [
    r.debtorIban,
    String(r.count),
    Money.formatMinor(r.amount, r.currency),
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

/**
 * Totals per month and currency as table rows, followed by the total of the whole window per currency; with the
 * window, a month it cuts is marked with the days it covers, e.g. `2026-11 (partial: 25–30)`.
 */
export const cashFlowTable = (
  payments: ReadonlyArray<ProjectionFormats.PaymentRow>,
  width: number = Render.WIDTH,
  window?: { readonly from: LocalDate.LocalDate; readonly to: LocalDate.LocalDate }
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
      ...months.map((t) => [
        window === undefined ? t.label : Periods.label(t, window.from, window.to),
        t.currency,
        String(t.count),
        Money.formatMinor(t.amount, t.currency)
      ]),
      ...all.map((t) => ["All", t.currency, String(t.count), Money.formatMinor(t.amount, t.currency)])
    ],
    width
  )
  return withRuleBefore(lines, months.length)
}

/** The orders of a risk group as table rows: order, creditor, payments, earliest date, amount, currency. */
export const orderRiskTable = (
  orders: ReadonlyArray<Coverage.OrderRisk>,
  width: number = Render.WIDTH
): Array<string> =>
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
      Money.formatMinor(o.amount, o.currency),
      o.currency
    ]),
    width
  )
