import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { assert, describe, expect, it } from "@effect/vitest"
import { Money } from "@tppkit/core"
import { BankClient, BankError, Budget, BudgetStore } from "@tppkit/http"
import { DateTime, Duration, Effect, Exit, Fiber, Layer, Stream } from "effect"
import { TestClock } from "effect/testing"
import fc from "fast-check"
import { listBody, mixedRecords } from "../arbitraries/records.ts"
import { hostile, pagingBank } from "./hostile.ts"
import {
  apiCalls,
  failure,
  makeStub,
  options,
  psu,
  type Stub,
  stack,
  usedToday,
  wireOrder,
  wireOrders,
  withToken
} from "./stub.ts"

const pageOf = (body: string): { page: number; pageSize: number } => JSON.parse(body)

const list = (o: Omit<BankClient.AllPagesOptions, "psu"> & { readonly psu?: BankClient.AllPagesOptions["psu"] } = {}) =>
  Effect.flatMap(Effect.service(BankClient.BankClient), (c) => Stream.runCollect(c.standingOrders({ psu, ...o })))

const present = Effect.map(DateTime.now, (now) => ({ ...psu, lastLoggedTime: now }))

const NOON = Date.UTC(2026, 10, 21, 12)

describe("bounded paging", () => {
  it.effect("a page bomb (pageCount 1,000,000,000) is refused after page 0, which the error keeps", () => {
    const stub = makeStub()
    stub.handler = withToken(() => ({
      status: 200,
      body: { pageCount: 1_000_000_000, standingOrders: wireOrders("a", 100) }
    }))
    return Effect.gen(function* () {
      const error = failure(yield* Effect.exit(list({ psu: yield* present })))
      assert.strictEqual(apiCalls(stub).length, 1)
      assert.strictEqual(error.reason._tag, "ListingIncomplete")
      if (error.reason._tag === "ListingIncomplete") {
        assert.strictEqual(error.reason.kind, "pageLimit")
        assert.strictEqual(error.reason.pages.length, 1)
        assert.strictEqual(error.reason.pages[0]?.orders.length, 100)
      }
      assert.match(error.message, /1000000000 pages, more than the limit of 100/)
    }).pipe(Effect.provide(stack(stub)))
  })

  it.effect("full pages without pageCount stop at the page limit with every page read", () => {
    const stub = makeStub()
    stub.handler = withToken((req) => ({
      status: 200,
      body: { standingOrders: wireOrders(`p${pageOf(req.body).page}`, 10) }
    }))
    return Effect.gen(function* () {
      const error = failure(yield* Effect.exit(list({ psu: yield* present, pageSize: 10, pageLimit: 7 })))
      assert.strictEqual(apiCalls(stub).length, 7)
      assert.strictEqual(error.reason._tag, "ListingIncomplete")
      if (error.reason._tag === "ListingIncomplete") {
        assert.strictEqual(error.reason.kind, "pageLimit")
        assert.strictEqual(error.reason.pages.flatMap((p) => p.orders).length, 70)
      }
    }).pipe(Effect.provide(stack(stub)))
  })

  it.effect(
    "a short page ends a listing without pageCount; with pageCount an empty page before the last is reported and the rest read",
    () => {
      const stub = makeStub()
      stub.handler = withToken((req) => {
        const { page, pageSize } = pageOf(req.body)
        if (pageSize === 10)
          return { status: 200, body: { standingOrders: wireOrders(`p${page}`, page === 2 ? 3 : 10) } }
        if (page === 1) return { status: 200, body: { pageCount: 4 } }
        return { status: 200, body: { pageCount: 4, standingOrders: page === 2 ? [] : wireOrders(`q${page}`, 20) } }
      })
      return Effect.gen(function* () {
        const short = yield* list({ psu: yield* present, pageSize: 10 })
        assert.deepStrictEqual(
          short.map((p) => p.body.orders.length),
          [10, 10, 3]
        )
        const empty = yield* list({ psu: yield* present, pageSize: 20 })
        assert.deepStrictEqual(
          empty.map((p) => [p.body.orders.length, p.body.errors.map((e) => [e.index, e.path, e.message])]),
          [
            [20, []],
            [0, [[-1, "standingOrders", "page 1 has no standingOrders although pageCount announces 4 pages"]]],
            [
              0,
              [[-1, "standingOrders", "page 2 has an empty standingOrders array although pageCount announces 4 pages"]]
            ],
            [20, []]
          ]
        )
        assert.strictEqual(apiCalls(stub).length, 7)
      }).pipe(Effect.provide(stack(stub)))
    }
  )

  it.effect("a pageCount that changes between pages is refused with the pages read", () => {
    const stub = makeStub()
    stub.handler = withToken((req) => {
      const { page } = pageOf(req.body)
      return { status: 200, body: { pageCount: page < 2 ? 3 : 5, standingOrders: wireOrders(`p${page}`, 2) } }
    })
    return Effect.gen(function* () {
      const error = failure(yield* Effect.exit(list({ psu: yield* present })))
      assert.strictEqual(error.reason._tag, "ListingIncomplete")
      if (error.reason._tag === "ListingIncomplete") {
        assert.strictEqual(error.reason.kind, "pageCountChanged")
        assert.deepStrictEqual(
          error.reason.pages.map((p) => [p.page, p.pageCount, p.orders.length]),
          [
            [0, 3, 2],
            [1, 3, 2],
            [2, 5, 2]
          ]
        )
      }
      assert.match(error.message, /page 2 gives pageCount 5, page 0 gave 3/)
    }).pipe(Effect.provide(stack(stub)))
  })

  it.effect("an orderId seen on an earlier page is reported on the later page, not merged", () => {
    const stub = makeStub()
    stub.handler = withToken((req) => {
      const { page } = pageOf(req.body)
      const orders = page === 0 ? wireOrders("a", 3) : [...wireOrders("b", 2), wireOrders("a", 2)[1]]
      return { status: 200, body: { pageCount: 2, standingOrders: orders } }
    })
    return Effect.gen(function* () {
      const pages = yield* list({ psu: yield* present })
      assert.deepStrictEqual(
        pages.flatMap((p) => p.body.orders.map((o) => o.orderId)),
        ["a-0", "a-1", "a-2", "b-0", "b-1"]
      )
      assert.deepStrictEqual(
        pages[1]?.body.errors.map((e) => [e.index, e.orderId, e.path]),
        [[2, "a-1", "orderId"]]
      )
      assert.match(pages[1]?.body.errors[0]?.message ?? "", /first seen on page 0/)
    }).pipe(Effect.provide(stack(stub)))
  })

  it.live(
    "one overall deadline: a bank that stops answering mid-listing ends it with the pages read",
    () =>
      Effect.gen(function* () {
        const server = yield* hostile((request, n) => {
          if (request.path.endsWith("/connect/token")) return pagingBank(() => 5)(request, n)
          return pageOf(request.body).page < 2 ? pagingBank(() => 5)(request, n) : { _tag: "hang" }
        })
        const error = failure(
          yield* Effect.exit(list({ psu: yield* present, pageSize: 10, deadline: "500 millis" })).pipe(
            Effect.provide(
              BankClient.layerNodeFromOptions({ ...options, baseUrl: server.baseUrl, requestTimeout: "20 seconds" })
            )
          )
        )
        assert.strictEqual(error.reason._tag, "ListingIncomplete")
        if (error.reason._tag === "ListingIncomplete") {
          assert.strictEqual(error.reason.kind, "deadline")
          assert.strictEqual(error.reason.pages.length, 2)
        }
      }).pipe(Effect.scoped),
    20_000
  )
})

