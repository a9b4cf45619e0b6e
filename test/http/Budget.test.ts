import { mkdtempSync, rmSync } from "node:fs"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { assert, describe, it } from "@effect/vitest"
import { BankClient, BankConfig, Budget, BudgetStore } from "@tppkit/http"
import { DateTime, Effect, Redacted, Result, Stream } from "effect"
import { TestClock } from "effect/testing"
import { apiCalls, failure, makeStub, psu, stack, usedToday, wireOrders, withToken } from "./stub.ts"

const listPage = Effect.flatMap(Effect.service(BankClient.BankClient), (c) => c.standingOrdersPage({ psu }))

// 2026-11-21T12:00:00Z, a Saturday noon in Bratislava
const NOON = Date.UTC(2026, 10, 21, 12)

describe("Budget.dayOf", () => {
  it("uses the calendar day of the zone and frees at its midnight", () => {
    assert.deepStrictEqual(Budget.dayOf(DateTime.makeUnsafe(Date.UTC(2026, 10, 21, 23, 30)), "Europe/Bratislava"), {
      day: "2026-11-22",
      freesAt: "2026-11-22T23:00:00.000Z"
    })
    // summer time: UTC+2
    assert.deepStrictEqual(Budget.dayOf(DateTime.makeUnsafe(Date.UTC(2026, 6, 1, 21, 59)), "Europe/Bratislava"), {
      day: "2026-07-01",
      freesAt: "2026-07-01T22:00:00.000Z"
    })
    assert.strictEqual(Budget.dayOf(DateTime.makeUnsafe(Date.UTC(2026, 6, 1, 21, 59)), "UTC").day, "2026-07-01")
  })
})

