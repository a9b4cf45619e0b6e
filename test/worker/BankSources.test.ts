/**
 * The sweep's listing over the real bank client and the mock bank on loopback: a listing that failed part-way is
 * resumed, never fetched again, and the budget counts exactly what the bank's journal saw.
 */
import { assert, describe, it } from "@effect/vitest"
import { Calendar, LocalDate } from "@tppkit/core"
import { BankClient, BankConfig, BankTransport, Budget, BudgetStore } from "@tppkit/http"
import { Fixtures, Journal, Sandbox } from "@tppkit/sandbox"
import { BankSources, Checks, FundsCheckWorkflow, Sweep } from "@tppkit/worker"
import { Context, DateTime, Effect, Fiber, Layer, Stream } from "effect"
import { TestClock } from "effect/testing"
import { WorkflowEngine } from "effect/workflow"

const psu = { ipAddress: "127.0.0.1", deviceOs: "test", userAgent: "tppkit-test" }
const day = "2026-11-02"
const settings: Sweep.Settings = {
  consents: [],
  daysBefore: 2,
  calendar: Calendar.target,
  timeZone: "Europe/Bratislava",
  hour: 8,
  retry: { initial: "10 millis", max: "10 millis", tries: 3 }
}

/** Undici, with the mock bank's 502 fault asked for on the first request of each listed page number. */
const faultOn = (pages: ReadonlyArray<number>) =>
  Layer.effect(
    BankTransport.BankTransport,
    Effect.gen(function* () {
      const inner = yield* BankTransport.BankTransport
      const faulted = new Set<number>()
      return BankTransport.BankTransport.of({
        send: (request, timeout, maxBodyBytes) => {
          const page = request.url.endsWith("/standingOrder")
            ? ((JSON.parse(request.body) as { page?: number }).page ?? 0)
            : -1
          if (!pages.includes(page) || faulted.has(page)) return inner.send(request, timeout, maxBodyBytes)
          faulted.add(page)
          return inner.send(
            { ...request, headers: { ...request.headers, "x-sandbox-fault": "502" } },
            timeout,
            maxBodyBytes
          )
        }
      })
    })
  ).pipe(Layer.provide(BankTransport.BankTransport.layerUndici()))

describe("BankSources.orderSource (the sweep's listing resumes)", () => {
  it.live(
    "a 502 on page 2 of 3: the retry asks for pages 2 and 3 only; budget used equals the listings the bank saw",
    () =>
      Effect.gen(function* () {
        const bank = yield* Layer.build(Sandbox.layer({ listingDay: Fixtures.baseDate }))
        const info = Context.get(bank, Sandbox.SandboxInfo)
        const journal = Context.get(bank, Journal.Journal)
        const client = BankClient.BankClient.layerOver(
          BankConfig.BankConfig.layer({
            environment: "sandbox",
            baseUrl: info.baseUrl,
            clientId: info.clientId,
            clientSecret: info.clientSecret
          }),
          faultOn([1]),
          BudgetStore.BudgetStore.layerMemory
        )
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
        }).pipe(
          Effect.provide(
            Layer.mergeAll(FundsCheckWorkflow.layer, Sweep.layer).pipe(
              Layer.provideMerge(WorkflowEngine.layerMemory),
              Layer.provideMerge(Checks.Checks.layerMemory),
              Layer.provide(BankSources.orderSource(psu, { pageSize: 50 })),
              Layer.provide(
                Layer.succeed(FundsCheckWorkflow.BalanceChecker)({
                  check: () => Effect.succeed({ answer: "APPR" as const })
                })
              ),
              Layer.provide(Layer.succeed(Sweep.SweepSettings)({ ...settings, consents: [{ key: info.clientId }] })),
              Layer.provideMerge(client)
            )
          )
        )
        const unattended = (yield* journal.entries).filter(
          (e) => e.path.endsWith("/standingOrder") && e.headers["psu-last-logged-time"] === undefined
        )
        const pages = unattended.map((e) => (JSON.parse(e.body) as { page?: number }).page ?? 0)
        // pages 0, 1 (502), then only 1 and 2 again: page 0 is never fetched twice
        assert.deepStrictEqual(pages, [0, 1, 1, 2])
        assert.deepStrictEqual(used, [unattended.length])
        assert.deepStrictEqual(summary.consents, [
          { consent: info.clientId, planned: expected.length, pages: 3, tries: 2 }
        ])
        assert.isAbove(expected.length, 10)
      }).pipe(Effect.scoped),
    60_000
  )

  it.effect(
    "the checks' database away for longer than the reuse age of a listing: the sweep's next try lists nothing again",
    () =>
      Effect.gen(function* () {
        yield* TestClock.setTime(Date.UTC(2026, 10, 2, 7))
        const bank = yield* Layer.build(Sandbox.layer({ listingDay: Fixtures.baseDate }))
        const info = Context.get(bank, Sandbox.SandboxInfo)
        const journal = Context.get(bank, Journal.Journal)
        const client = BankClient.BankClient.layerOver(
          BankConfig.BankConfig.layer({
            environment: "sandbox",
            baseUrl: info.baseUrl,
            clientId: info.clientId,
            clientSecret: info.clientSecret
          }),
          BankTransport.BankTransport.layerUndici(),
          BudgetStore.BudgetStore.layerMemory
        )
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
          const sweep = yield* Effect.forkChild(Sweep.sweepNow(day))
          while (sweep.pollUnsafe() === undefined) {
            yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 20)))
            yield* TestClock.adjust("10 seconds")
          }
          const summary = yield* Fiber.join(sweep)
          const used = (yield* (yield* Budget.Budget).usages).map((u) => u.used)
          return { summary, used }
        }).pipe(
          Effect.provide(
            Layer.mergeAll(FundsCheckWorkflow.layer, Sweep.layer).pipe(
              Layer.provideMerge(WorkflowEngine.layerMemory),
              Layer.provideMerge(flaky),
              Layer.provide(BankSources.orderSource(psu, { pageSize: 50 })),
              Layer.provide(
                Layer.succeed(FundsCheckWorkflow.BalanceChecker)({
                  check: () => Effect.succeed({ answer: "APPR" as const })
                })
              ),
              Layer.provide(
                Layer.succeed(Sweep.SweepSettings)({
                  ...settings,
                  consents: [{ key: info.clientId }],
                  retry: { initial: "5 minutes", max: "5 minutes", tries: 3 }
                })
              ),
              Layer.provideMerge(client)
            )
          )
        )
        const unattended = (yield* journal.entries).filter(
          (e) => e.path.endsWith("/standingOrder") && e.headers["psu-last-logged-time"] === undefined
        )
        assert.strictEqual(refused, 2)
        assert.strictEqual(summary.consents[0]?.tries, 2)
        assert.isAbove(summary.consents[0]?.planned ?? 0, 10)
        assert.strictEqual(summary.consents[0]?.failure, undefined)
        assert.strictEqual(summary.consents[0]?.pages, unattended.length)
        // the listing's pages were asked for once, by the first try; the budget counts them once
        const pages = unattended.map((e) => (JSON.parse(e.body) as { page?: number }).page ?? 0)
        assert.deepStrictEqual(pages, [...new Set(pages)])
        assert.deepStrictEqual(used, [unattended.length])
      }).pipe(Effect.scoped),
    60_000
  )
})
