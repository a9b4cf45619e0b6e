/**
 * The demo behind `tppkit demo`: the whole library on one screen, with no arguments and no network. It starts the mock bank on
 * an ephemeral loopback port, obtains tokens, runs a balance check, lists every standing order across pages,
 * projects the next 90 days, checks funds for the payments due in the next 7 working days and prints a report.
 *
 * @since 0.1.0
 */

import { type BusinessDayConvention, Calendar, type Currency, Iban, LocalDate, Money } from "@tppkit/core"
import { BankClient, type BankError, TokenService } from "@tppkit/http"
import { Sandbox } from "@tppkit/sandbox"
import { Projection } from "@tppkit/schedule"
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

/** The verdict of a funds check for one account: the sum due, and the bank's answer or why there is none. */
export interface FundsCheck {
  readonly debtorIban: string
  readonly currency: string
  readonly count: number
  readonly amount: BigDecimal.BigDecimal
  readonly outcome:
    | { readonly _tag: "Answered"; readonly approved: boolean }
    | { readonly _tag: "Failed"; readonly reason: string }
}

/** Groups payments by debtor account and currency with their exact sums (first-seen order). */
export const dueByAccount = (
  payments: ReadonlyArray<Render.PaymentRow>
): Array<{ debtorIban: string; currency: string; count: number; amount: BigDecimal.BigDecimal }> => {
  const acc = new Map<string, { debtorIban: string; currency: string; count: number; amount: BigDecimal.BigDecimal }>()
  for (const p of payments) {
    const key = `${p.debtorIban} ${p.currency}`
    const t = acc.get(key) ?? {
      debtorIban: p.debtorIban,
      currency: p.currency,
      count: 0,
      amount: BigDecimal.fromBigInt(0n)
    }
    acc.set(key, { ...t, count: t.count + 1, amount: BigDecimal.sum(t.amount, p.amount) })
  }
  return [...acc.values()]
}

/** The funds-check verdicts as table rows; "AT RISK" when the bank declined or could not answer. */
export const fundsTable = (checks: ReadonlyArray<FundsCheck>, width: number = Render.WIDTH): Array<string> =>
  Render.table(
    [
      { header: "Account" },
      { header: "Payments", align: "right" },
      { header: "Due", align: "right" },
      { header: "Cur" },
      { header: "Answer", flex: true }
    ],
    checks.map((c) => [
      c.debtorIban,
      String(c.count),
      Render.fixed2(c.amount),
      c.currency,
      c.outcome._tag === "Answered"
        ? c.outcome.approved
          ? "APPR sufficient funds"
          : "DECL AT RISK"
        : "AT RISK (see below)"
    ]),
    width
  )

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

  const horizon = Calendar.addWorkingDays(calendar, today, FUNDS_CHECK_WORKING_DAYS) ?? to
  const due = projection.payments.filter((p) => p.executionDate <= horizon)
  yield* heading(
    6,
    `Funds check for ${due.length} payment(s) due by ${LocalDate.format(horizon)} (next ${FUNDS_CHECK_WORKING_DAYS} working days)`
  )
  const checks: Array<FundsCheck> = yield* Effect.forEach(
    dueByAccount(due),
    (group) =>
      client
        .balanceCheck(
          {
            instructionIdentification: crypto.randomUUID(),
            iban: Iban.parseUnsafe(group.debtorIban),
            amount: { value: group.amount, currency: group.currency as Currency.CurrencyCode }
          },
          { psu }
        )
        .pipe(
          Effect.map((reply) => ({
            ...group,
            outcome: { _tag: "Answered" as const, approved: reply.body.response === "APPR" }
          })),
          Effect.catch((e: BankError.BankError) =>
            Effect.succeed({ ...group, outcome: { _tag: "Failed" as const, reason: e.message } })
          )
        ),
    { concurrency: 4 }
  )
  if (checks.length === 0) {
    yield* Output.line("   No payments are due.")
  } else {
    yield* Output.line(
      fundsTable(checks, Render.WIDTH - 3)
        .map((l) => `   ${l}`)
        .join("\n")
    )
  }
  for (const c of checks) {
    if (c.outcome._tag === "Failed") {
      yield* Output.line(Render.wrap(`${c.debtorIban}: ${c.outcome.reason}`, Render.WIDTH, "   ", "     ").join("\n"))
    }
  }
  const atRisk = checks.filter((c) => !(c.outcome._tag === "Answered" && c.outcome.approved))
  const riskyPayments = due.filter((p) =>
    atRisk.some((c) => c.debtorIban === p.debtorIban && c.currency === p.currency)
  )
  yield* heading(7, "Payments at risk")
  if (riskyPayments.length === 0) {
    yield* Output.line("   None: every account can cover what is due.")
  } else {
    const shown = riskyPayments.slice(0, LISTED_PAYMENTS)
    yield* Output.line(
      Render.paymentTable(shown, Render.WIDTH - 3)
        .map((l) => `   ${l}`)
        .join("\n")
    )
    yield* Output.line(
      `   ${riskyPayments.length} payment(s) on ${atRisk.length} account(s)` +
        (riskyPayments.length > shown.length ? `, the first ${shown.length} shown` : "")
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
