import { assert, describe, it } from "@effect/vitest"
import { Backoff, ErrorBody, LocalDate } from "@tppkit/core"
import { BankError } from "@tppkit/http"
import { Checks, FundsCheckWorkflow, ListingReconciliation, Sweep } from "@tppkit/worker"
import { BigDecimal, Effect, Fiber, Layer, Ref } from "effect"
import {
  ClusterWorkflowEngine,
  MessageStorage,
  RunnerHealth,
  RunnerStorage,
  Runners,
  Sharding,
  ShardingConfig
} from "effect/cluster"
import { TestClock } from "effect/testing"
import { inMemory, listedOrder, sweepSettings } from "./support.ts"

const d = LocalDate.parseUnsafe

const order = (orderId: string, startDate: string, frequency: "MNTH" | "WEEK" | "DAIL" = "WEEK") =>
  listedOrder(orderId, startDate, { frequency })

const settings = sweepSettings()

describe("Sweep.plan", () => {
  it("plans the payments executing from the sweep day up to the N-th working day after it", () => {
    // Friday 2026-02-27: two working days later is Tuesday 2026-03-03
    const due = Sweep.plan(
      [
        order("W-FRI", "2026-02-20"),
        order("W-MON", "2026-02-23"),
        order("W-TUE", "2026-02-24"),
        order("W-WED", "2026-02-25")
      ],
      "c1",
      d("2026-02-27"),
      settings
    )
    assert.deepStrictEqual(
      due.map(Checks.text).map((p) => [p.orderId, p.executionDate, p.amount, p.sweepDay, p.checkAt]),
      [
        ["W-FRI", "2026-02-27", "100", "2026-02-27", 0],
        ["W-MON", "2026-03-02", "100", "2026-02-27", 0],
        ["W-TUE", "2026-03-03", "100", "2026-02-27", 0]
      ]
    )
  })

  it("a payment whose trigger day is after the sweep day is checked at that day's sweep hour", () => {
    // a sweep on Saturday covers Tuesday; Tuesday's trigger (two working days before) is Friday: already passed
    const saturday = Sweep.plan([order("W-TUE", "2026-02-24")], "c1", d("2026-02-28"), settings)
    assert.deepStrictEqual(
      saturday.map(Checks.text).map((p) => [p.executionDate, p.checkAt]),
      [["2026-03-03", 0]]
    )
    // with daysBefore 0 nothing waits either; the check instant helper is DST-correct
    assert.strictEqual(Sweep.instantOf(d("2026-03-28"), 8, "Europe/Bratislava"), Date.UTC(2026, 2, 28, 7))
    assert.strictEqual(Sweep.instantOf(d("2026-03-29"), 8, "Europe/Bratislava"), Date.UTC(2026, 2, 29, 6))
    assert.strictEqual(Sweep.instantOf(d("2026-10-25"), 8, "Europe/Bratislava"), Date.UTC(2026, 9, 25, 7))
  })

  it("uses the configured calendar: a TARGET holiday is not a working day", () => {
    // Thursday 2026-04-02; Good Friday 04-03 and Easter Monday 04-06 are TARGET holidays: horizon is 04-08
    const due = Sweep.plan([order("D", "2026-03-30", "DAIL")], "c1", d("2026-04-02"), settings)
    assert.deepStrictEqual(
      due.map((p) => LocalDate.format(p.executionDate)),
      ["2026-04-02", "2026-04-07", "2026-04-08"]
    )
  })
})

describe("Sweep.layer (the day's workflow)", () => {
  it.effect("a consent whose listing failed keeps its typed failure in the summary; the others are swept", () =>
    Effect.gen(function* () {
      const refused = new BankError.BankError({
        operation: "standingOrders",
        identity: { requestId: "r1" },
        request: "GET /aisp/api/v1/standingOrders",
        reason: new BankError.Forbidden({ body: ErrorBody.decode(403, undefined, '{"code":"CONSENT_MISSING"}') })
      })
      const source = Layer.succeed(Sweep.OrderSource)({
        list: (consent) =>
          consent.key === "refused"
            ? Effect.fail(new Sweep.ListingFailed({ consent: consent.key, failure: refused }))
            : Effect.succeed({ orders: [order("W", "2026-02-20")], pages: 1 })
      })
      const summary = yield* Sweep.sweepNow("2026-02-27").pipe(
        Effect.provide(inMemory(source, { ...settings, consents: [{ key: "refused" }, { key: "c1" }] }))
      )
      assert.deepStrictEqual(
        summary.consents.map((c) => [c.consent, c.planned, c.failure?._tag]),
        [
          ["refused", 0, "BankError"],
          ["c1", 1, undefined]
        ]
      )
      const failure = summary.consents[0]?.failure
      assert.strictEqual(failure?._tag === "BankError" ? failure.reason._tag : undefined, "Forbidden")
      assert.strictEqual(failure?.message, refused.message)
    })
  )
})