describe("a budget that is never wasted", () => {
  const twoPages = (stub: Stub) => {
    stub.handler = withToken((req) => {
      const { page } = pageOf(req.body)
      return { status: 200, body: { pageCount: 2, standingOrders: wireOrders(`p${page}`, 100) } }
    })
  }

  it.effect("ten concurrent unattended listings in one process make one listing; all get the same pages", () => {
    const stub = makeStub()
    twoPages(stub)
    return Effect.gen(function* () {
      yield* TestClock.setTime(NOON)
      const results = yield* Effect.all(
        Array.from({ length: 10 }, () => list()),
        { concurrency: "unbounded" }
      )
      assert.strictEqual(apiCalls(stub).length, 2)
      for (const pages of results) assert.strictEqual(pages.flatMap((p) => p.body.orders).length, 200)
      assert.deepStrictEqual(yield* usedToday, [2])
    }).pipe(Effect.provide(stack(stub)))
  })

  it.effect("a snapshot within maxAge costs nothing, even with the budget spent; an older one is not used", () => {
    const stub = makeStub()
    twoPages(stub)
    return Effect.gen(function* () {
      yield* TestClock.setTime(NOON)
      yield* list()
      yield* list({ consentKey: "tpp-client" }) // the same consent: a snapshot taken at this instant counts as fresh
      assert.strictEqual(apiCalls(stub).length, 2)
      yield* TestClock.adjust("10 minutes")
      const cached = yield* list({ maxAge: "15 minutes" })
      assert.strictEqual(apiCalls(stub).length, 2)
      assert.strictEqual(cached[0]?.snapshotTakenAt, "2026-11-21T12:00:00.000Z")
      assert.strictEqual(cached.flatMap((p) => p.body.orders).length, 200)
      // without maxAge the listing is fetched again (and spends the last 2 units)
      yield* list()
      assert.strictEqual(apiCalls(stub).length, 4)
      // budget spent: a fresh listing is refused, a recent one is still served (by default one up to a minute old)
      yield* TestClock.adjust("1 second")
      const refused = failure(yield* Effect.exit(list({ maxAge: 0 })))
      assert.strictEqual(refused.reason._tag, "BudgetExhausted")
      yield* list({ maxAge: "1 hour" })
      yield* list()
      assert.strictEqual(apiCalls(stub).length, 4)
    }).pipe(Effect.provide(stack(stub)))
  })

  it.effect(
    "a burst started seconds after a listing completed shares it by default; maxAge 0 asks for a fresh one",
    () => {
      const stub = makeStub()
      twoPages(stub)
      return Effect.gen(function* () {
        yield* TestClock.setTime(NOON)
        yield* list()
        // callers whose start-up was staggered by load: a complete listing up to a minute old is theirs at no cost
        yield* TestClock.adjust("20 seconds")
        const late = yield* list()
        assert.strictEqual(late[0]?.snapshotTakenAt, "2026-11-21T12:00:00.000Z")
        yield* TestClock.adjust("39 seconds")
        yield* list()
        assert.strictEqual(apiCalls(stub).length, 2)
        assert.strictEqual(Duration.toMillis(BankClient.DEFAULT_MAX_AGE), 60_000)
        // older than the default, or maxAge 0: the bank is asked again
        yield* TestClock.adjust("2 seconds")
        yield* list()
        assert.strictEqual(apiCalls(stub).length, 4)
        yield* TestClock.adjust("1 second")
        yield* list({ maxAge: 0 })
        assert.strictEqual(apiCalls(stub).length, 6)
      }).pipe(Effect.provide(stack(stub, { budget: { dailyLimit: 10 } })))
    }
  )

  it.effect("once pageCount is known the rest of the listing is reserved at once", () => {
    const stub = makeStub()
    stub.handler = withToken((req) => ({
      status: 200,
      body: { pageCount: 4, standingOrders: wireOrders(`p${pageOf(req.body).page}`, 100) }
    }))
    return Effect.gen(function* () {
      yield* TestClock.setTime(NOON)
      const pages = yield* list()
      assert.strictEqual(pages.length, 4)
      assert.deepStrictEqual(yield* usedToday, [4])
    }).pipe(Effect.provide(stack(stub)))
  })

  it.effect("a runner that died holds its lease only until it runs out; then a waiter lists itself", () => {
    const stub = makeStub()
    twoPages(stub)
    // a store in which another process took the lease of the first listing asked for, and then died
    const seeded = Layer.effect(
      BudgetStore.BudgetStore,
      Effect.gen(function* () {
        const inner = yield* Effect.service(BudgetStore.BudgetStore)
        let seededOnce = false
        return BudgetStore.BudgetStore.of({
          ...inner,
          tryAcquireLease: (key, holder, now, expiresAt) =>
            Effect.gen(function* () {
              if (!seededOnce) {
                seededOnce = true
                yield* inner.tryAcquireLease(key, "dead-process", now, now + 10_000)
              }
              return yield* inner.tryAcquireLease(key, holder, now, expiresAt)
            })
        })
      })
    ).pipe(Layer.provide(BudgetStore.BudgetStore.layerMemory))
    return Effect.gen(function* () {
      yield* TestClock.setTime(NOON)
      const waiting = yield* Effect.forkChild(list())
      yield* TestClock.adjust("9 seconds")
      assert.strictEqual(apiCalls(stub).length, 0)
      yield* TestClock.adjust("2 seconds")
      const pages = yield* Fiber.join(waiting)
      assert.strictEqual(pages.flatMap((p) => p.body.orders).length, 200)
      assert.strictEqual(apiCalls(stub).length, 2)
    }).pipe(Effect.provide(stack(stub, {}, seeded)))
  })

  it.live(
    "clients in separate stacks sharing one SQLite store make one listing between them",
    () => {
      const dir = mkdtempSync(join(tmpdir(), "tppkit-coalesce-"))
      const file = join(dir, "budget.sqlite")
      return Effect.gen(function* () {
        const server = yield* hostile(pagingBank(() => 2))
        const client = () =>
          BankClient.layerNodeFromOptions(
            { ...options, baseUrl: server.baseUrl },
            { budgetStore: BudgetStore.BudgetStore.layerSqlite(file) }
          )
        const results = yield* Effect.all(
          Array.from({ length: 6 }, () => list().pipe(Effect.provide(Layer.fresh(client())))),
          { concurrency: "unbounded" }
        )
        const listed = server.received.filter((r) => !r.path.endsWith("/connect/token"))
        assert.deepStrictEqual(
          listed.map((r) => pageOf(r.body).page),
          [0, 1]
        )
        for (const pages of results) assert.strictEqual(pages.flatMap((p) => p.body.orders).length, 200)
      }).pipe(Effect.scoped, Effect.ensuring(Effect.sync(() => rmSync(dir, { recursive: true, force: true }))))
    },
    30_000
  )
})

