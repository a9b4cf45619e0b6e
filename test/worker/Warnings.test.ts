/**
 * The sweep's watcher in the fleet's database (issue 39): a listing refused with a consent code marks the consent
 * expired once (`consent.expired`) and no later run lists it; a payment raised at risk is cleared when newer balances
 * cover it and raised again as a new episode; a balance check answered CONSENT_EXPIRED marks its consent through the
 * lifecycle listener; and a database of the previous version is migrated.
 */
import { assert, describe, it } from "@effect/vitest"
import { Calendar, ErrorBody, LocalDate } from "@tppkit/core"
import { BankError } from "@tppkit/http"
import {
  AtRisk,
  Checks,
  Consents,
  FundsCheckWorkflow,
  type Lifecycle,
  PlanSettings,
  Sweep,
  Warnings
} from "@tppkit/worker"
import * as Database from "@tppkit/worker/Database"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { WorkflowEngine } from "effect/workflow"
import { embeddedDb } from "./pg.ts"
import { due, listedOrder, listingExhausted, sweepSettings } from "./support.ts"

const db = embeddedDb()
const IBAN = "SK3112000000198742637541"

const monthly = (orderId: string, startDate: string, value: string) => listedOrder(orderId, startDate, { value })

const expired = (code: string) =>
  new BankError.BankError({
    operation: "standingOrders",
    identity: { requestId: "r1" },
    request: "GET /aisp/api/v1/standingOrders",
    reason: new BankError.Forbidden({
      body: ErrorBody.decode(403, "application/json", JSON.stringify({ code, title: "consent" }))
    })
  })

const settings = sweepSettings([])

const THIRD = "CZ6508000000192000145399"
const OTHER = "SK0809000000000123123123"

const balance = (amount: string) => ({ iban: IBAN, currency: "EUR", amount, date: "2026-11-16" })

const planSettings = (amount: string): PlanSettings.Settings => ({
  daysBefore: 2,
  calendar: "target",
  hour: 8,
  timeZone: "Europe/Bratislava",
  balances: [balance(amount)]
})

const plan = (amount: string) => PlanSettings.claim(planSettings(amount), { reconfigure: true })

/**
 * A bank whose consent "gone" is refused with `code` and whose other consents list SO-CAR (the keys listed kept in
 * `listed`), and the day's sweep over it with the watcher in the fleet's database; the run's consents are read from
 * `tppkit_consents` (`fromTable`) or are the settings' own.
 */
const sweeping = (
  code: string,
  listed: Array<string>,
  sweepSettings: Sweep.Settings,
  fromTable: boolean,
  ordersOf: (consent: string) => ReadonlyArray<ReturnType<typeof monthly>> = () => [
    monthly("SO-CAR", "2026-01-25", "400")
  ],
  options: Warnings.Options = { horizon: 10 }
) => {
  const source = Layer.succeed(Sweep.OrderSource)({
    list: (consent) =>
      Effect.suspend(() => {
        listed.push(consent.key)
        return consent.key === "gone"
          ? Effect.fail(new Sweep.ListingFailed({ consent: consent.key, failure: expired(code) }))
          : Effect.succeed({ orders: ordersOf(consent.key), pages: 1 })
      })
  })
  const consents = fromTable ? Consents.layerSource() : Layer.empty
  return (day: string) =>
    Sweep.sweepNow(day).pipe(
      Effect.provide(
        Layer.mergeAll(FundsCheckWorkflow.layer, Sweep.layer).pipe(
          Layer.provideMerge(Warnings.layerSql(options)),
          Layer.provideMerge(WorkflowEngine.layerMemory),
          Layer.provideMerge(Checks.Checks.layerSql),
          Layer.provideMerge(consents),
          Layer.provide(source),
          Layer.provide(
            Layer.succeed(FundsCheckWorkflow.BalanceChecker)({
              check: () => Effect.succeed({ answer: "APPR" as const })
            })
          ),
          Layer.provideMerge(Layer.succeed(Sweep.SweepSettings)(sweepSettings))
        )
      )
    )
}