describe("Sweep: an orderId a listing repeats (issue 34)", () => {
  it("keyed names the N-th record ID#N, only where an orderId repeats; records read by core keep their positions", () => {
    const a = order("RENT", "2026-02-20")
    const b = {
      ...order("RENT", "2026-02-21"),
      instructedAmount: { value: BigDecimal.fromStringUnsafe("5"), currency: "EUR" }
    }
    const once = [order("GYM", "2026-02-20")]
    assert.strictEqual(Sweep.keyed(once).orders, once)
    const k = Sweep.keyed([a, order("GYM", "2026-02-20"), b])
    assert.deepStrictEqual(
      k.orders.map((o) => o.orderId),
      ["RENT#1", "GYM", "RENT#2"]
    )
    assert.deepStrictEqual(k.repeated, [{ orderId: "RENT", positions: [1, 3] }])
    // a UK order's own first payment shares its record's position: one record, not a repeat
    const positioned = [
      { ...a, position: 4 },
      { ...a, position: 4 },
      { ...b, position: 9 }
    ]
    assert.deepStrictEqual(
      Sweep.keyed(positioned).orders.map((o) => o.orderId),
      ["RENT#1", "RENT#1", "RENT#2"]
    )
  })

  it.effect("two records with one orderId are two checks, RENT#1 and RENT#2, and the listing's record names them", () =>
    Effect.gen(function* () {
      const recorded: Array<ListingReconciliation.Summary> = []
      const rent2 = {
        ...order("RENT", "2026-02-20"),
        instructedAmount: { value: BigDecimal.fromStringUnsafe("7.5"), currency: "EUR" }
      }
      const source = Layer.succeed(Sweep.OrderSource)({
        list: () =>
          Effect.succeed({ orders: [order("RENT", "2026-02-20"), order("GYM", "2026-02-20"), rent2], pages: 1 })
      })
      const layer = inMemory(source, settings).pipe(
        Layer.provide(Layer.succeed(ListingReconciliation.Recorder)((s) => Effect.sync(() => void recorded.push(s))))
      )
      const { summary, rows } = yield* Effect.gen(function* () {
        const summary = yield* Sweep.sweepNow("2026-02-27")
        const rows = yield* Effect.flatMap(Checks.Checks, (c) => c.list())
        return { summary, rows }
      }).pipe(Effect.provide(layer))
      assert.deepStrictEqual(
        summary.consents.map((c) => [c.consent, c.planned]),
        [["c1", 3]]
      )
      assert.deepStrictEqual(
        rows
          .map(Checks.text)
          .map((r) => [r.orderId, r.nominalDate, r.amount])
          .sort(),
        [
          ["GYM", "2026-02-27", "100"],
          ["RENT#1", "2026-02-27", "100"],
          ["RENT#2", "2026-02-27", "7.5"]
        ]
      )
      assert.deepStrictEqual(
        recorded.map((s) => s.repeated),
        [[{ orderId: "RENT", records: 2 }]]
      )
    })
  )
})

/** A listing of `consent` that failed for `reason` (the bank's request id in `identity`), as the order source reports it. */
const listingFailed = (consent: string, reason: BankError.BankError["reason"], identity = {}) =>
  new Sweep.ListingFailed({
    consent,
    failure: new BankError.BankError({
      operation: "standingOrders",
      identity,
      request: "POST /aisp/api/v1/standingOrders",
      reason
    })
  })

/** A listing refused by the bank with a 502 (a transient fault), as the order source reports it. */
const unavailable = (consent: string) =>
  listingFailed(
    consent,
    new BankError.ServerError({ status: 502, body: ErrorBody.decode(502, undefined, "bad gateway") }),
    { requestId: "r-502" }
  )

