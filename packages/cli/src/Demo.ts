/**
 * The demo behind `tppkit demo`: the whole library on one screen, with no arguments and no network. It starts the mock bank on
 * an ephemeral loopback port, obtains tokens, runs a balance check, lists every standing order across pages,
 * projects the next 90 days, checks funds for the payments due in the next 7 working days and prints a report.
 *
 * @since 0.1.0
 */

import { type BusinessDayConvention, Calendar, type Currency, Iban, LocalDate, Money } from "@tppkit/core"
import { BankClient, TokenService } from "@tppkit/http"
import { Sandbox } from "@tppkit/sandbox"
import { FundsCheck, Payment, Projection } from "@tppkit/schedule"
import { BigDecimal, DateTime, Effect, Layer, Stream } from "effect"
import * as Connection from "./Connection.ts"
import { clientLayer } from "./internal/client.ts"
import * as Output from "./Output.ts"
import * as Render from "./Render.ts"

/** Days of the projection window, today included. */
export const HORIZON_DAYS = 90

/** Working days ahead whose payments the funds check covers. */
export const FUNDS_CHECK_WORKING_DAYS = 7

/** How many upcoming payments the report lists before summarising the rest. */
export const LISTED_PAYMENTS = 15

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

/** Sums a funds-check report per debtor account and currency (first-seen order). */
export const summarize = <E>(report: FundsCheck.Report<E>): Array<AccountSummary> => {
  const acc = new Map<string, AccountSummary>()
  for (const o of report.outcomes) {
    const p = o.payment
    const key = `${p.debtorIban} ${p.currency}`
    const t = acc.get(key) ?? {
      debtorIban: p.debtorIban,
      currency: p.currency,
      count: 0,
      amount: BigDecimal.fromBigInt(0n),
      approved: 0,
      declined: 0,
      failed: 0
    }
    acc.set(key, {
      ...t,
      count: t.count + 1,
      amount: BigDecimal.sum(t.amount, p.amount),
      approved: t.approved + (o._tag === "Checked" && o.answer === "APPR" ? 1 : 0),
      declined: t.declined + (o._tag === "Checked" && o.answer === "DECL" ? 1 : 0),
      failed: t.failed + (o._tag === "Failed" ? 1 : 0)
    })
  }
  return [...acc.values()]
}

/** The per-account funds-check summary as table rows. */
export const fundsTable = (rows: ReadonlyArray<AccountSummary>, width: number = Render.WIDTH): Array<string> =>
  Render.table(
    [
      { header: "Account", flex: true },
      { header: "Payments", align: "right" },
      { header: "Due", align: "right" },
      { header: "Cur" },
      { header: "APPR", align: "right" },
      { header: "DECL", align: "right" },
      { header: "No answer", align: "right" }
    ],
    rows.map((r) => [
      r.debtorIban,
      String(r.count),
      Render.fixed2(r.amount),
      r.currency,
      String(r.approved),
      String(r.declined),
      String(r.failed)
    ]),
    width
  )

const indent = (lines: ReadonlyArray<string>): string => lines.map((l) => `   ${l}`.trimEnd()).join("\n")

const heading = (n: number, title: string) => Output.line(`\n${n}. ${title}`)

const todayOf = (now: DateTime.Utc): LocalDate.LocalDate => LocalDate.parseUnsafe(DateTime.formatIsoDateUtc(now))