describe("Warnings (the sweep's watcher in PostgreSQL)", { timeout: 60_000 }, () => {
  db.live("a consent refused as expired is not listed again; a payment at risk is cleared, then raised anew", (url) =>
    Effect.gen(function* () {
      const listed: Array<string> = []
      const sweep = sweeping("CONSENT_EXPIRED", listed, settings, true)
      const types = Effect.map(Warnings.events(0), (events) => events.map((e) => [e.type, e.data.orderId ?? e.consent]))
      yield* Effect.gen(function* () {
        yield* Consents.add({ key: "c1", iban: IBAN })
        yield* Consents.add({ key: "gone" })
        yield* plan("300")
        yield* sweep("2026-11-16")
        assert.deepStrictEqual(listed, ["c1", "gone"])
        assert.deepStrictEqual(yield* types, [
          ["consent.expired", "gone"],
          ["payment.at_risk", "SO-CAR"]
        ])
        const states = yield* Warnings.consentStates
        assert.deepStrictEqual(
          states.map((s) => [s.key, s.expired?.code]),
          [
            ["c1", undefined],
            ["gone", "CONSENT_EXPIRED"]
          ]
        )
        // newer balances cover it: cleared; the expired consent is not listed (no budget spent on it)
        yield* plan("1000")
        yield* sweep("2026-11-17")
        assert.deepStrictEqual(listed, ["c1", "gone", "c1"])
        // short again: a new event, episode 2
        yield* plan("300")
        yield* sweep("2026-11-18")
        const events = yield* Warnings.events(0)
        assert.deepStrictEqual(
          events.map((e) => [e.type, e.data.episode ?? null]),
          [
            ["consent.expired", null],
            ["payment.at_risk", 1],
            ["payment.at_risk_cleared", null],
            ["payment.at_risk", 2]
          ]
        )
        assert.strictEqual(events[2]?.data.atRiskId, events[1]?.id)
        assert.notStrictEqual(events[3]?.id, events[1]?.id)
        assert.strictEqual((yield* Warnings.openRisks("2026-11-18")).length, 1)
      }).pipe(Effect.provide(Database.layer(url)))
    })
  )

  db.live(
    "an account paid from by two consents' orders is forecast with both: the second's payment is at risk",
    (url) =>
      Effect.gen(function* () {
        const listed: Array<string> = []
        // 300 on Tuesday 2026-11-17 listed by c1, 250 on Tuesday 2026-11-24 by c2, 500 on the account: c2's is short
        const sweep = sweeping("CONSENT_EXPIRED", listed, settings, true, (consent) =>
          consent === "c1"
            ? [{ ...monthly("RENT", "2026-10-17", "300"), endDate: LocalDate.parseUnsafe("2026-11-17") }]
            : [{ ...monthly("CAR", "2026-10-24", "250"), endDate: LocalDate.parseUnsafe("2026-11-24") }]
        )
        yield* Effect.gen(function* () {
          yield* Consents.add({ key: "c1", iban: IBAN })
          yield* Consents.add({ key: "c2", iban: IBAN })
          yield* plan("500")
          yield* sweep("2026-11-16")
          assert.deepStrictEqual(
            (yield* Warnings.events(0)).map((e) => [e.type, e.consent, e.data.orderId, e.data.closing]),
            [["payment.at_risk", "c2", "CAR", "-50"]]
          )
        }).pipe(Effect.provide(Database.layer(url)))
      })
  )

  it.live("the forecast ahead read back in parts from the orders kept names what one forecast of them all names", () =>
    Effect.gen(function* () {
      const once = (orderId: string, date: string, value: string, debtor: string, creditor = OTHER) => ({
        ...monthly(orderId, date, value),
        endDate: LocalDate.parseUnsafe(date),
        debtor: { iban: debtor },
        creditor: { iban: creditor }
      })
      // A (500) pays 300, 150 into B and 250: CAR short; B (200) gets 150 and pays 350: GYM short; c2's X1 (from B)
      // repeats c1's orderId, so c1's is read (B would be short by 9,999 more); NONE pays from no account with a balance
      const listings = [
        {
          consent: "c1",
          orders: [once("RENT", "2026-11-17", "300", IBAN), once("X1", "2026-11-18", "150", IBAN, THIRD)]
        },
        { consent: "c2", orders: [once("CAR", "2026-11-24", "250", IBAN), once("X1", "2026-11-19", "9999", THIRD)] },
        { consent: "c3", orders: [once("GYM", "2026-11-19", "350", THIRD), once("NONE", "2026-11-19", "5", OTHER)] }
      ]
      const balances = [
        { iban: IBAN, currency: "EUR", amount: "500", date: "2026-11-16" },
        { iban: THIRD, currency: "EUR", amount: "200", date: "2026-11-16" }
      ]
      const whole = AtRisk.find({
        listings,
        balances,
        day: LocalDate.parseUnsafe("2026-11-16"),
        calendar: Calendar.target
      })
      assert.deepStrictEqual(
        whole.risks.map((r) => [r.consent, r.orderId]),
        [
          ["c3", "GYM"],
          ["c2", "CAR"]
        ]
      )
      const ordersOf = (consent: string) => listings.find((l) => l.consent === consent)?.orders ?? []
      for (const ordersPerPart of [1, 10_000]) {
        yield* Effect.gen(function* () {
          for (const l of listings) yield* Consents.add({ key: l.consent })
          yield* PlanSettings.claim({ ...planSettings("0"), balances }, { reconfigure: true })
          yield* sweeping("CONSENT_EXPIRED", [], settings, true, ordersOf, { horizon: 10, ordersPerPart })("2026-11-16")
          const raised = (yield* Warnings.events(0)).map(({ data: { sweepDay, episode, ...risk } }) => risk)
          const byOrder = (a: { orderId?: unknown }, b: { orderId?: unknown }) =>
            String(a.orderId) < String(b.orderId) ? -1 : 1
          assert.deepStrictEqual(
            raised.sort(byOrder),
            whole.risks.map((r): Record<string, unknown> => ({ ...r })).sort(byOrder)
          )
        }).pipe(Effect.provide(Database.layer(yield* db.freshUrl())))
      }
    })
  )

  db.live("a payment at risk whose order now pays from another account short too stays open, in parts of one", (url) =>
    Effect.gen(function* () {
      const car = (debtor: string) => [
        {
          ...monthly("CAR", "2026-10-24", "250"),
          endDate: LocalDate.parseUnsafe("2026-11-24"),
          debtor: { iban: debtor }
        }
      ]
      const balances = [IBAN, THIRD].map((iban) => ({ iban, currency: "EUR", amount: "100", date: "2026-11-16" }))
      const on = (debtor: string) =>
        sweeping("CONSENT_EXPIRED", [], settings, true, () => car(debtor), { horizon: 10, ordersPerPart: 1 })
      yield* Effect.gen(function* () {
        yield* Consents.add({ key: "c1" })
        yield* PlanSettings.claim({ ...planSettings("0"), balances }, { reconfigure: true })
        yield* on(IBAN)("2026-11-16")
        // the next day CAR pays from THIRD, as short: IBAN's part finds its open row recovered, THIRD's has it at risk
        yield* on(THIRD)("2026-11-17")
        assert.deepStrictEqual(
          (yield* Warnings.events(0)).map((e) => [e.type, e.data.iban]),
          [["payment.at_risk", IBAN]]
        )
        assert.strictEqual((yield* Warnings.openRisks("2026-11-17")).length, 1)
      }).pipe(Effect.provide(Database.layer(url)))
    })
  )

  db.live("a listing that degraded to what is kept is forecast from the kept pages", (url) =>
    Effect.gen(function* () {
      // c2's listing is refused by the day's budget: its day is planned from what is kept, CAR among it
      const exhausted = listingExhausted("c2", "2026-11-17")
      const car = { ...monthly("CAR", "2026-10-24", "250"), endDate: LocalDate.parseUnsafe("2026-11-24") }
      const source = Layer.succeed(Sweep.OrderSource)({
        list: (consent) =>
          consent.key === "c2"
            ? Effect.fail(new Sweep.ListingFailed({ consent: consent.key, failure: exhausted }))
            : Effect.succeed({ orders: [monthly("RENT", "2026-10-17", "300")], pages: 1 }),
        kept: () => Effect.succeed({ orders: [car], pagesKept: [0], pagesUnread: [], earlier: undefined })
      })
      yield* Effect.gen(function* () {
        yield* Consents.add({ key: "c1", iban: IBAN })
        yield* Consents.add({ key: "c2", iban: IBAN })
        yield* plan("500")
        yield* Sweep.sweepNow("2026-11-16").pipe(
          Effect.provide(
            Layer.mergeAll(FundsCheckWorkflow.layer, Sweep.layer).pipe(
              Layer.provideMerge(Warnings.layerSql({ horizon: 10 })),
              Layer.provideMerge(WorkflowEngine.layerMemory),
              Layer.provideMerge(Checks.Checks.layerSql),
              Layer.provideMerge(Consents.layerSource()),
              Layer.provide(source),
              Layer.provide(
                Layer.succeed(FundsCheckWorkflow.BalanceChecker)({
                  check: () => Effect.succeed({ answer: "APPR" as const })
                })
              ),
              Layer.provideMerge(Layer.succeed(Sweep.SweepSettings)(settings))
            )
          )
        )
        // 500 - 300 on 2026-11-17 - 250 on 2026-11-24: the kept CAR is short
        assert.deepStrictEqual(
          (yield* Warnings.events(0)).map((e) => [e.type, e.consent, e.data.orderId]),
          [["payment.at_risk", "c2", "CAR"]]
        )
      }).pipe(Effect.provide(Database.layer(url)))
    })
  )

  db.live("the forecast ahead has accounts only once opening balances are given (else nothing is kept for it)", (url) =>
    Effect.gen(function* () {
      yield* Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        const watcher = yield* Sweep.Watch.pipe(
          Effect.provide(Warnings.layerSql().pipe(Layer.provide(Layer.succeed(Sweep.SweepSettings)(settings))))
        )
        const orders = [
          monthly("SO-CAR", "2026-01-25", "400"),
          { ...monthly("ELSE", "2026-01-25", "9"), debtor: { iban: THIRD } }
        ]
        const kept = Effect.map(
          sql<{ consent: string; orders: string }>`SELECT consent, orders FROM tppkit_ahead_orders ORDER BY consent`,
          (rows) => rows.map((r) => [r.consent, (JSON.parse(r.orders) as Array<[string]>).map((o) => o[0])])
        )
        assert.isFalse(yield* watcher!.forecasts)
        yield* watcher!.keepAhead("c1", "2026-11-16", orders)
        assert.deepStrictEqual(yield* kept, [])
        yield* plan("300")
        assert.isTrue(yield* watcher!.forecasts)
        // kept for the forecast: the orders paying from or into an account with a balance, what the forecast reads
        yield* watcher!.keepAhead("c1", "2026-11-16", orders)
        assert.deepStrictEqual(yield* kept, [["c1", ["SO-CAR"]]])
        assert.deepStrictEqual(yield* watcher!.unkept("2026-11-16", ["c0", "c1", "c2"]), ["c0", "c2"])
        // the fleet's balances reconfigured for another account: read again; a listing kept again replaces it
        yield* PlanSettings.claim(
          { ...planSettings("300"), balances: [{ ...balance("300"), iban: THIRD }] },
          { reconfigure: true }
        )
        yield* watcher!.keepAhead("c1", "2026-11-16", orders)
        assert.deepStrictEqual(yield* kept, [["c1", ["ELSE"]]])
        // the next day's forecast drops the orders kept for earlier days
        yield* watcher!.ahead("2026-11-17", [])
        assert.deepStrictEqual(yield* kept, [])
      }).pipe(Effect.provide(Database.layer(url)))
    })
  )

  db.live("a consent given only in the settings is marked expired the same, and no later run lists it", (url) =>
    Effect.gen(function* () {
      const listed: Array<string> = []
      // no Consents.layerSource: the run's consents are the settings' own, none of them in tppkit_consents
      const sweep = sweeping(
        "CONSENT_REVOKED",
        listed,
        { ...settings, consents: [{ key: "c1" }, { key: "gone" }] },
        false
      )
      yield* Effect.gen(function* () {
        const first = yield* sweep("2026-11-16")
        assert.deepStrictEqual(listed, ["c1", "gone"])
        assert.deepStrictEqual(
          first.consents.map((c) => [c.consent, c.failure === undefined]),
          [
            ["c1", true],
            ["gone", false]
          ]
        )
        assert.deepStrictEqual(
          (yield* Warnings.events(0)).map((e) => [e.type, e.consent, e.data.code, e.data.via]),
          [["consent.expired", "gone", "CONSENT_REVOKED", "listing"]]
        )
        assert.deepStrictEqual(
          (yield* Warnings.consentStates).map((s) => [s.key, s.expired?.day ?? null, s.expired?.code ?? null]),
          [["gone", "2026-11-16", "CONSENT_REVOKED"]]
        )
        // the next day's run lists c1 alone: nothing is spent on the consent the bank refused
        const second = yield* sweep("2026-11-17")
        assert.deepStrictEqual(listed, ["c1", "gone", "c1"])
        assert.deepStrictEqual(
          second.consents.map((c) => c.consent),
          ["c1"]
        )
        assert.strictEqual((yield* Warnings.events(0)).filter((e) => e.type === "consent.expired").length, 1)
      }).pipe(Effect.provide(Database.layer(url)))
    })
  )

  db.liveSql(
    "a balance check answered CONSENT_EXPIRED marks its consent; a 401 without a consent code does not",
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      yield* Consents.add({ key: "c1" })
      yield* Consents.add({ key: "c2" })
      const listener = Warnings.listener(sql)
      const failed = (failure: BankError.BankError) => ({ outcome: "failed" as const, failure })
      const unauthorized = new BankError.BankError({
        operation: "balanceCheck",
        identity: { requestId: "r2" },
        request: "POST /piisp/api/v1/balanceCheck",
        reason: new BankError.Unauthorized({ body: ErrorBody.decode(401, undefined, "") })
      })
      const finished = (consent: string, failure: BankError.BankError): Lifecycle.Event => ({
        _tag: "CheckFinished",
        due: due({ consent }),
        outcome: failed(failure) as never,
        attempt: 1,
        millis: 10
      })
      yield* listener.emit(finished("c1", expired("CONSENT_EXPIRED")))
      yield* listener.emit(finished("c1", expired("CONSENT_EXPIRED")))
      yield* listener.emit(finished("c2", unauthorized))
      // a consent of the settings alone (no row): marked the same
      yield* listener.emit(finished("settings-only", expired("CONSENT_INVALID")))
      assert.deepStrictEqual(
        (yield* Warnings.consentStates).map((s) => [s.key, s.expired?.code ?? null]),
        [
          ["c1", "CONSENT_EXPIRED"],
          ["c2", null],
          ["settings-only", "CONSENT_INVALID"]
        ]
      )
      assert.deepStrictEqual(
        (yield* Warnings.events(0)).map((e) => [e.type, e.consent, e.data.via]),
        [
          ["consent.expired", "c1", "check"],
          ["consent.expired", "settings-only", "check"]
        ]
      )
    })
  )

  db.liveSql(
    "a database of the previous version gets the tables and the consents' columns; its rows stay",
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      // as the previous version left it: no events, no payments at risk, the consents without their end's columns
      yield* sql`DROP TABLE tppkit_fleet_events, tppkit_at_risk, tppkit_ahead_orders`
      yield* sql`ALTER TABLE tppkit_consents DROP COLUMN expired_at, DROP COLUMN expired_code, DROP COLUMN expired_day`
      yield* sql`INSERT INTO tppkit_consents (consent_key, valid_until, added_at) VALUES ('c1', '2026-12-01', 0)`
      yield* Database.migrate
      yield* Database.migrate
      assert.deepStrictEqual(yield* Warnings.consentStates, [
        { key: "c1", validUntil: "2026-12-01", expired: undefined }
      ])
      assert.deepStrictEqual(yield* Warnings.events(0), [])
      assert.deepStrictEqual(yield* Warnings.openRisks("2026-11-01"), [])
    })
  )
})