/** The day's workflows in memory over an order source whose next `down` listings of c1 fail with a 502. */
const day = (down: Ref.Ref<number>, listed: Ref.Ref<Array<string>>, over: Partial<Sweep.Settings>) =>
  inMemory(
    Layer.succeed(Sweep.OrderSource)({
      list: (consent) =>
        Effect.gen(function* () {
          yield* Ref.update(listed, (l) => [...l, consent.key])
          if (consent.key === "c1" && (yield* Ref.getAndUpdate(down, (n) => n - 1)) > 0) {
            return yield* unavailable(consent.key)
          }
          return { orders: [order("W", "2026-02-20")], pages: 1 }
        })
    }),
    { ...settings, ...over }
  )

describe("Sweep.sweepNow (a failed sweep runs again; a complete one never)", () => {
  it.effect("a day whose listing failed on a fault runs again, lists only the consents it lacks, then stays done", () =>
    Effect.gen(function* () {
      // the bank answers 502 to c1's first listing
      const down = yield* Ref.make(1)
      const listed = yield* Ref.make<Array<string>>([])
      const retry: Sweep.Retry = { backoff: Backoff.exponential({ initial: "1 millis", cap: "1 millis" }), tries: 1 }
      yield* Effect.gen(function* () {
        // the first run fails for c1 and completes c2
        const first = yield* Sweep.sweepNow("2026-02-27")
        assert.deepStrictEqual(
          first.consents.map((c) => [c.consent, c.planned, c.failure?._tag]),
          [
            ["c1", 0, "BankError"],
            ["c2", 1, undefined]
          ]
        )
        assert.isFalse(first.rerun)
        assert.isFalse(Sweep.isComplete(first))
        // the bank is back: run again, c1 only (c2 is carried, not listed again)
        const second = yield* Sweep.sweepNow("2026-02-27")
        assert.isTrue(second.rerun)
        assert.strictEqual(second.run, 1)
        assert.deepStrictEqual(
          second.consents.map((c) => [c.consent, c.planned, c.failure?._tag]),
          [
            ["c1", 1, undefined],
            ["c2", 1, undefined]
          ]
        )
        // a sweep that completed is never repeated
        const third = yield* Sweep.sweepNow("2026-02-27")
        assert.deepStrictEqual(third, { ...second, rerun: false })
        assert.deepStrictEqual(yield* Ref.get(listed), ["c1", "c2", "c1"])
      }).pipe(Effect.provide(day(down, listed, { consents: [{ key: "c1" }, { key: "c2" }], retry })))
    })
  )

  it.live("a transient failure is tried again with back-off and the sweep completes once the bank is back", () =>
    Effect.gen(function* () {
      // the bank is down for three tries, then back
      const down = yield* Ref.make(3)
      const listed = yield* Ref.make<Array<string>>([])
      const retry: Sweep.Retry = { backoff: Backoff.exponential({ initial: "10 millis", cap: "40 millis" }), tries: 5 }
      const summary = yield* Sweep.sweepNow("2026-02-27").pipe(Effect.provide(day(down, listed, { retry })))
      assert.deepStrictEqual(summary.consents, [{ consent: "c1", planned: 1, pages: 1, tries: 4 }])
      assert.deepStrictEqual(yield* Ref.get(listed), ["c1", "c1", "c1", "c1"])
      assert.isFalse(summary.rerun)
      assert.strictEqual(Sweep.backoffMillis(retry, 1, unavailable("c1").failure), 10)
      assert.strictEqual(Sweep.backoffMillis(retry, 3, unavailable("c1").failure), 40)
      assert.strictEqual(Sweep.backoffMillis(retry, 9, unavailable("c1").failure), 40)
    })
  )

  it.live(
    "the fleet's database out of reach for a moment (budget store, check store) is waited out like a bank fault",
    () =>
      Effect.gen(function* () {
        const listed = yield* Ref.make(0)
        const plans = yield* Ref.make(0)
        const storeDown = listingFailed(
          "c1",
          new BankError.BudgetStoreError({ store: "PostgreSQL", operation: "tryConsume", detail: "refused" })
        )
        assert.isTrue(Sweep.isTransient(storeDown.failure))
        assert.isTrue(Sweep.isTransient(new Checks.ChecksError({ message: "connection refused" })))
        // the first listing finds the budget store down; the next one lists, and the check store is down for one plan
        const checks = Layer.effect(
          Checks.Checks,
          Effect.gen(function* () {
            const inner = yield* Checks.Checks
            return Checks.Checks.of({
              ...inner,
              plan: (due) =>
                Effect.flatMap(
                  Ref.getAndUpdate(plans, (n) => n + 1),
                  (n) =>
                    n === 0 ? Effect.fail(new Checks.ChecksError({ message: "connection refused" })) : inner.plan(due)
                )
            })
          })
        ).pipe(Layer.provide(Checks.Checks.layerMemory))
        const source = Layer.succeed(Sweep.OrderSource)({
          list: () =>
            Effect.flatMap(
              Ref.getAndUpdate(listed, (n) => n + 1),
              (n) =>
                n === 0 ? Effect.fail(storeDown) : Effect.succeed({ orders: [order("W", "2026-02-20")], pages: 1 })
            )
        })
        const retry = { backoff: Backoff.exponential({ initial: "1 millis", cap: "5 millis" }), tries: 5 }
        const summary = yield* Sweep.sweepNow("2026-02-27").pipe(
          Effect.provide(inMemory(source, { ...settings, retry }, checks))
        )
        assert.deepStrictEqual(summary.consents, [{ consent: "c1", planned: 1, pages: 1, tries: 3 }])
        assert.strictEqual(yield* Ref.get(listed), 3)
      })
  )

  it.effect("a refusal is not tried again: the day fails for that consent with its typed reason", () =>
    Effect.gen(function* () {
      const listed = yield* Ref.make<Array<string>>([])
      const refusal = listingFailed(
        "c1",
        new BankError.Forbidden({ body: ErrorBody.decode(403, undefined, '{"code":"CONSENT_MISSING"}') })
      )
      const source = Layer.succeed(Sweep.OrderSource)({
        list: () =>
          Effect.andThen(
            Ref.update(listed, (l) => [...l, "c1"]),
            Effect.fail(refusal)
          )
      })
      const retry = { backoff: Backoff.exponential({ initial: "1 millis", cap: "1 millis" }), tries: 5 }
      const summary = yield* Sweep.sweepNow("2026-02-27").pipe(Effect.provide(inMemory(source, { ...settings, retry })))
      assert.deepStrictEqual(yield* Ref.get(listed), ["c1"])
      const failure = summary.consents[0]?.failure
      assert.strictEqual(failure?._tag === "BankError" ? failure.reason._tag : undefined, "Forbidden")
    })
  )
})