describe("a listing resumed by its owner asks only for the pages it lacks", () => {
  /** Three pages of 50 (pageCount 3); the first request for a page answers 502 as often as `failing` names it. */
  const threePages = (stub: Stub, failing: ReadonlyArray<number>) => {
    const left = [...failing]
    stub.handler = withToken((req) => {
      const { page } = pageOf(req.body)
      const i = left.indexOf(page)
      if (i >= 0) {
        left.splice(i, 1)
        return { status: 502, body: { title: "bad gateway" } }
      }
      return { status: 200, body: { pageCount: 3, standingOrders: wireOrders(`p${page}`, 50) } }
    })
  }
  const used = Effect.flatMap(Effect.service(Budget.Budget), (b) => Effect.map(b.usages, (u) => u[0]?.used ?? 0))
  const pagesAsked = (stub: Stub) => apiCalls(stub).map((r) => pageOf(r.body).page)
  /** Each page's number and how many orders it holds. */
  const sizes = (
    pages: ReadonlyArray<{ readonly body: { readonly page: number; readonly orders: ReadonlyArray<unknown> } }>
  ) => pages.map((p) => [p.body.page, p.body.orders.length])
  /** The three pages of 50, every order of the listing. */
  const whole = [
    [0, 50],
    [1, 50],
    [2, 50]
  ]

  it.effect(
    "a fault on page 1 of 3: the next attempt asks for pages 1 and 2 only; the budget counts what was sent",
    () => {
      const stub = makeStub()
      threePages(stub, [1])
      return Effect.gen(function* () {
        yield* TestClock.setTime(NOON)
        const first = failure(yield* Effect.exit(list({ pageSize: 50, resume: true })))
        assert.strictEqual(first.reason._tag, "ServerError")
        assert.deepStrictEqual(pagesAsked(stub), [0, 1])
        // page 2 was paid for with page 1 and never sent: given back
        assert.strictEqual(yield* used, 2)
        const pages = yield* list({ pageSize: 50, resume: true, maxAge: 0 })
        assert.deepStrictEqual(sizes(pages), whole)
        assert.deepStrictEqual(pagesAsked(stub), [0, 1, 1, 2])
        assert.strictEqual(yield* used, 4)
        // the listing is complete: its owner's next attempt later that day (past any maxAge) gets it as kept,
        // without a request or budget, saying when it was taken; a listing without resume starts at page 0 (and
        // the budget is spent)
        yield* TestClock.adjust("1 hour")
        const kept = yield* list({ pageSize: 50, resume: true, maxAge: 0 })
        assert.deepStrictEqual(sizes(kept), whole)
        assert.deepStrictEqual(
          kept.map((p) => p.snapshotTakenAt),
          Array.from({ length: 3 }, () => new Date(NOON).toISOString())
        )
        assert.deepStrictEqual(pagesAsked(stub), [0, 1, 1, 2])
        assert.strictEqual(yield* used, 4)
        const refused = failure(yield* Effect.exit(list({ pageSize: 50 })))
        assert.strictEqual(refused.reason._tag, "BudgetExhausted")
        assert.deepStrictEqual(pagesAsked(stub), [0, 1, 1, 2])
        // the next budget day starts again at page 0
        yield* TestClock.adjust("1 day")
        yield* list({ pageSize: 50, resume: true })
        assert.deepStrictEqual(pagesAsked(stub), [0, 1, 1, 2, 0, 1, 2])
      }).pipe(Effect.provide(stack(stub, { budget: { dailyLimit: 4 } })))
    }
  )

  it.effect("a resumed listing's failure counts the attempts of the listing that reached the bank", () => {
    const stub = makeStub()
    threePages(stub, [0, 1, 1])
    return Effect.gen(function* () {
      yield* TestClock.setTime(NOON)
      const first = failure(yield* Effect.exit(list({ pageSize: 50, resume: true })))
      assert.strictEqual(first.attempts, 1)
      const second = failure(yield* Effect.exit(list({ pageSize: 50, resume: true })))
      assert.strictEqual(second.attempts, 2)
      const third = failure(yield* Effect.exit(list({ pageSize: 50, resume: true })))
      assert.strictEqual(third.attempts, 3)
      assert.include(third.message, "(3 attempts)")
      yield* list({ pageSize: 50, resume: true })
      assert.deepStrictEqual(pagesAsked(stub), [0, 0, 1, 1, 1, 2])
    }).pipe(Effect.provide(stack(stub, { budget: { dailyLimit: 10 } })))
  })

  it.effect("without resume every attempt starts at page 0 (and a retry of the whole listing no longer fits)", () => {
    const stub = makeStub()
    threePages(stub, [1])
    return Effect.gen(function* () {
      yield* TestClock.setTime(NOON)
      yield* Effect.exit(list({ pageSize: 50 }))
      const again = failure(yield* Effect.exit(list({ pageSize: 50 })))
      assert.strictEqual(again.reason._tag, "BudgetExhausted")
      assert.deepStrictEqual(pagesAsked(stub), [0, 1, 0])
    }).pipe(Effect.provide(stack(stub, { budget: { dailyLimit: 4 } })))
  })

  it.effect("an attempt interrupted while page 1 is in flight: page 1 counts as sent, page 2 is given back", () => {
    const stub = makeStub()
    let hang = true
    stub.handler = withToken((req) => {
      const { page } = pageOf(req.body)
      if (page === 1 && hang) return Effect.as(Effect.sleep("1 hour"), { status: 500 })
      return { status: 200, body: { pageCount: 3, standingOrders: wireOrders(`p${page}`, 50) } }
    })
    return Effect.gen(function* () {
      yield* TestClock.setTime(NOON)
      const cut = yield* Effect.forkChild(list({ pageSize: 50, resume: true }))
      while (apiCalls(stub).length < 2) yield* Effect.yieldNow
      yield* Fiber.interrupt(cut)
      assert.strictEqual(yield* used, 2)
      hang = false
      yield* list({ pageSize: 50, resume: true })
      assert.deepStrictEqual(pagesAsked(stub), [0, 1, 1, 2])
      assert.strictEqual(yield* used, 4)
    }).pipe(Effect.provide(stack(stub, { budget: { dailyLimit: 4 } })))
  })

  it.effect(
    "a store that cannot keep the pages (its database restarting): the next attempt here resumes all the same",
    () => {
      const stub = makeStub()
      threePages(stub, [1])
      const unwritable = Layer.effect(
        BudgetStore.BudgetStore,
        Effect.map(Effect.service(BudgetStore.BudgetStore), (inner) =>
          BudgetStore.BudgetStore.of({
            ...inner,
            writeSnapshot: () =>
              Effect.fail(new BankError.BudgetStoreError({ store: "test", operation: "writeSnapshot", detail: "down" }))
          })
        )
      ).pipe(Layer.provide(BudgetStore.BudgetStore.layerMemory))
      return Effect.gen(function* () {
        yield* TestClock.setTime(NOON)
        yield* Effect.exit(list({ pageSize: 50, resume: true }))
        const pages = yield* list({ pageSize: 50, resume: true })
        assert.strictEqual(pages.length, 3)
        assert.deepStrictEqual(pagesAsked(stub), [0, 1, 1, 2])
        assert.strictEqual(yield* used, 4)
      }).pipe(Effect.provide(stack(stub, { budget: { dailyLimit: 4 } }, unwritable)))
    }
  )

  it.effect(
    "after a process died holding the listing: pages it paid for and never asked for are not paid again",
    () => {
      const stub = makeStub()
      threePages(stub, [])
      return Effect.gen(function* () {
        yield* TestClock.setTime(NOON)
        // another process read page 0 of 3, paid for pages 1 and 2, asked for page 1 and was killed (no answer kept)
        const budget = yield* Budget.Budget
        const first = yield* Effect.exit(list({ pageSize: 50, resume: true, maxPages: 1 }))
        assert.isTrue(Exit.isSuccess(first))
        const key = (yield* budget.usages)[0]?.consentKey ?? ""
        const listingKey = JSON.stringify([key, null, 50, null])
        const page0 = Exit.isSuccess(first) ? first.value[0] : undefined
        const payload = JSON.stringify({
          v: 2,
          asked: 2,
          paid: 3,
          pages: [
            {
              page: 0,
              pageCount: 3,
              orders: JSON.stringify(wireOrders("p0", 50)),
              errors: [],
              warnings: [],
              identity: page0?.identity ?? {},
              echoed: {}
            }
          ]
        })
        yield* budget.store.writeSnapshot(JSON.stringify(["partial", listingKey, "2026-11-21"]), {
          payload,
          takenAt: NOON
        })
        yield* budget.spend(key, 2)
        assert.strictEqual(yield* used, 3)
        const pages = yield* list({ pageSize: 50, resume: true })
        assert.deepStrictEqual(
          pages.map((p) => p.body.orders.length),
          [50, 50, 50]
        )
        // page 1 was asked for by the dead process (it may have reached the bank): paid again; page 2 was its
        assert.deepStrictEqual(pagesAsked(stub), [0, 1, 2])
        assert.strictEqual(yield* used, 4)
      }).pipe(Effect.provide(stack(stub, { budget: { dailyLimit: 4 } })))
    }
  )
})

