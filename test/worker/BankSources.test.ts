/**
 * The sweep's listing over the real bank client and the mock bank on loopback: a listing that failed part-way is
 * resumed, never fetched again, and the budget counts exactly what the bank's journal saw.
 */
import { assert, describe, it } from "@effect/vitest"
import { Backoff, LocalDate, Profile, type Standard, StandingOrder } from "@tppkit/core"
import { BankClient, BankTransport, Budget, BudgetStore } from "@tppkit/http"
import { Fixtures, type Journal, type Sandbox } from "@tppkit/sandbox"
import { BankSources, Checks, Consents, FundsCheckWorkflow, Lifecycle, Listings, Sweep, SweepLog } from "@tppkit/worker"
import * as Database from "@tppkit/worker/Database"
import {
  Cause,
  Context,
  DateTime,
  type Duration,
  Effect,
  Exit,
  Fiber,
  Layer,
  Option,
  Redacted,
  Result,
  Schema,
  type Scope,
  Stream
} from "effect"
import { SqlClient } from "effect/sql"
import { TestClock } from "effect/testing"
import { WorkflowEngine } from "effect/workflow"
import { bankClient, bankConfig, cobsClient, tenOrders } from "../http/cobsClient.ts"
import { bankAt, bankOf, customerTokens, faulting } from "../sandbox/support.ts"
import { embeddedDb } from "./pg.ts"
import { due as dueOf, sweepSettings } from "./support.ts"

const psu = { ipAddress: "127.0.0.1", deviceOs: "test", userAgent: "tppkit-test" }
const day = "2026-11-02"
const settings: Sweep.Settings = {
  ...sweepSettings([]),
  retry: { backoff: Backoff.exponential({ initial: "10 millis", cap: "10 millis" }), tries: 3 }
}

/** The page of a seed-bank listing request (its body's `page`), -1 for any other request. */
const sbasPage = (request: { readonly url: string; readonly body: string }): number =>
  request.url.endsWith("/standingOrder") ? ((JSON.parse(request.body) as { page?: number }).page ?? 0) : -1

/**
 * Undici, with the mock bank's fault `kind` (502 unless said) asked for on the first request of each listed page
 * number (`always`: on every request of those pages; `pageOf` reads a request's page).
 */
const faultOn = (pages: ReadonlyArray<number>, always = false, kind = "502", pageOf = sbasPage) =>
  Layer.effect(
    BankTransport.BankTransport,
    Effect.gen(function* () {
      const inner = yield* BankTransport.BankTransport
      const faulted = new Set<number>()
      return BankTransport.BankTransport.of({
        send: (request, timeout, maxBodyBytes) => {
          const page = pageOf(request)
          if (!pages.includes(page) || faulted.has(page)) return inner.send(request, timeout, maxBodyBytes)
          if (!always) faulted.add(page)
          return inner.send(
            { ...request, headers: { ...request.headers, "x-sandbox-fault": kind } },
            timeout,
            maxBodyBytes
          )
        }
      })
    })
  ).pipe(Layer.provide(BankTransport.BankTransport.layerUndici()))

/**
 * A transport over the one provided that hands the records of page 0 of each SBAS listing answered 200 to `edit`
 * before the client reads them (as if the bank had sent them so); `edit` returning `false` leaves the page as sent.
 */
const editedPage0 = (edit: (records: Array<Record<string, unknown>>) => false | undefined) =>
  Layer.effect(
    BankTransport.BankTransport,
    Effect.map(Effect.service(BankTransport.BankTransport), (inner) =>
      BankTransport.BankTransport.of({
        send: (request, timeout, maxBodyBytes) =>
          Effect.map(inner.send(request, timeout, maxBodyBytes), (exchange) => {
            if (sbasPage(request) !== 0 || exchange.status !== 200) return exchange
            const body = JSON.parse(exchange.text) as { standingOrders: Array<Record<string, unknown>> }
            if (edit(body.standingOrders) === false) return exchange
            return { status: exchange.status, headers: exchange.headers, text: JSON.stringify(body) }
          })
      })
    )
  )

/** The page of a COBS listing request (its query's `page`), -1 for any other request. */
const cobsPage = (url: string): number => {
  const u = new URL(url)
  return u.pathname.endsWith("/my/standingorders") ? Number(u.searchParams.get("page") ?? "0") : -1
}

/** The seed bank's listing requests the journal saw without the customer present (those the budget counts). */
const unattended = (journal: Journal.Journal["Service"]) =>
  Effect.map(journal.entries, (entries) =>
    entries.filter((e) => e.path.endsWith("/standingOrder") && e.headers["psu-last-logged-time"] === undefined)
  )

/** The page numbers of journal entries of the seed bank's listing. */
const pagesOf = (entries: ReadonlyArray<{ readonly body: string }>) =>
  entries.map((e) => (JSON.parse(e.body) as { page?: number }).page ?? 0)

/**
 * Runs `effect` while the test clock is moved on by `step` after every `pauseMillis` of real time (the loopback bank
 * answering meanwhile), until it ends: its result.
 */
const pumped = <A, E, R>(effect: Effect.Effect<A, E, R>, pauseMillis: number, step: Duration.Input) =>
  Effect.gen(function* () {
    const fiber = yield* Effect.forkChild(effect)
    while (fiber.pollUnsafe() === undefined) {
      yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, pauseMillis)))
      yield* TestClock.adjust(step)
    }
    return yield* Fiber.join(fiber)
  })

/** The key that seals the Czech consents' refresh tokens. */
const sealingKey = Layer.succeed(Consents.RefreshTokenKey)(Option.some(Redacted.make("k".repeat(44))))

/** The workflow engine, the check store and the kept listings, in memory. */
const memoryStores = Layer.mergeAll(
  WorkflowEngine.layerMemory,
  Checks.Checks.layerMemory,
  Listings.Listings.layerMemory
)

/**
 * The sweep (and the funds-check workflow) over the bank client `client`, both kept in the output: the listing
 * through `BankSources.orderSource` (or `source`), every balance check answered APPR, the settings' `consents` (and
 * `retry` in place of theirs), the stores `stores` (default {@link memoryStores}; a built context to share them
 * between sweeps), what the source needs besides (`needs`: a Czech consent's database and key) and the lifecycle's
 * `listeners`.
 */