describe("daily budget of unattended standing-order calls", () => {
  it.effect("the fifth unattended listing is refused with no traffic, saying when the budget frees up", () => {
    const stub = makeStub()
    return Effect.gen(function* () {
      yield* TestClock.setTime(NOON)
      for (let i = 0; i < 4; i++) yield* listPage
      assert.strictEqual(apiCalls(stub).length, 4)
      const seenBefore = stub.seen.length
      const error = failure(yield* Effect.exit(listPage))
      assert.strictEqual(stub.seen.length, seenBefore)
      assert.strictEqual(error.reason._tag, "BudgetExhausted")
      if (error.reason._tag === "BudgetExhausted") {
        assert.strictEqual(error.reason.freesAt, "2026-11-21T23:00:00.000Z")
        assert.strictEqual(error.reason.used, 4)
      }
      assert.include(error.message, "2026-11-21T23:00:00.000Z")
      // a customer who is present is not limited
      const present = { ...psu, lastLoggedTime: DateTime.makeUnsafe(NOON - 30 * 60_000) }
      yield* Effect.flatMap(Effect.service(BankClient.BankClient), (c) => c.standingOrdersPage({ psu: present }))
      assert.strictEqual(apiCalls(stub).length, 5)
      // a log-in older than one hour means the customer is not present
      const stale = { ...psu, lastLoggedTime: DateTime.makeUnsafe(NOON - 61 * 60_000) }
      const refused = failure(
        yield* Effect.exit(
          Effect.flatMap(Effect.service(BankClient.BankClient), (c) => c.standingOrdersPage({ psu: stale }))
        )
      )
      assert.strictEqual(refused.reason._tag, "BudgetExhausted")
      // the next day in Bratislava frees it
      yield* TestClock.setTime(Date.UTC(2026, 10, 21, 23, 0))
      yield* listPage
      assert.strictEqual(apiCalls(stub).length, 6)
    }).pipe(Effect.provide(stack(stub)))
  })

  it.effect("the count survives a restart of the layer with the SQLite store", () => {
    const dir = mkdtempSync(join(tmpdir(), "tppkit-budget-"))
    const file = join(dir, "budget.sqlite")
    const stub = makeStub()
    const run = <A, E>(effect: Effect.Effect<A, E, BankClient.BankClient>) =>
      Effect.provide(effect, stack(stub, {}, BudgetStore.BudgetStore.layerSqlite(file)))
    return Effect.gen(function* () {
      yield* TestClock.setTime(NOON)
      yield* run(Effect.all([listPage, listPage, listPage]))
      yield* run(listPage)
      const before = stub.seen.length
      const error = failure(yield* Effect.exit(run(listPage)))
      assert.strictEqual(error.reason._tag, "BudgetExhausted")
      assert.strictEqual(stub.seen.length, before)
      // another consent key has its own budget
      yield* run(
        Effect.flatMap(Effect.service(BankClient.BankClient), (c) => c.standingOrdersPage({ psu, consentKey: "other" }))
      )
      assert.strictEqual(apiCalls(stub).length, 5)
    }).pipe(Effect.ensuring(Effect.sync(() => rmSync(dir, { recursive: true, force: true }))))
  })

  it.effect("unattended listings are never retried: a 503 costs one request and fails", () => {
    const stub = makeStub()
    stub.handler = withToken(() => ({ status: 503, body: "" }))
    return Effect.gen(function* () {
      const error = failure(yield* Effect.exit(listPage))
      assert.strictEqual(error.reason._tag, "ServerError")
      assert.strictEqual(apiCalls(stub).length, 1)
      const usage = yield* Effect.flatMap(Effect.service(Budget.Budget), (b) =>
        b.usage(
          Budget.consentKey({
            environment: "sandbox",
            baseUrl: "http://127.0.0.1:9",
            clientId: "tpp-client",
            consent: "tpp-client"
          })
        )
      )
      assert.strictEqual(usage.used, 1)
    }).pipe(Effect.provide(stack(stub)))
  })

  it.effect("a request never sent costs nothing: a failed token request is not counted", () => {
    const stub = makeStub()
    let tokenUp = false
    stub.handler = (req) =>
      req.path.endsWith("/connect/token")
        ? tokenUp
          ? { status: 200, body: { access_token: "t", token_type: "Bearer", expires_in: 1200 } }
          : { status: 500, body: "" }
        : { status: 200, body: { pageCount: 1, standingOrders: wireOrders("a", 1) } }
    return Effect.gen(function* () {
      yield* TestClock.setTime(NOON)
      // the token endpoint answers 500 three times: nothing reached the API, nothing is counted
      for (let i = 0; i < 3; i++) {
        const error = failure(yield* Effect.exit(listPage))
        assert.strictEqual(error.operation, "token")
      }
      assert.strictEqual(apiCalls(stub).length, 0)
      assert.deepStrictEqual(yield* usedToday, [])
      // the token endpoint is back: the listing is sent and counted once
      tokenUp = true
      yield* listPage
      assert.strictEqual(apiCalls(stub).length, 1)
      assert.deepStrictEqual(yield* usedToday, [1])
    }).pipe(Effect.provide(stack(stub)))
  })

  it.effect("pages paid for at once and never sent are given back when the listing fails before them", () => {
    const stub = makeStub()
    // a 4-page listing whose page 1 answers 502: pages 2 and 3 are never sent
    stub.handler = withToken((req) =>
      JSON.parse(req.body).page === 1
        ? { status: 502, body: "" }
        : { status: 200, body: { pageCount: 4, standingOrders: wireOrders(req.body, 100) } }
    )
    return Effect.gen(function* () {
      yield* TestClock.setTime(NOON)
      const client = yield* BankClient.BankClient
      const error = failure(yield* Effect.exit(Stream.runCollect(client.standingOrders({ psu }))))
      assert.strictEqual(error.reason._tag, "ServerError")
      assert.strictEqual(apiCalls(stub).length, 2)
      // the two requests sent, not the four reserved
      assert.deepStrictEqual(yield* usedToday, [2])
    }).pipe(Effect.provide(stack(stub)))
  })

  it.effect("pages that cannot fit the remaining budget are refused before the first request", () => {
    const stub = makeStub()
    stub.handler = withToken((req) => ({
      status: 200,
      body: { pageCount: 3, standingOrders: wireOrders(req.body, 3) }
    }))
    return Effect.gen(function* () {
      const client = yield* BankClient.BankClient
      yield* TestClock.setTime(NOON)
      yield* client.standingOrdersPage({ psu })
      yield* client.standingOrdersPage({ psu })
      const asked = failure(yield* Effect.exit(Stream.runCollect(client.standingOrders({ psu, maxPages: 3 }))))
      assert.strictEqual(asked.reason._tag, "BudgetExhausted")
      assert.strictEqual(apiCalls(stub).length, 2)
      // all pages: page 0 says 3 pages, 1 call left for 2 more pages: refused before page 1 is asked
      yield* client.standingOrdersPage({ psu, consentKey: "k" })
      yield* client.standingOrdersPage({ psu, consentKey: "k" })
      const all = failure(yield* Effect.exit(Stream.runCollect(client.standingOrders({ psu, consentKey: "k" }))))
      assert.strictEqual(all.reason._tag, "BudgetExhausted")
      assert.strictEqual(apiCalls(stub).length, 5)
      if (all.reason._tag === "BudgetExhausted") {
        assert.strictEqual(all.reason.requested, 2)
        assert.strictEqual(all.reason.listingPages, 3)
      }
      // the refusal says how many pages, when the budget resets and both ways out
      assert.match(all.message, /2 more pages of this 3-page listing/)
      assert.match(all.message, /frees up at 2026-11-21T23:00:00.000Z/)
      assert.match(all.message, /--psu-last-logged-time/)
      assert.match(all.message, /--max-age/)
    }).pipe(Effect.provide(stack(stub)))
  })
})