describe("bad records never cost a listing", () => {
  it("a field the bank's record does not name is a warning naming it (issue 34), never a failure: every order listed", async () => {
    const stub = makeStub()
    const records = [
      { ...wireOrder("M-0"), memo: "rent" },
      wireOrder("M-1"),
      { ...wireOrder("M-2"), memo: "gym", creditor: { iban: "SK3112000000198742637541", bic: "TATRSKBX" } }
    ]
    stub.handler = withToken(() => ({ status: 200, body: { pageCount: 1, standingOrders: records } }))
    const listed = await Effect.runPromise(list({ pageSize: 100 }).pipe(Effect.provide(stack(stub))))
    const body = listed[0]!.body
    expect(body.orders.map((o) => o.orderId)).toEqual(["M-0", "M-1", "M-2"])
    expect(body.errors).toEqual([])
    const said = "is not a field of the bank's standing order: not read, not kept"
    expect(body.warnings.map((w) => [w.index, w.orderId, w.path, w.message])).toEqual([
      [0, "M-0", "memo", said],
      [2, "M-2", "creditor.bic", said],
      [2, "M-2", "memo", said]
    ])
  })

  it("an unattended listing keeps every good record and reports every bad one on every page, spends one call a page and stores what the bank sent exactly", async () => {
    await fc.assert(
      fc.asyncProperty(mixedRecords(12, "P0"), mixedRecords(12, "P1"), async (first, second) => {
        const stub = makeStub()
        const pages = [first, second]
        stub.handler = withToken((req) => {
          const { page } = pageOf(req.body)
          return { status: 200, body: listBody(pages[page] ?? [], 2) }
        })
        const run = Effect.gen(function* () {
          const listed = yield* list({ pageSize: 100 })
          const again = yield* list({ pageSize: 100, maxAge: Duration.minutes(5) })
          return { listed, again, calls: apiCalls(stub).length }
        }).pipe(Effect.provide(stack(stub)))
        const { listed, again, calls } = await Effect.runPromise(run)
        expect(calls).toBe(2)
        for (const [n, records] of pages.entries()) {
          const body = listed[n]!.body
          const kept = records.filter((r) => r.kind !== "error")
          expect(body.orders.map((o) => o.orderId)).toEqual(kept.map((r) => r.orderId))
          expect(body.warnings.map((w) => w.index)).toEqual(
            records.flatMap((r, i) => (r.kind === "warning" ? [i] : []))
          )
          expect(body.errors.filter((e) => e.index >= 0).map((e) => e.index)).toEqual(
            records.flatMap((r, i) => (r.kind === "error" ? [i] : []))
          )
          for (const r of kept) {
            if (r.amount === undefined) continue
            const order = body.orders.find((o) => o.orderId === r.orderId)!
            const exact = Money.fromNumberText(r.amount)
            expect(exact._tag === "Success" && Money.equals(order.instructedAmount.value, exact.success)).toBe(true)
          }
          // the stored listing gives back exactly what was read, without a call
          const stored = again[n]!
          expect(stored.snapshotTakenAt).toBeDefined()
          expect(stored.body.orders.map((o) => [o.orderId, Money.toPlainString(o.instructedAmount.value)])).toEqual(
            body.orders.map((o) => [o.orderId, Money.toPlainString(o.instructedAmount.value)])
          )
          expect(stored.body.errors).toEqual(body.errors)
          expect(stored.body.warnings).toEqual(body.warnings)
        }
      }),
      { numRuns: 40 }
    )
  })

  it.effect("a repeated standingOrders key is reported and both arrays' records are kept", () => {
    const stub = makeStub()
    const one = JSON.stringify(wireOrders("a", 2))
    const two = JSON.stringify(wireOrders("b", 1))
    stub.handler = withToken(() => ({
      status: 200,
      body: `{"pageCount":1,"standingOrders":${one},"standingOrders":${two}}`
    }))
    return Effect.gen(function* () {
      const [page] = yield* list({ psu: yield* present })
      assert.deepStrictEqual(
        page!.body.orders.map((o) => o.orderId),
        ["a-0", "a-1", "b-0"]
      )
      assert.deepStrictEqual(
        page!.body.errors.map((e) => [e.index, e.path]),
        [[-1, "standingOrders"]]
      )
    }).pipe(Effect.provide(stack(stub)))
  })
})