/** The demo itself, against whatever `SandboxInfo`, `TokenService` and `BankClient` it is given. */
export const program = Effect.gen(function* () {
  const info = yield* Sandbox.SandboxInfo
  const tokens = yield* TokenService.TokenService
  const client = yield* BankClient.BankClient
  const now = yield* DateTime.now
  const today = todayOf(now)
  const psu = { ...Connection.defaultPsu, lastLoggedTime: now }
  const calendar = Calendar.target
  const convention: BusinessDayConvention.BusinessDayConvention = "following"

  yield* Output.line(
    `tppkit demo: mock bank at ${info.baseUrl} (${info.environment}), today ${LocalDate.format(today)}`
  )

  yield* heading(1, "Tokens (client credentials; the values stay secret)")
  for (const scopes of [["PIISP"], ["AISP"]]) {
    const token = yield* tokens.get(scopes)
    yield* Output.line(`   ${token.scopes.join(" ").padEnd(6)} ${token.tokenType} token for ${info.clientId}`)
  }

  yield* heading(2, "Balance check")
  const account = info.accounts.find((a) => a.consent === "branch") ?? info.accounts[0]
  if (account !== undefined) {
    const amount = BigDecimal.fromBigInt(100n)
    const reply = yield* client.balanceCheck(
      {
        instructionIdentification: crypto.randomUUID(),
        iban: Iban.parseUnsafe(account.iban),
        amount: { value: amount, currency: account.currency as Currency.CurrencyCode }
      },
      { psu }
    )
    yield* Output.line(
      `   ${account.iban}  ${Money.formatFixed2(amount)} ${account.currency}: ${reply.body.response}\n` +
        `   [Response-ID ${reply.identity.responseId ?? "none"}]`
    )
  }

  yield* heading(3, "Standing orders (all pages, page size 100)")
  const pages = yield* Stream.runCollect(client.standingOrders({ psu }))
  const orders = pages.flatMap((p) => p.body.orders)
  const malformed = pages.flatMap((p) => p.body.errors)
  yield* Output.line(
    `   ${orders.length} standing orders on ${pages.length} page${pages.length === 1 ? "" : "s"}` +
      (malformed.length === 0 ? "" : `, ${malformed.length} malformed record(s) skipped`)
  )

  const to = LocalDate.addDays(today, HORIZON_DAYS - 1)
  const projection = Projection.project(orders, { from: today, to }, { calendar, convention })
  yield* heading(4, `Upcoming payments ${LocalDate.format(today)} to ${LocalDate.format(to)} (target, following)`)
  const listed = projection.payments.slice(0, LISTED_PAYMENTS)
  yield* Output.line(
    Render.paymentTable(listed)
      .map((l) => `   ${l}`.trimEnd())
      .join("\n")
  )
  if (projection.payments.length > listed.length) {
    yield* Output.line(`   … and ${projection.payments.length - listed.length} more`)
  }
  yield* Output.line(`   ${projection.payments.length} payments in ${HORIZON_DAYS} days`)
  if (projection.skipped.length > 0) {
    yield* Output.line(`   ${projection.skipped.length} order(s) not projectable:`)
    yield* Output.line(
      Render.skippedLines(projection.skipped, Render.WIDTH - 3)
        .map((l) => `   ${l}`)
        .join("\n")
    )
  }

  yield* heading(5, "Cash flow per month and currency")
  yield* Output.line(
    Render.monthlyTotalsTable(Render.monthlyTotals(projection.payments))
      .map((l) => `   ${l}`)
      .join("\n")
  )

  const funds = yield* FundsCheck.run(projection.payments, {
    today,
    daysBefore: FUNDS_CHECK_WORKING_DAYS,
    calendar,
    concurrency: 8,
    check: (payment) =>
      client
        .balanceCheck(
          {
            instructionIdentification: crypto.randomUUID(),
            iban: Iban.parseUnsafe(payment.debtorIban),
            amount: { value: payment.amount, currency: payment.currency as Currency.CurrencyCode }
          },
          { psu }
        )
        .pipe(Effect.map((reply) => reply.body.response))
  })
  yield* heading(
    6,
    `Funds check: ${funds.outcomes.length} payment(s) due by ${LocalDate.format(funds.horizon)} (next ${FUNDS_CHECK_WORKING_DAYS} working days)`
  )
  if (funds.outcomes.length === 0) {
    yield* Output.line("   No payments are due.")
  } else {
    yield* Output.line(indent(fundsTable(summarize(funds), Render.WIDTH - 3)))
  }
  // the bank answers per payment; whether an account covers everything due together is one more check each
  for (const account of summarize(funds)) {
    if (account.approved === 0 || account.count < 2) continue
    const total = yield* client
      .balanceCheck(
        {
          instructionIdentification: crypto.randomUUID(),
          iban: Iban.parseUnsafe(account.debtorIban),
          amount: { value: account.amount, currency: account.currency as Currency.CurrencyCode }
        },
        { psu }
      )
      .pipe(
        Effect.map((reply) => reply.body.response),
        Effect.orElseSucceed(() => undefined)
      )
    if (total !== undefined) {
      yield* Output.line(
        Render.wrap(
          `${account.debtorIban}: all ${account.count} payments together (${Render.fixed2(account.amount)} ${account.currency}): ${
            total === "APPR" ? "APPR, covered" : "DECL, not covered together"
          }`,
          Render.WIDTH,
          "   ",
          "     "
        ).join("\n")
      )
    }
  }
  const reasons = new Map<string, number>()
  for (const f of funds.failed) {
    const reason = f.error.message.replace(/ \[.*\]$/, "") // the request identifiers differ per call
    reasons.set(reason, (reasons.get(reason) ?? 0) + 1)
  }
  for (const [reason, count] of reasons) {
    yield* Output.line(Render.wrap(`${count} without an answer: ${reason}`, Render.WIDTH, "   ", "     ").join("\n"))
  }

  const atRisk = [...funds.atRisk, ...funds.failed.map((f) => f.payment)].sort(Payment.compare)
  yield* heading(7, "Payments at risk (declined, or the bank could not answer)")
  if (atRisk.length === 0) {
    yield* Output.line("   None: every payment due is covered.")
  } else {
    const shown = atRisk.slice(0, LISTED_PAYMENTS)
    yield* Output.line(indent(Render.paymentTable(shown, Render.WIDTH - 3)))
    yield* Output.line(
      `   ${atRisk.length} payment(s) at risk: ${funds.atRisk.length} declined, ${funds.failed.length} without an answer` +
        (atRisk.length > shown.length ? `; the first ${shown.length} shown` : "")
    )
  }
})

/** The mock bank plus a bank client logged in to it (daily budget kept in memory). */
export const layer = Layer.unwrap(
  Effect.map(Effect.service(Sandbox.SandboxInfo), (info) =>
    clientLayer({
      environment: info.environment,
      baseUrl: info.baseUrl,
      clientId: info.clientId,
      clientSecret: info.clientSecret,
      budgetFile: "memory"
    })
  )
).pipe(Layer.provideMerge(Sandbox.layer()))