/** An in-memory cluster with a fast message poll, on the TestClock. */
const cluster = Sharding.layer.pipe(
  Layer.provideMerge(Runners.layerNoop),
  Layer.provideMerge(MessageStorage.layerMemory),
  Layer.provide([RunnerStorage.layerMemory, RunnerHealth.layerNoop]),
  Layer.provide(ShardingConfig.layer({ entityMessagePollInterval: "1 minute" }))
)

/** A bank stand-in: the listing records when it was asked (TestClock time) and returns one daily order. */
const stubs = (listings: Ref.Ref<Array<string>>) => ({
  source: Layer.succeed(Sweep.OrderSource)({
    list: () =>
      Effect.flatMap(
        Effect.clockWith((c) => c.currentTimeMillis),
        (ms) => Ref.update(listings, (l) => [...l, new Date(Number(ms)).toISOString()])
      ).pipe(Effect.as({ orders: [order("W", "2026-03-23", "DAIL")], pages: 1 }))
  }),
  checker: Layer.succeed(FundsCheckWorkflow.BalanceChecker)({
    check: () => Effect.succeed({ answer: "APPR" as const, requestId: "r" })
  })
})

describe("Sweep.cronLayer (ClusterCron on an in-memory cluster, TestClock)", () => {
  it.effect("sweeps daily at 08:00 Europe/Bratislava across the DST change, each day once", () =>
    Effect.gen(function* () {
      const listings = yield* Ref.make<Array<string>>([])
      const { source, checker } = stubs(listings)
      yield* TestClock.setTime(Date.UTC(2026, 2, 27, 12))
      // the cluster starts, polls and sleeps on the TestClock: drive it in one-minute steps while the test waits
      // until both days' sweeps have checked their payments (2026-03-29T07:00Z is past 08:00 CEST)
      const run = Effect.gen(function* () {
        const checks = yield* Checks.Checks
        for (;;) {
          const rows = yield* checks.list()
          const listed = yield* Ref.get(listings)
          if (listed.length >= 2 && rows.every((r) => r.outcome !== undefined)) return rows
          yield* Effect.sleep("1 minute")
        }
      }).pipe(
        Effect.provide(
          Sweep.cronLayer(settings).pipe(
            Layer.provideMerge(Layer.mergeAll(FundsCheckWorkflow.layer, Sweep.layer)),
            Layer.provideMerge(ClusterWorkflowEngine.layer),
            Layer.provideMerge(cluster),
            Layer.provideMerge(Layer.mergeAll(Checks.Checks.layerMemory, source, checker)),
            Layer.provideMerge(Layer.succeed(Sweep.SweepSettings)(settings))
          )
        )
      )
      const fiber = yield* Effect.forkChild(run)
      let rows: ReadonlyArray<Checks.Row> | undefined
      for (let minute = 0; minute < 3 * 24 * 60 && rows === undefined; minute++) {
        yield* TestClock.adjust("1 minute")
        const done = fiber.pollUnsafe()
        if (done !== undefined) rows = yield* done
      }
      // Saturday's sweep covers Monday and Tuesday; Sunday's adds nothing new (each payment is planned once)
      assert.deepStrictEqual(
        (rows ?? []).map((r) => [
          LocalDate.format(r.executionDate),
          LocalDate.format(r.sweepDay),
          r.outcome,
          r.attempts
        ]),
        [
          ["2026-03-30", "2026-03-28", "APPR", 1],
          ["2026-03-31", "2026-03-28", "APPR", 1]
        ]
      )
      const at = yield* Ref.get(listings)
      // 08:00 local both days (the message poll adds up to a minute or so of delivery)
      assert.deepStrictEqual(
        at.map((s) => s.slice(0, 13)),
        ["2026-03-28T07", "2026-03-29T06"]
      )
    })
  )

  it.effect("a sweep missed while the fleet was down runs when it comes back (persisted cron message)", () =>
    Effect.gen(function* () {
      const listings = yield* Ref.make<Array<string>>([])
      const { source, checker } = stubs(listings)
      // one message store outlives both runs of the "fleet", as PostgreSQL does
      const storage = yield* Layer.build(
        MessageStorage.layerMemory.pipe(Layer.provide(ShardingConfig.layer({ entityMessagePollInterval: "1 minute" })))
      )
      const fleet = Sweep.cronLayer(settings).pipe(
        Layer.provideMerge(Layer.mergeAll(FundsCheckWorkflow.layer, Sweep.layer)),
        Layer.provideMerge(ClusterWorkflowEngine.layer),
        Layer.provideMerge(
          Sharding.layer.pipe(
            Layer.provideMerge(Runners.layerNoop),
            Layer.provide([RunnerStorage.layerMemory, RunnerHealth.layerNoop]),
            Layer.provide(ShardingConfig.layer({ entityMessagePollInterval: "1 minute" }))
          )
        ),
        Layer.provideMerge(Layer.succeedContext(storage)),
        Layer.provideMerge(Layer.mergeAll(Checks.Checks.layerMemory, source, checker)),
        Layer.provideMerge(Layer.succeed(Sweep.SweepSettings)(settings))
      )
      const drive = (minutes: number, until: Effect.Effect<boolean>) =>
        Effect.gen(function* () {
          const fiber = yield* Effect.forkChild(
            Effect.gen(function* () {
              for (;;) {
                if (yield* until) return
                yield* Effect.sleep("1 minute")
              }
            }).pipe(Effect.provide(fleet))
          )
          for (let m = 0; m < minutes && fiber.pollUnsafe() === undefined; m++) yield* TestClock.adjust("1 minute")
          const finished = fiber.pollUnsafe() !== undefined
          // the fleet stops (its layer is released: nothing runs until the next drive)
          yield* Fiber.interrupt(fiber)
          return finished
        })
      yield* TestClock.setTime(Date.UTC(2026, 2, 27, 12))
      // the fleet runs until 05:00Z on the 28th, before the 08:00 sweep (07:00Z), and stops
      yield* drive(17 * 60, Effect.succeed(false))
      assert.deepStrictEqual(yield* Ref.get(listings), [])
      // down until 10:00Z; back up, it runs the missed sweep of the 28th at once
      yield* TestClock.adjust("5 hours")
      const caughtUp = yield* drive(
        120,
        Effect.map(Ref.get(listings), (l) => l.length > 0)
      )
      assert.isTrue(caughtUp)
      const at = yield* Ref.get(listings)
      assert.strictEqual(at[0]?.slice(0, 13), "2026-03-28T10")
    })
  )
})