const sweepOver = <A, E, R>(
  client: Layer.Layer<A, E, R>,
  options: {
    readonly consents: ReadonlyArray<Sweep.Consent>
    readonly retry?: Sweep.Settings["retry"]
    readonly stores?: Layer.Layer<WorkflowEngine.WorkflowEngine | Checks.Checks | Listings.Listings>
    readonly source?: Layer.Layer<Sweep.OrderSource>
    readonly needs?: Layer.Layer<SqlClient.SqlClient>
    readonly listeners?: ReadonlyArray<Lifecycle.Listener>
  }
) =>
  Layer.mergeAll(FundsCheckWorkflow.layer, Sweep.layer).pipe(
    Layer.provide(options.source ?? BankSources.orderSource(psu, { pageSize: 50 })),
    Layer.provide(
      Layer.succeed(FundsCheckWorkflow.BalanceChecker)({ check: () => Effect.succeed({ answer: "APPR" as const }) })
    ),
    Layer.provide(
      Layer.succeed(Sweep.SweepSettings)({
        ...settings,
        consents: options.consents,
        ...(options.retry === undefined ? {} : { retry: options.retry })
      })
    ),
    Layer.provideMerge(options.stores ?? memoryStores),
    Layer.provideMerge(client),
    Layer.provide(options.needs ?? Layer.empty),
    Layer.provide(options.listeners === undefined ? Layer.empty : Lifecycle.layer(options.listeners))
  )

/**
 * The mock bank on its fixtures' listing day (built in the test's scope): its address and credentials, its journal,
 * and the pages its listing requests asked for, in order.
 */
const seedBank = Effect.gen(function* () {
  const { info, journal } = yield* bankOf({ listingDay: Fixtures.baseDate })
  const pages = Effect.map(journal.entries, (entries) =>
    entries
      .filter((e) => e.path.endsWith("/standingOrder"))
      .map((e) => (JSON.parse(e.body) as { page?: number }).page ?? 0)
  )
  return { info, journal, pages }
})

/**
 * A test of `name` on the mock bank of `seedBank`, the test clock at 07:00 UTC on the sweep day (2026-11-02): `body`
 * gets the bank.
 */
const onTheSweepDay = <A, E>(
  name: string,
  body: (bank: Effect.Success<typeof seedBank>) => Effect.Effect<A, E, Scope.Scope>
) =>
  it.effect(
    name,
    () => Effect.andThen(TestClock.setTime(Date.UTC(2026, 10, 2, 7)), seedBank).pipe(Effect.flatMap(body)),
    60_000
  )

/** The order source over `client` (pages of 50, the listings kept in memory), with the client's services. */
const memorySource = <A, E, R>(client: Layer.Layer<A, E, R>) =>
  BankSources.orderSource(psu, { pageSize: 50 }).pipe(
    Layer.provideMerge(Listings.Listings.layerMemory),
    Layer.provideMerge(client)
  )

