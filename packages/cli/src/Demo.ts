/**
 * The demo behind `tppkit demo`: the whole library on one screen, with no arguments and no network. It starts the mock bank on
 * an ephemeral loopback port, obtains tokens, runs a balance check, lists every standing order across pages,
 * projects the next 90 days, checks funds for the payments due in the next 7 working days and prints a report.
 * Then a fleet worker (`tppkit worker --once`) sweeps today on a temporary embedded PostgreSQL, started at the
 * beginning so that its start overlaps the other steps, and stopped and removed at the end, on failure or
 * interruption too. Each step is one file of `internal/demo/`.
 *
 * @since 0.1.0
 */

import { LocalDate, Profile } from "@tppkit/core"
import { BankClient } from "@tppkit/http"
import { Sandbox } from "@tppkit/sandbox"
import { DateTime, Effect, Layer } from "effect"
import * as Connection from "./Connection.ts"
import { clientLayer } from "./internal/client.ts"
import * as AtRisk from "./internal/demo/atRisk.ts"
import * as Balance from "./internal/demo/balance.ts"
import * as Bank from "./internal/demo/bank.ts"
import * as CashFlow from "./internal/demo/cashFlow.ts"
import * as Customer from "./internal/demo/customer.ts"
import * as Fleet from "./internal/demo/fleet.ts"
import * as Forecast from "./internal/demo/forecast.ts"
import * as FundsCheck from "./internal/demo/fundsCheck.ts"
import * as Picture from "./internal/demo/picture.ts"
import * as RunningTotals from "./internal/demo/runningTotals.ts"
import * as StandingOrders from "./internal/demo/standingOrders.ts"
import * as Summary from "./internal/demo/summary.ts"
import { say } from "./internal/demo/text.ts"
import * as Tokens from "./internal/demo/tokens.ts"
import * as Upcoming from "./internal/demo/upcoming.ts"
import * as Output from "./Output.ts"

/** Days of the projection window, today included. */
export const HORIZON_DAYS: number = Upcoming.HORIZON_DAYS

/** Working days ahead whose payments the funds check covers. */
export const FUNDS_CHECK_WORKING_DAYS: number = FundsCheck.FUNDS_CHECK_WORKING_DAYS

/** How many upcoming payments the report lists before counting the rest. */
export const LISTED_PAYMENTS: number = Upcoming.LISTED_PAYMENTS

/** How many orders of one group of payments at risk the report lists before counting the rest. */
export const LISTED_ORDERS: number = AtRisk.LISTED_ORDERS

/** Options of the demo: where to write the cash-flow picture (`--html FILE`), if anywhere; whether to skip the fleet. */
export interface Options {
  readonly html?: string | undefined
  /** Leave out the fleet step (`--skip-fleet`): no PostgreSQL is started. */
  readonly skipFleet?: boolean | undefined
  /**
   * The profile the mock bank plays and the client speaks (`--profile`; default the seed bank's). Under one whose
   * listing needs the customer's token (COBS) the demo obtains it by the authorization-code flow and reads each
   * order's detail, and the fleet's worker keeps the customer's refresh token (sealed with a key of the demo's own).
   */
  readonly profile?: Profile.Profile | undefined
}

/**
 * The demo itself, against whatever `SandboxInfo`, `TokenService` and `BankClient` it is given; with `html` it
 * also writes the cash-flow picture of its projection (`Html`), the funds check's payments at risk marked.
 */
export const run = (options: Options = {}) =>
  Effect.gen(function* () {
    const info = yield* Sandbox.SandboxInfo
    const now = yield* DateTime.now
    const today = LocalDate.parseUnsafe(DateTime.formatIsoDateUtc(now))
    const profile = options.profile ?? Profile.sbas
    const sbas = Profile.isSbas(profile)
    const fleet = options.skipFleet === true ? undefined : yield* Fleet.start(info, today)
    const bank: Bank.Bank = {
      info,
      client: yield* BankClient.BankClient,
      psu: { ...Connection.defaultPsu, lastLoggedTime: now },
      consentOf: Bank.consents(info),
      ...(sbas ? {} : { profile })
    }

    yield* Output.line(
      `tppkit demo: mock bank at ${info.baseUrl} (${info.environment}), today ${LocalDate.format(today)}`
    )
    yield* say("Offline: the bank is tppkit's mock on loopback, with fixture accounts and standing orders.", "")

    // the seed bank's client-credentials tokens; under a profile that lists with the customer's token, that token
    const token = sbas ? yield* Tokens.step(info) : yield* Customer.tokens(info, profile)
    const check = Bank.balanceCheck(bank, sbas ? token : undefined)
    yield* Balance.step(bank, check)
    const orders = sbas ? yield* StandingOrders.step(bank) : yield* Customer.standingOrders(bank, token, profile, today)
    const projection = yield* Upcoming.step(orders, today)
    yield* CashFlow.step(projection.payments, today, projection.to)
    const { funds, accounts } = yield* FundsCheck.step(bank, check, projection.payments, today)
    const { uncovered, shortfalls } = yield* RunningTotals.step(check, funds)
    const atRisk = AtRisk.collect(bank, funds, uncovered)
    const groups = yield* AtRisk.step(atRisk)
    yield* Forecast.step(info.accounts, orders, funds, today, projection.to)
    const fleetLine = fleet === undefined ? undefined : yield* Fleet.step(fleet, today, bank.consentOf)
    yield* Summary.step({
      n: fleet === undefined ? 8 : 9,
      orders: orders.length,
      payments: projection.payments,
      funds,
      accounts,
      groups,
      shortfalls,
      fleetLine
    })
    if (options.html !== undefined) {
      yield* Picture.write(options.html, {
        from: today,
        to: projection.to,
        payments: projection.payments,
        skipped: projection.skipped,
        atRisk,
        horizon: funds.horizon,
        atRiskCount: groups.reduce((n, g) => n + g.count, 0)
      })
    }
  }).pipe(Effect.scoped)

/** The demo as `tppkit demo` runs it without options. */
export const program = run()

/**
 * The mock bank playing `profile` (default the seed bank's) plus a bank client logged in to it (daily budget kept in
 * memory); under another profile the client has the mock bank's API key and the demo's TPP name.
 */
export const layerFor = (profile?: Profile.Profile) =>
  Layer.unwrap(
    Effect.map(Effect.service(Sandbox.SandboxInfo), (info) =>
      profile === undefined || Profile.isSbas(profile)
        ? clientLayer({
            environment: info.environment,
            baseUrl: info.baseUrl,
            clientId: info.clientId,
            clientSecret: info.clientSecret,
            budgetFile: "memory"
          })
        : BankClient.layerNodeFromOptions({
            environment: info.environment,
            baseUrl: info.baseUrl,
            clientId: info.clientId,
            clientSecret: info.clientSecret,
            profile,
            apiKey: info.apiKey,
            tpp: { name: "tppkit demo" }
          })
    )
  ).pipe(
    // the mock bank lists its nextDates as of the demo's today (UTC), so that a payment of today is never counted as
    // paid by a bank whose day (Bratislava's) has already turned
    Layer.provideMerge(
      Layer.unwrap(
        Effect.map(DateTime.now, (now) =>
          Sandbox.layer({
            listingDay: LocalDate.parseUnsafe(DateTime.formatIsoDateUtc(now)),
            ...(profile === undefined ? {} : { profile })
          })
        )
      )
    )
  )

/** The mock bank plus a bank client logged in to it (daily budget kept in memory), the seed bank's profile. */
export const layer = layerFor()