describe("Budget.withAnnouncedIdentity: a mock bank on loopback is known by the instance it announces", () => {
  const serve = (body: string) =>
    Effect.acquireRelease(
      Effect.promise(
        () =>
          new Promise<ReturnType<typeof createServer>>((resolve) => {
            const server = createServer((req, res) => {
              asked.push(req.url ?? "")
              res.writeHead(200, { "Content-Type": "application/json" }).end(body)
            })
            server.listen(0, "127.0.0.1", () => resolve(server))
          })
      ),
      (server) => Effect.promise(() => new Promise<void>((resolve) => server.close(() => resolve())))
    )
  const asked: Array<string> = []
  const settingsAt = (baseUrl: string) =>
    Result.getOrThrow(
      BankConfig.make({ environment: "sandbox", baseUrl, clientId: "tpp", clientSecret: Redacted.make("s") })
    )

  it.live("takes the announced id into the budget's identity; a body that is no plain id leaves the base URL", () =>
    Effect.gen(function* () {
      const announced = yield* serve(JSON.stringify({ instance: "run-42" }))
      const base = `http://127.0.0.1:${(announced.address() as AddressInfo).port}`
      const settings = yield* Budget.withAnnouncedIdentity(settingsAt(base))
      assert.strictEqual(settings.bankIdentity, `${base}#instance=run-42`)
      assert.deepStrictEqual(asked, ["/__instance"])
      // given already: nothing is asked
      assert.strictEqual((yield* Budget.withAnnouncedIdentity(settings)).bankIdentity, `${base}#instance=run-42`)
      assert.strictEqual(asked.length, 1)
      const odd = yield* serve(JSON.stringify({ instance: "a b/c" }))
      const oddBase = `http://127.0.0.1:${(odd.address() as AddressInfo).port}`
      assert.isUndefined((yield* Budget.withAnnouncedIdentity(settingsAt(oddBase))).bankIdentity)
    }).pipe(Effect.scoped)
  )

  it.live("tells a bank that announces none from one that says nothing (issue 43)", () =>
    Effect.gen(function* () {
      const at = (status: number) =>
        Effect.map(
          Effect.acquireRelease(
            Effect.promise(
              () =>
                new Promise<ReturnType<typeof createServer>>((resolve) => {
                  const server = createServer((_req, res) => res.writeHead(status).end("{}"))
                  server.listen(0, "127.0.0.1", () => resolve(server))
                })
            ),
            (server) => Effect.promise(() => new Promise<void>((resolve) => server.close(() => resolve())))
          ),
          (server) => settingsAt(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)
        )
      // no such path, or a body without a plain id: the bank answered, and announces none
      assert.deepStrictEqual(yield* Budget.announcement(yield* at(404)), { _tag: "None" })
      assert.deepStrictEqual(yield* Budget.announcement(yield* at(200)), { _tag: "None" })
      // a status that says nothing of the instance, or no connection at all: nothing heard
      assert.deepStrictEqual(yield* Budget.announcement(yield* at(503)), { _tag: "NoAnswer", detail: "status 503" })
      const closed = yield* at(503)
      const port = new URL(closed.baseUrl).port
      const gone = yield* Effect.promise(
        () =>
          new Promise<number>((resolve) => {
            const probe = createServer()
            probe.listen(0, "127.0.0.1", () => {
              const free = (probe.address() as AddressInfo).port
              probe.close(() => resolve(free))
            })
          })
      )
      assert.notStrictEqual(String(gone), port)
      assert.strictEqual((yield* Budget.announcement(settingsAt(`http://127.0.0.1:${gone}`)))._tag, "NoAnswer")
      // a bank off loopback is never asked: its identity is its base URL
      assert.deepStrictEqual(yield* Budget.announcement(settingsAt("https://bank.example")), { _tag: "None" })
    }).pipe(Effect.scoped)
  )

  it.effect("asks nothing of a bank that is not on loopback", () =>
    Effect.gen(function* () {
      const settings = settingsAt("https://bank.example")
      assert.strictEqual(yield* Budget.withAnnouncedIdentity(settings), settings)
    })
  )
})