describe("BankSources.orderSource (the sweep's listing resumes)", () => {
  it.live(
    "a 502 on page 2 of 3: the retry asks for pages 2 and 3 only; budget used equals the listings the bank saw",
    () =>
      Effect.gen(function* () {
        const { info, journal } = yield* seedBank
        const client = bankClient(info, faultOn([1]))
        const { summary, used, expected } = yield* Effect.gen(function* () {
          const summary = yield* Sweep.sweepNow(day)
          const budget = yield* Budget.Budget
          const used = (yield* budget.usages).map((u) => u.used)
          // what the bank lists, asked with the customer present (no budget, no journal entries counted below)
          const present = { ...psu, lastLoggedTime: yield* DateTime.now }
          const orders = yield* Effect.flatMap(Effect.service(BankClient.BankClient), (c) =>
            Stream.runCollect(c.standingOrders({ psu: present }))
          )
          const expected = Sweep.plan(
            orders.flatMap((p) => p.body.orders),
            info.clientId,
            LocalDate.parseUnsafe(day),
            settings
          )
          return { summary, used, expected }
        }).pipe(Effect.provide(sweepOver(client, { consents: [{ key: info.clientId }] })))
        const listings = yield* unattended(journal)
        // pages 0, 1 (502), then only 1 and 2 again: page 0 is never fetched twice
        assert.deepStrictEqual(pagesOf(listings), [0, 1, 1, 2])
        assert.deepStrictEqual(used, [listings.length])
        assert.deepStrictEqual(summary.consents, [
          { consent: info.clientId, planned: expected.length, pages: 3, tries: 2 }
        ])
        assert.isAbove(expected.length, 10)
      }).pipe(Effect.scoped),
    60_000
  )

  onTheSweepDay(
    "the checks' database away for longer than the reuse age of a listing: the sweep's next try lists nothing again",
    ({ info, journal }) =>
      Effect.gen(function* () {
        const client = bankClient(info, BankTransport.BankTransport.layerUndici())
        // the check store refuses the first plan (its database restarting), then works
        let refused = 0
        const flaky = Layer.effect(
          Checks.Checks,
          Effect.map(Effect.service(Checks.Checks), (inner) =>
            Checks.Checks.of({
              ...inner,
              plan: (due) =>
                refused++ === 0 ? Effect.fail(new Checks.ChecksError({ message: "database away" })) : inner.plan(due)
            })
          )
        ).pipe(Layer.provide(Checks.Checks.layerMemory))
        const { summary, used } = yield* Effect.gen(function* () {
          // the retry waits 5 minutes, past the 60 s for which any caller reuses a complete listing
          const summary = yield* pumped(Sweep.sweepNow(day), 20, "10 seconds")
          const used = (yield* (yield* Budget.Budget).usages).map((u) => u.used)
          return { summary, used }
        }).pipe(
          Effect.provide(
            sweepOver(client, {
              consents: [{ key: info.clientId }],
              retry: { backoff: Backoff.exponential({ initial: "5 minutes", cap: "5 minutes" }), tries: 3 },
              stores: Layer.mergeAll(WorkflowEngine.layerMemory, flaky, Listings.Listings.layerMemory)
            })
          )
        )
        const listings = yield* unattended(journal)
        assert.strictEqual(refused, 2)
        assert.strictEqual(summary.consents[0]?.tries, 2)
        assert.isAbove(summary.consents[0]?.planned ?? 0, 10)
        assert.strictEqual(summary.consents[0]?.failure, undefined)
        assert.strictEqual(summary.consents[0]?.pages, listings.length)
        // the listing's pages were asked for once, by the first try; the budget counts them once
        const pages = pagesOf(listings)
        assert.deepStrictEqual(pages, [...new Set(pages)])
        assert.deepStrictEqual(used, [listings.length])
      })
  )

  for (const [kind, what, tries] of [
    ["reset", "the connection dropped", 2],
    ["503", "a 503 with Retry-After", 2],
    ["expired-token", "401 for a token the bank forgot (restarted)", undefined]
  ] as const) {
    it.effect(
      `${what} on page 2 of 3: the pages read are kept, page 2 asked again, the budget equals the bank's count`,
      () =>
        Effect.gen(function* () {
          // the bank's clock is the test's: the listing with the customer present below is theirs, not unattended
          const { info, journal } = yield* bankAt(Date.UTC(2026, 10, 2, 7), { listingDay: Fixtures.baseDate })
          const stores = yield* Layer.build(memoryStores)
          const summary = yield* sweepWith(day, info, faultOn([1], false, kind), stores)
          const rows = yield* Checks.Checks.use((c) => c.list({ sweepDay: day })).pipe(Effect.provide(stores))
          const expected = Sweep.plan(yield* present(info), info.clientId, LocalDate.parseUnsafe(day), settings)
          assert.deepStrictEqual(pagesOf(yield* unattended(journal)), [0, 1, 1, 2])
          assert.strictEqual(summary.consents[0]?.failure, undefined)
          assert.strictEqual(summary.consents[0]?.tries, tries)
          assert.deepStrictEqual(rows.map(Checks.key).sort(), expected.map(Checks.key).sort())
        }).pipe(Effect.scoped),
      60_000
    )
  }

  /** The sweep of `day` over the mock bank with `transport`, on the stores of `stores` (shared between sweeps). */
  const sweepWith = (
    day: string,
    info: Sandbox.SandboxInfo["Service"],
    transport: Layer.Layer<BankTransport.BankTransport>,
    stores: Context.Context<WorkflowEngine.WorkflowEngine | Checks.Checks | Listings.Listings>
  ) =>
    // the sweep's back-off is a durable sleep on the test clock
    pumped(Sweep.sweepNow(day), 5, "20 millis").pipe(
      Effect.provide(
        sweepOver(bankClient(info, transport), {
          consents: [{ key: info.clientId }],
          stores: Layer.succeedContext(stores)
        })
      )
    )

  /** Every order the bank lists, asked with the customer present (no budget spent). */
  const present = (info: Sandbox.SandboxInfo["Service"]) =>
    Effect.gen(function* () {
      const client = yield* BankClient.BankClient
      const orders = yield* Stream.runCollect(
        client.standingOrders({ psu: { ...psu, lastLoggedTime: yield* DateTime.now } })
      )
      return orders.flatMap((p) => p.body.orders)
    }).pipe(Effect.provide(bankClient(info, BankTransport.BankTransport.layerUndici())))

  it.effect(
    "a listing cut off at page 2 of 3 with a complete listing kept from the day before: 0 payments unplanned, the page's checks say which listing",
    () =>
      Effect.gen(function* () {
        const {
          info,
          journal,
          clock: bankClock
        } = yield* bankAt(Date.UTC(2026, 10, 1, 7), { listingDay: Fixtures.baseDate })
        const stores = yield* Layer.build(memoryStores)
        const { first, second, rows, all } = yield* Effect.gen(function* () {
          const first = yield* sweepWith("2026-11-01", info, BankTransport.BankTransport.layerUndici(), stores)
          // the next day, on both clocks: page 2 answers 502 every time it is asked for
          yield* TestClock.adjust("1 day")
          bankClock.adjustUnsafe(86_400_000)
          const second = yield* sweepWith("2026-11-02", info, faultOn([2], true), stores)
          const rows = yield* Checks.Checks.use((c) => c.list({ sweepDay: "2026-11-02" }))
          const all = yield* Checks.Checks.use((c) => c.list())
          return { first, second, rows, all }
        }).pipe(Effect.provide(stores))
        const expected = Sweep.plan(yield* present(info), info.clientId, LocalDate.parseUnsafe("2026-11-02"), settings)
        // day 1: pages 0-2; day 2: pages 0, 1, then page 2 twice (502) and no fifth request
        assert.deepStrictEqual(pagesOf(yield* unattended(journal)), [0, 1, 2, 0, 1, 2, 2])
        assert.strictEqual(first.consents[0]?.failure, undefined)
        const consent = second.consents[0]
        assert.strictEqual(consent?.failure, undefined)
        assert.strictEqual(consent?.plannedFrom, "2026-11-01")
        assert.deepStrictEqual(consent?.pagesUnread, [2])
        assert.strictEqual(consent?.pagesKept, 2)
        assert.isTrue(Sweep.isComplete(second))
        // every payment due is planned (by this sweep, or by the day before's when it was due then too), none
        // invented; those of page 2 that this sweep planned came from the day before's listing
        const key = (d: Checks.Due) => Checks.key(d)
        const planned = new Set(all.map(key))
        assert.deepStrictEqual(
          expected.map(key).filter((k) => !planned.has(k)),
          []
        )
        assert.deepStrictEqual(
          rows.map(key).filter((k) => !expected.map(key).includes(k)),
          []
        )
        const fromEarlier = rows.filter((r) => r.listedOn === LocalDate.parseUnsafe("2026-11-01"))
        assert.isAbove(fromEarlier.length, 0)
        assert.isAtMost(fromEarlier.length, consent?.plannedFromEarlier ?? 0)
        assert.isBelow(fromEarlier.length, rows.length)
      }).pipe(Effect.scoped),
    60_000
  )

  it.live(
    "a listing interrupted while a page is on its way keeps that page: taken up, it asks only for the pages after it",
    () =>
      Effect.gen(function* () {
        const { info, pages } = yield* seedBank
        const client = bankClient(
          info,
          // page 1 is answered after a second: the listing is interrupted meanwhile (its shard moved, its worker stops)
          faultOn([1], false, "delay=1000")
        )
        const consent = { key: info.clientId }
        const id = Listings.listingId(info.clientId, undefined, 50)
        const { kept, used } = yield* Effect.gen(function* () {
          const source = yield* Sweep.OrderSource
          const listing = yield* Effect.forkChild(source.list(consent, day))
          while (!(yield* pages).includes(1)) yield* Effect.sleep("10 millis")
          yield* Fiber.interrupt(listing)
          const kept = (yield* Listings.Listings.use((l) => l.pages(id, day))).map((p) => p.page)
          const listed = yield* source.list(consent, day)
          assert.strictEqual(listed.pages, 3)
          return { kept, used: (yield* (yield* Budget.Budget).usages).map((u) => u.used) }
        }).pipe(Effect.provide(memorySource(client)))
        assert.deepStrictEqual(kept, [0, 1])
        // every page asked for once, and counted once
        assert.deepStrictEqual(yield* pages, [0, 1, 2])
        assert.deepStrictEqual(used, [3])
      }).pipe(Effect.scoped)
  )

  /**
   * A consent's listing under way while the same listing starts again, as when a consent's run was left to its shard's
   * next owner (its runner lost the shard) and is replayed while the listing it started still reads page 1 (answered
   * after a second); `late`: the replay comes after the listing's lease has expired (its worker paused, or a page's
   * call longer than the lease). The pages the bank saw, the budget used, and how the replay ended.
   */
  const replayedDuring = (late: boolean) =>
    Effect.gen(function* () {
      const { info, pages } = yield* seedBank
      // the replay's clock, 20 s on when `late`: the lease (15 s) of the listing under way has expired for it
      let shifted = 0
      const store = Layer.effect(
        BudgetStore.BudgetStore,
        Effect.map(Effect.service(BudgetStore.BudgetStore), (inner) =>
          BudgetStore.BudgetStore.of({
            ...inner,
            tryAcquireLease: (key, holder, now, expiresAt) =>
              inner.tryAcquireLease(key, holder, now + shifted, expiresAt + shifted)
          })
        )
      ).pipe(Layer.provide(BudgetStore.BudgetStore.layerMemory))
      const client = BankClient.BankClient.layerOver(bankConfig(info), faultOn([1], false, "delay=1000"), store)
      const consent = { key: info.clientId }
      return yield* Effect.gen(function* () {
        const source = yield* Sweep.OrderSource
        const first = yield* Effect.forkChild(Effect.exit(source.list(consent, day)))
        while (!(yield* pages).includes(1)) yield* Effect.sleep("10 millis")
        if (late) shifted = 20_000
        const replay = yield* Effect.exit(source.list(consent, day))
        const abandoned = yield* Fiber.join(first)
        // the consent's run tried again once nothing holds the listing: what is kept is read, nothing asked
        shifted = 0
        const again = yield* source.list(consent, day)
        return {
          replay,
          abandoned,
          again: again.pages,
          seen: yield* pages,
          used: (yield* (yield* Budget.Budget).usages).map((u) => u.used)
        }
      }).pipe(Effect.provide(memorySource(client)))
    }).pipe(Effect.scoped)

  it.live(
    "a consent's run replayed while its left listing still reads a page: the replay finds the listing's lease held and is tried again, no page is asked twice",
    () =>
      Effect.gen(function* () {
        const { replay, abandoned, again, seen, used } = yield* replayedDuring(false)
        // the replay finds the listing held (a fault that passes: the sweep tries it again after its back-off)
        assert.isTrue(Exit.isFailure(replay))
        assert.include(String(Exit.isFailure(replay) ? Cause.squash(replay.cause) : ""), "another worker is reading it")
        assert.isTrue(Exit.isSuccess(abandoned))
        assert.strictEqual(again, 3)
        assert.deepStrictEqual(seen, [0, 1, 2])
        assert.deepStrictEqual(used, [3])
      })
  )

  it.live(
    "a consent's run replayed after the lease of its left listing expired with a page on its way: that page is asked twice, both counted, within the day's 4 calls",
    () =>
      Effect.gen(function* () {
        const { replay, abandoned, again, seen, used } = yield* replayedDuring(true)
        // the replay takes the listing over: page 0 is kept, page 1 asked again (the one request the expired lease
        // lets through twice), page 2 once; the listing it took over from stops at its next page
        assert.isTrue(Exit.isSuccess(replay))
        assert.isTrue(Exit.isFailure(abandoned))
        assert.strictEqual(again, 3)
        assert.deepStrictEqual([...seen].sort(), [0, 1, 1, 2])
        // every request the bank saw is counted: the repeat shows in the budget and cannot pass the day's 4
        assert.deepStrictEqual(used, [seen.length])
      })
  )

  it("stand-in orders are matched by orderId: an order that moved to a page not read today is planned, none twice", () => {
    const loaded = Fixtures.decode(Fixtures.generate(7).fixtures)
    assert.isTrue(Result.isSuccess(loaded))
    const [a, b, c, d, e, f, x] = Result.getOrThrow(loaded).standingOrders
    const page = (n: number, list: ReadonlyArray<StandingOrder.StandingOrder | undefined>): Listings.Page => ({
      page: n,
      pageCount: 3,
      records: list.length,
      orders: list.filter((o) => o !== undefined)
    })
    // the day before: A B | C D | E F; today X came first, so D moved from page 1 to page 2, which was not read
    const earlier = [page(0, [a, b]), page(1, [c, d]), page(2, [e, f])]
    const today = [page(0, [x, a]), page(1, [b, c])]
    const ids = (list: ReadonlyArray<StandingOrder.StandingOrder>) => list.map((o) => o.orderId)
    assert.deepStrictEqual(ids(BankSources.standIns(today, earlier)), ids([d, e, f].filter((o) => o !== undefined)))
    // every page read today: nothing stands in but what today's pages lack
    assert.deepStrictEqual(ids(BankSources.standIns(earlier, earlier)), [])
    // an orderId given again (issue 34): the same record on a later page (the pages moved) is one order; a different
    // record, or one repeated within a page, is kept (the sweep keys them ID#1, ID#2)
    const [one, two, three] = [a!, b!, c!]
    const other = new StandingOrder.StandingOrder({ ...one, remittanceInformation: "another record" })
    assert.deepStrictEqual(
      ids(BankSources.standIns([], [page(0, [one, two]), page(1, [one, three])])),
      ids([one, two, three])
    )
    assert.deepStrictEqual(
      ids(BankSources.standIns([], [page(0, [one, two]), page(1, [other])])),
      ids([one, two, other])
    )
    assert.deepStrictEqual(ids(BankSources.standIns([], [page(0, [one, one])])), ids([one, one]))
  })

  onTheSweepDay(
    "no complete listing kept: the pages read are planned, the consent's unread pages named and its sweep incomplete",
    ({ info, journal }) =>
      Effect.gen(function* () {
        const stores = yield* Layer.build(memoryStores)
        const summary = yield* sweepWith(day, info, faultOn([1], true), stores)
        const rows = yield* Checks.Checks.use((c) => c.list({ sweepDay: day })).pipe(Effect.provide(stores))
        const all = yield* present(info)
        // page 0, then page 1 three times (3 tries): 4 requests, the day's budget
        assert.strictEqual((yield* unattended(journal)).length, 4)
        const consent = summary.consents[0]
        assert.strictEqual(consent?.failure?._tag, "BankError")
        assert.deepStrictEqual(consent?.pagesUnread, [1, 2])
        assert.strictEqual(consent?.plannedFrom, undefined)
        assert.isFalse(Sweep.isComplete(summary))
        // the orders of page 0 are planned, exactly
        const expected = Sweep.plan(all.slice(0, 50), info.clientId, LocalDate.parseUnsafe(day), settings)
        assert.deepStrictEqual(rows.map(Checks.key).sort(), expected.map(Checks.key).sort())
        assert.strictEqual(consent?.planned, expected.length)
      })
  )

  onTheSweepDay(
    "a listing planned from its kept pages names the records those pages could not read, those that pay nothing and the reading's warnings (issue 34)",
    ({ info }) =>
      Effect.gen(function* () {
        // page 0 as sent: its second record without its amount (unreadable), its third ending before it starts (pays
        // nothing); page 1 answers 502 every time, so the day is planned from page 0 as kept
        let skippedId: string | undefined
        // and its fourth record's amount with three decimals: kept exactly (a warning), refused by the projection
        let refusedId: string | undefined
        const edited = editedPage0((records) => {
          const [, second, third, fourth] = records
          if (second === undefined || third === undefined || fourth === undefined) return false
          delete second.instructedAmount
          skippedId = String(third.orderId)
          third.startDate = "2026-03-01"
          third.endDate = "2026-01-01"
          refusedId = String(fourth.orderId)
          fourth.instructedAmount = { value: 12.345, currency: "EUR" }
        }).pipe(Layer.provide(faultOn([1], true)))
        const summary = yield* sweepWith(day, info, edited, yield* Layer.build(memoryStores))
        const consent = summary.consents[0]
        assert.deepStrictEqual(consent?.pagesUnread, [1, 2])
        // before, the kept pages' unread and skipped records were not named: no unread, no skipped
        assert.deepStrictEqual(consent?.unread, {
          count: 1,
          first: [
            {
              position: "page 0",
              reason:
                "a record the bank's list decoder could not read when the page was kept (the page keeps no errors)"
            }
          ]
        })
        const refused =
          "instructedAmount.value 12.345: amount has 3 decimals, at most 2 allowed (format [9.2]); not projected, nothing rounded"
        assert.deepStrictEqual(consent?.skipped, {
          count: 2,
          first: [
            {
              position: `page 0 (${skippedId})`,
              reason: "endDate 2026-01-01 is before startDate 2026-03-01: the order never pays"
            },
            // its place among the kept orders (the unreadable record before it is not one)
            { position: `record 3 (${refusedId})`, reason: refused }
          ]
        })
        // the kept page's reading warns of the amount kept out of the bank's format
        assert.deepStrictEqual(
          consent?.warnings?.map((w) => [w.field, w.count, w.orderIds]),
          [["instructedAmount.value", 1, [refusedId ?? ""]]]
        )
      })
  )

  onTheSweepDay(
    "a listing planned from its kept pages none of whose records could be read says nothing was planned from it (issue 34)",
    ({ info }) =>
      Effect.gen(function* () {
        // page 0 as sent with no record's amount; page 1 answers 502 every time
        const edited = editedPage0((records) => {
          for (const r of records) delete r.instructedAmount
        }).pipe(Layer.provide(faultOn([1], true)))
        const summary = yield* sweepWith(day, info, edited, yield* Layer.build(memoryStores))
        const consent = summary.consents[0]
        assert.strictEqual(consent?.planned, 0)
        assert.strictEqual(consent?.unread?.count, 50)
        // before, the line said "the others were planned" of a day planned from nothing
        assert.strictEqual(consent?.unread?.nothingRead, true)
      })
  )

  /**
   * One check's funds-check workflow over the real client against a mock bank that forgets the token of the first
   * balance check (as after its restart: 401); `tokenDown`: every token request after that answered 503.
   */
  const afterA401 = (tokenDown: boolean) =>
    Effect.gen(function* () {
      const { info, journal } = yield* seedBank
      let faulted = false
      const transport = faulting((request) => {
        const fault =
          !faulted && request.url.endsWith("/balanceCheck")
            ? "expired-token"
            : faulted && tokenDown && request.url.endsWith("/token")
              ? "503"
              : undefined
        if (fault !== undefined) faulted = true
        return fault
      })
      const client = bankClient(info, transport)
      const account = info.accounts[0]?.iban ?? ""
      const due = Schema.decodeSync(Checks.Due)({
        consent: info.clientId,
        orderId: "SO-401",
        nominalDate: day,
        executionDate: day,
        amount: "10.00",
        currency: "EUR",
        debtorIban: account,
        sweepDay: day,
        checkAt: 0
      })
      const rows = yield* Effect.gen(function* () {
        yield* FundsCheckWorkflow.checkOnce(due)
        return yield* Checks.Checks.use((c) => c.list())
      }).pipe(
        Effect.provide(
          Checks.Checks.layerMemory.pipe(Layer.merge(BankSources.balanceChecker(psu).pipe(Layer.provide(client))))
        )
      )
      const sent = (yield* journal.entries).filter((e) => e.path.endsWith("/balanceCheck")).length
      assert.isTrue(faulted)
      return { sent, row: rows[0] }
    }).pipe(Effect.scoped)

  it.live("a balance check answered 401 and sent again with a new token counts both requests in attempts", () =>
    Effect.gen(function* () {
      const { sent, row } = yield* afterA401(false)
      assert.strictEqual(sent, 2)
      assert.strictEqual(row?.attempts, sent)
      assert.notStrictEqual(row?.outcome, "failed")
    })
  )

  it.live("a balance check answered 401 whose new token cannot be had counts the request answered 401", () =>
    Effect.gen(function* () {
      const { sent, row } = yield* afterA401(true)
      assert.strictEqual(sent, 1)
      assert.strictEqual(row?.outcome, "failed")
      assert.strictEqual(row?.attempts, sent)
    })
  )
})

describe("BankSources.detailedListing (a consent of the Czech standard, issue 37)", () => {
  const db = embeddedDb()

  it.live(
    "a 502 on page 2 of 2: the sweep tries again and completes, with the customer's token renewed from the kept refresh token",
    () =>
      Effect.gen(function* () {
        const { info, journal } = yield* bankOf({ profile: Profile.cobs })
        const grant = yield* Effect.promise(() => customerTokens(info))
        const sqlLayer = db.fresh()
        const sql = yield* Layer.build(sqlLayer)
        yield* Consents.add({ key: "cz-1", refreshToken: Redacted.make(grant.refresh_token) }).pipe(
          Effect.provide(sql),
          Effect.provide(sealingKey)
        )
        const transport = faultOn([1], false, "502", (request) => cobsPage(request.url))
        const summary = yield* Sweep.sweepNow(day).pipe(
          Effect.provide(
            sweepOver(cobsClient(info, transport), {
              consents: [{ key: "cz-1" }],
              needs: Layer.merge(Layer.succeedContext(sql), sealingKey)
            })
          )
        )
        const entries = yield* journal.entries
        const pages = entries.map((e) => cobsPage(`http://x${e.path}`)).filter((p) => p >= 0)
        // page 0, page 1 (502), then page 1 only: page 0 was kept in the budget store and is not paid again
        assert.deepStrictEqual(pages, [0, 1, 1])
        assert.strictEqual(summary.consents.length, 1)
        const [c] = summary.consents
        assert.strictEqual(c?.failure, undefined, JSON.stringify(c))
        assert.strictEqual(c?.tries, 2)
        assert.strictEqual(c?.pages, 2)
        assert.isAbove(c?.planned ?? 0, 0)
        // the customer's token was renewed with the kept refresh token (the bank keeps the same one)
        assert.isTrue(entries.some((e) => e.path.endsWith("/oauth2/token")))
      }).pipe(Effect.scoped),
    90_000
  )

  it.live(
    "orders whose details are pending that core cannot plan are named: the summary, the event and the sweep record",
    () =>
      Effect.gen(function* () {
        const { info } = yield* bankOf({ profile: Profile.cobs, fixtures: tenOrders })
        const grant = yield* Effect.promise(() => customerTokens(info))
        const sql = yield* Layer.build(db.fresh())
        yield* Consents.add({ key: "cz-1", refreshToken: Redacted.make(grant.refresh_token) }).pipe(
          Effect.provide(sql),
          Effect.provide(sealingKey)
        )
        const events: Array<Lifecycle.Event> = []
        // SO0002's detail as sent without its schedule (a required part): core cannot read it (issue 34)
        const broken = Layer.effect(
          BankTransport.BankTransport,
          Effect.map(Effect.service(BankTransport.BankTransport), (inner) =>
            BankTransport.BankTransport.of({
              send: (request, timeout, maxBodyBytes) =>
                Effect.map(inner.send(request, timeout, maxBodyBytes), (exchange) => {
                  if (exchange.status !== 200) return exchange
                  // SO0005's list item with an interval COBS does not have: unreadable whatever its details (it is one
                  // of the pending)
                  if (new URL(request.url).pathname.endsWith("/my/standingorders")) {
                    const list = JSON.parse(exchange.text) as {
                      standingOrders: Array<{
                        standingOrderIdentification: { transactionIdentification: string }
                        standingOrder: { execution: Record<string, unknown> }
                      }>
                    }
                    for (const item of list.standingOrders) {
                      if (item.standingOrderIdentification.transactionIdentification === "SO0005") {
                        item.standingOrder.execution.interval = "FORTNIGHTLY"
                      }
                    }
                    return { status: exchange.status, headers: exchange.headers, text: JSON.stringify(list) }
                  }
                  if (!request.url.endsWith("/my/standingorders/SO0002")) return exchange
                  const body = JSON.parse(exchange.text) as { standingOrder: Record<string, unknown> }
                  delete body.standingOrder.execution
                  return { status: exchange.status, headers: exchange.headers, text: JSON.stringify(body) }
                })
            })
          )
        ).pipe(Layer.provide(BankTransport.BankTransport.layerUndici()))
        const summary = yield* Sweep.sweepNow(day).pipe(
          Effect.provide(
            sweepOver(cobsClient(info, broken), {
              consents: [{ key: "cz-1" }],
              needs: Layer.merge(Layer.succeedContext(sql), sealingKey),
              listeners: [
                { emit: (e) => Effect.sync(() => events.push(e)) },
                SweepLog.listener(Context.get(sql, SqlClient.SqlClient), ["cz-1"])
              ]
            })
          )
        )
        // the day's 4 calls: the list and 3 details (SO0001-3); of the 7 pending, the quarterly, yearly and
        // half-yearly ones name no start in their list item and cannot be planned; SO0005's list item has an interval
        // COBS does not know: unread, not pending (before, it was said pending only)
        const pending = ["SO0006", "SO0008", "SO0009"]
        const [c] = summary.consents
        assert.strictEqual(c?.failure, undefined, JSON.stringify(c))
        assert.deepStrictEqual(c?.detailsPending, pending)
        // SO0002's detail that core cannot read is said unread; an order whose details are pending is not (said once)
        const unread = {
          count: 2,
          first: [
            { position: "record 2 (SO0002)", reason: "the record has no standingOrder.execution" },
            { position: "record 5 (SO0005)", reason: "interval FORTNIGHTLY is not a COBS interval" }
          ]
        }
        assert.deepStrictEqual(c?.unread, unread)
        assert.deepStrictEqual(
          events.filter((e) => e._tag === "RecordsUnread"),
          [{ _tag: "RecordsUnread", day, consent: "cz-1", ...unread }]
        )
        assert.deepStrictEqual(
          events.filter((e) => e._tag === "DetailsPending"),
          [{ _tag: "DetailsPending", day, consent: "cz-1", orders: pending }]
        )
        const record = yield* SweepLog.list(day).pipe(Effect.provide(sql))
        assert.deepStrictEqual(
          record.map((e) => [e.consent, e.state, e.detailsPending, e.unread]),
          [["cz-1", "complete", pending, unread]]
        )
      }).pipe(Effect.scoped),
    90_000
  )
  it.effect(
    "a listing that fails on page 1 plans from today's page 0 and, for page 1, the earlier day's complete listing",
    () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(Date.UTC(2026, 10, 2, 7))
        const { info, journal, clock: bankClock } = yield* bankOf({ profile: Profile.cobs })
        // the bank's day (its daily limit) follows the test's
        yield* bankClock.set(Date.UTC(2026, 10, 2, 7))
        const grant = yield* Effect.promise(() => customerTokens(info))
        const sql = yield* Layer.build(db.fresh())
        yield* Consents.add({ key: "cz-1", refreshToken: Redacted.make(grant.refresh_token) }).pipe(
          Effect.provide(sql),
          Effect.provide(sealingKey)
        )
        // page 1 answers 502 from the second day on
        let broken = false
        const transport = faulting((request) => (broken && cobsPage(request.url) === 1 ? "502" : undefined))
        const source = Context.get(
          yield* Layer.build(
            BankSources.orderSource(psu, { pageSize: 50 }).pipe(
              Layer.provide(Listings.Listings.layerMemory),
              Layer.provide(Layer.succeedContext(sql)),
              Layer.provide(sealingKey),
              Layer.provide(cobsClient(info, transport))
            )
          ),
          Sweep.OrderSource
        )
        // the client's waits run on the test clock: it is moved on while a listing is under way
        const listed = <A, E>(effect: Effect.Effect<A, E>) => pumped(Effect.exit(effect), 20, "1 second")
        const consent = { key: "cz-1" }
        const first = yield* listed(source.list(consent, "2026-11-02"))
        assert.isTrue(first._tag === "Success", String(first))
        const all = first._tag === "Success" ? first.value.orders.map((o) => o.orderId) : []
        assert.strictEqual(first._tag === "Success" ? first.value.pages : 0, 2)
        yield* TestClock.setTime(Date.UTC(2026, 10, 3, 7))
        yield* bankClock.set(Date.UTC(2026, 10, 3, 7))
        broken = true
        const second = yield* listed(source.list(consent, "2026-11-03"))
        assert.strictEqual(second._tag, "Failure")
        assert.isDefined(source.kept)
        const kept = yield* (source.kept ?? (() => Effect.die("no kept")))(consent, "2026-11-03")
        assert.deepStrictEqual(kept.pagesKept, [0])
        assert.deepStrictEqual(kept.pagesUnread, [1])
        assert.strictEqual(kept.earlier?.day, "2026-11-02")
        const today = kept.orders.map((o) => o.orderId)
        const standIns = (kept.earlier?.orders ?? []).map((o) => o.orderId)
        // every order of the earlier listing is planned once: today's page 0, and the rest from the earlier day
        assert.isAbove(today.length, 0)
        assert.isAbove(standIns.length, 0)
        assert.deepStrictEqual([...today, ...standIns].sort(), [...all].sort())
        // the second day asked the bank for page 0 once and page 1 (refused) only
        const pages = (yield* journal.entries).map((e) => cobsPage(`http://x${e.path}`)).filter((p) => p >= 0)
        assert.deepStrictEqual(pages.slice(0, 2), [0, 1])
        assert.strictEqual(pages.filter((p) => p === 0).length, 2)
        // the day's sweep: its listing fails again, and the day is planned from what is kept
        const summary = yield* listed(
          Sweep.sweepNow("2026-11-03").pipe(
            Effect.provide(
              sweepOver(cobsClient(info, transport), {
                consents: [consent],
                source: Layer.succeed(Sweep.OrderSource)(source)
              })
            )
          )
        )
        assert.strictEqual(summary._tag, "Success")
        const [swept] = summary._tag === "Success" ? summary.value.consents : []
        // before, nothing was kept for a COBS consent and it planned nothing that day
        assert.strictEqual(swept?.tries, 3)
        assert.strictEqual(swept?.pagesKept, 1)
        assert.deepStrictEqual(swept?.pagesUnread, [1])
        assert.strictEqual(swept?.plannedFrom, "2026-11-02")
        assert.isAbove(swept?.plannedFromEarlier ?? 0, 0)
        assert.isAbove(swept?.planned ?? 0, swept?.plannedFromEarlier ?? 0)
      }).pipe(Effect.scoped),
    90_000
  )

  /**
   * A day's sweep of a fresh mock bank whose page 0 has its second record changed by `edit` as sent (its orderId
   * returned): the summary, the plan of what the bank lists whole (asked with the customer present, through the same
   * changed page), the lifecycle events and the sweep record's database (`before`: run on it before the sweep).
   */
  const sweepWithRecord = (
    edit: (record: Record<string, unknown>) => void,
    before: Effect.Effect<void, unknown, SqlClient.SqlClient> = Effect.void
  ) =>
    Effect.gen(function* () {
      const { info } = yield* seedBank
      const sql = yield* Layer.build(db.fresh())
      yield* Effect.provide(before, sql)
      let changed: string | undefined
      const page0 = editedPage0((records) => {
        const record = records[1]
        if (record === undefined) return false
        changed = String(record.orderId)
        edit(record)
      }).pipe(Layer.provide(BankTransport.BankTransport.layerUndici()))
      const events: Array<Lifecycle.Event> = []
      const { summary, listed, expected } = yield* Effect.gen(function* () {
        const summary = yield* Sweep.sweepNow(day)
        const present = { ...psu, lastLoggedTime: yield* DateTime.now }
        const orders = yield* Effect.flatMap(Effect.service(BankClient.BankClient), (c) =>
          Stream.runCollect(c.standingOrders({ psu: present }))
        )
        const listed = orders.flatMap((p) => p.body.orders)
        return { summary, listed, expected: Sweep.plan(listed, info.clientId, LocalDate.parseUnsafe(day), settings) }
      }).pipe(
        Effect.provide(
          sweepOver(bankClient(info, page0), {
            consents: [{ key: info.clientId }],
            listeners: [
              { emit: (e) => Effect.sync(() => events.push(e)) },
              SweepLog.listener(Context.get(sql, SqlClient.SqlClient), [info.clientId])
            ]
          })
        )
      )
      const record = yield* SweepLog.list(day).pipe(Effect.provide(sql))
      assert.isDefined(changed)
      return { consent: info.clientId, changed: changed ?? "", summary, listed, expected, events, record, sql }
    })

  /**
   * What the sweep says of its consent's records (`unread`, `skipped` or `warnings`), the same in the three places
   * that say it: the consent's summary, the day's one lifecycle event of its kind (`event`: what that event carries
   * besides day and consent, the whole of `said` unless given; `also`: other kinds that must not be told) and the
   * consent's complete sweep record.
   */
  const assertSaid = (
    seen: {
      readonly consent: string
      readonly summary: Sweep.Summary
      readonly events: ReadonlyArray<Lifecycle.Event>
      readonly record: ReadonlyArray<SweepLog.Entry>
    },
    key: "unread" | "skipped" | "warnings",
    said: object,
    options: { readonly event?: object; readonly also?: ReadonlyArray<Lifecycle.Event["_tag"]> } = {}
  ) => {
    const tag = ({ unread: "RecordsUnread", skipped: "RecordsSkipped", warnings: "RecordsWarned" } as const)[key]
    const { consent } = seen
    assert.deepStrictEqual<unknown>(seen.summary.consents[0]?.[key], said)
    assert.deepStrictEqual<unknown>(
      seen.events.filter((e) => e._tag === tag || options.also?.includes(e._tag)),
      [{ _tag: tag, day, consent, ...(options.event ?? said) }]
    )
    assert.deepStrictEqual<unknown>(
      seen.record.map((e) => [e.consent, e.state, e[key]]),
      [[consent, "complete", said]]
    )
  }

  it.live(
    "a seed-bank page with one malformed record between good ones: the others planned, the record said (issue 34)",
    () =>
      Effect.gen(function* () {
        // the bank's page 0 as sent, its second record without its amount (a required field)
        const seen = yield* sweepWithRecord((r) => {
          delete r.instructedAmount
        })
        const { changed, summary, expected } = seen
        const [c] = summary.consents
        assert.strictEqual(c?.failure, undefined, JSON.stringify(c))
        // the records around the broken one are planned: the bank's listing without it, checked record by record
        assert.isAbove(expected.length, 10)
        assert.strictEqual(c?.planned, expected.length)
        assertSaid(seen, "unread", {
          count: 1,
          first: [{ position: `page 0, record 2 (${changed})`, reason: "instructedAmount: Missing key" }]
        })
      }).pipe(Effect.scoped),
    60_000
  )

  it.live(
    "a seed-bank page with one record ending before it starts among good ones: named skipped, the others planned, the sweep record migrated from its previous shape (issue 34)",
    () =>
      Effect.gen(function* () {
        // the sweep record as it was before the column: the migration adds it, an earlier row reads without it
        const previousShape = Effect.gen(function* () {
          const sql = yield* SqlClient.SqlClient
          yield* sql.unsafe("ALTER TABLE tppkit_sweep_log DROP COLUMN skipped")
          yield* sql`INSERT INTO tppkit_sweep_log (day, consent, run, state, planned, started_at, finished_at)
            VALUES ('2026-11-01', 'earlier', 1, 'complete', 3, 0, 1)`
          yield* Database.migrate
        })
        // the bank's page 0 as sent, its second record ending two months before it starts: read whole, it never pays
        const seen = yield* sweepWithRecord((r) => {
          r.startDate = "2026-03-01"
          r.endDate = "2026-01-01"
        }, previousShape)
        const { changed, summary, listed, expected, sql } = seen
        const [c] = summary.consents
        // the sweep is as before: complete, no failure, nothing unread; the good records planned record by record
        assert.strictEqual(c?.failure, undefined, JSON.stringify(c))
        assert.strictEqual(c?.unread, undefined)
        assert.isTrue(listed.some((o) => o.orderId === changed))
        assert.isFalse(expected.some((d) => d.orderId === changed))
        assert.isAbove(expected.length, 10)
        assert.strictEqual(c?.planned, expected.length)
        // and the record that pays nothing is named with its reason in the summary, the event and the sweep record
        assertSaid(
          seen,
          "skipped",
          {
            count: 1,
            first: [
              {
                position: `page 0, record 2 (${changed})`,
                reason: "endDate 2026-01-01 is before startDate 2026-03-01: the order never pays"
              }
            ]
          },
          { also: ["RecordsUnread"] }
        )
        const earlier = yield* SweepLog.list("2026-11-01").pipe(Effect.provide(sql))
        assert.deepStrictEqual(
          earlier.map((e) => [e.consent, e.planned, e.skipped]),
          [["earlier", 3, undefined]]
        )
      }).pipe(Effect.scoped),
    60_000
  )

  it.live(
    "a seed-bank page with one record whose amount the rules refuse: named skipped with the projection's reason, the others planned (issue 34)",
    () =>
      Effect.gen(function* () {
        // the bank's page 0 as sent, its second record's amount with three decimals: read whole, kept exactly, and
        // refused by the projection (never rounded), so it pays nothing
        const seen = yield* sweepWithRecord((r) => {
          r.instructedAmount = { value: 12.345, currency: "EUR" }
        })
        const { changed, summary, listed, expected } = seen
        const [c] = summary.consents
        assert.strictEqual(c?.failure, undefined, JSON.stringify(c))
        assert.strictEqual(c?.unread, undefined)
        assert.isTrue(listed.some((o) => o.orderId === changed))
        assert.isFalse(expected.some((d) => d.orderId === changed))
        assert.strictEqual(c?.planned, expected.length)
        // before, the projection's refusal was dropped: no skipped, no line, nothing in the sweep record
        assertSaid(seen, "skipped", {
          count: 1,
          first: [
            {
              position: `record 2 (${changed})`,
              reason:
                "instructedAmount.value 12.345: amount has 3 decimals, at most 2 allowed (format [9.2]); not projected, nothing rounded"
            }
          ]
        })
      }).pipe(Effect.scoped),
    60_000
  )

  it.live(
    "a seed-bank record read with a tolerance (its frequency code in lower case): planned as read, the warning said grouped in the summary, the line and the sweep record (issue 34)",
    () =>
      Effect.gen(function* () {
        let code = ""
        const seen = yield* sweepWithRecord((r) => {
          code = String(r.frequency).toLowerCase()
          r.frequency = code
        })
        const { changed, summary, expected } = seen
        const [c] = summary.consents
        assert.strictEqual(c?.failure, undefined, JSON.stringify(c))
        // read as its code says: planned as the bank's listing is
        assert.strictEqual(c?.planned, expected.length)
        assert.strictEqual(c?.unread, undefined)
        // before, the bank's decoder's warning was dropped by the sweep: no warnings anywhere
        const warnings = c?.warnings ?? []
        assert.deepStrictEqual(
          warnings.map((w) => [w.field, w.count, w.orderIds]),
          [["frequency", 1, [changed]]]
        )
        assert.match(warnings[0]?.reason ?? "", new RegExp(`^"${code}" is read as "${code.toUpperCase()}", because `))
        assertSaid(seen, "warnings", warnings, { event: warnings[0]! })
      }).pipe(Effect.scoped),
    60_000
  )
})

describe("BankSources.orderSource: the records' standard (issue 40)", () => {
  /** The consent's listing from a fresh mock bank whose client reads the records in `standard` (none: the profile's). */
  const listAs = (standard: Standard.Standard | undefined) =>
    Effect.gen(function* () {
      const { info } = yield* seedBank
      const client = bankClient(info, BankTransport.BankTransport.layerUndici(), {
        ...(standard === undefined ? {} : { standard })
      })
      return yield* Effect.flatMap(Effect.service(Sweep.OrderSource), (source) =>
        source.list({ key: info.clientId }, day)
      ).pipe(Effect.provide(memorySource(client)))
    }).pipe(Effect.scoped)

  it.live(
    "a bank's settings naming a standard read its records in it, in place of the profile's (the CLI's --standard)",
    () =>
      Effect.gen(function* () {
        const own = yield* listAs(undefined)
        const sbas = yield* listAs("sbas")
        const cobs = yield* listAs("cobs")
        assert.isAbove(own.orders.length, 10)
        // the profile's own standard named: the same orders
        assert.deepStrictEqual(
          sbas.orders.map((o) => o.orderId),
          own.orders.map((o) => o.orderId)
        )
        // the seed bank's records read as COBS (core's COBS reader, not the seed bank's): none reads as a COBS order,
        // and every one is said unread with its position and reason, never dropped silently (issue 34)
        assert.strictEqual(cobs.orders.length, 0)
        assert.strictEqual(cobs.unread?.count, own.orders.length)
        assert.strictEqual(cobs.unread?.first.length, Sweep.unreadNamed)
        assert.match(cobs.unread?.first[0]?.position ?? "", /^record 1 \(/)
        assert.match(cobs.unread?.first[0]?.reason ?? "", /^not read as cobs: /)
        assert.strictEqual(own.unread, undefined)
      }),
    60_000
  )

  it.live("a COBS balance check's id is ORDER/DATE when it fits 18 characters, else 18 hex digits of its hash", () =>
    Effect.gen(function* () {
      const { info, journal } = yield* bankOf({ profile: Profile.cobs })
      const checker = Context.get(
        yield* Layer.build(BankSources.balanceChecker(psu).pipe(Layer.provide(cobsClient(info)))),
        FundsCheckWorkflow.BalanceChecker
      )
      const account = Fixtures.ibans.eurBranch
      const long = "STANDING-ORDER-0000000000000000042"
      const answers = []
      for (const orderId of ["SO-0001", long]) {
        const paid = dueOf({ consent: "cz-1", orderId, nominalDate: "2026-12-01", debtorIban: account, amount: "1.00" })
        answers.push((yield* checker.check(paid, crypto.randomUUID())).answer)
      }
      const ids = (yield* journal.entries)
        .filter((e) => e.path.endsWith("/balanceCheck"))
        .map((e) => (JSON.parse(e.body) as { exchangeIdentification: string }).exchangeIdentification)
      assert.deepStrictEqual(answers, ["APPR", "APPR"])
      assert.strictEqual(ids[0], "SO-0001/2026-12-01")
      assert.match(ids[1] ?? "", /^[0-9a-f]{18}$/)
      // the same payment, the same id (every try of its check)
      assert.strictEqual(BankSources.checkId(Profile.cobs, `${long}/2026-12-01`), ids[1])
      assert.strictEqual(BankSources.checkId(Profile.sbas, `${long}/2026-12-01`), `${long}/2026-12-01`.slice(0, 35))
    }).pipe(Effect.scoped)
  )
})
