/**
 * `BankRate` (issue 43): the fleet's rate for a bank. Slots taken at once by two workers' pools from the one row are
 * distinct and at least the interval apart, on the database's clock; every request of a rated transport takes a slot
 * before it is sent.
 */
import { assert, describe, it } from "@effect/vitest"
import { BankTransport } from "@tppkit/http"
import { BankRate } from "@tppkit/worker"
import * as Database from "@tppkit/worker/Database"
import { Context, Effect, Layer } from "effect"
import { embeddedDb } from "./pg.ts"

const db = embeddedDb()

describe("BankRate", () => {
  it("an interval of whole milliseconds, at least one", () => {
    assert.strictEqual(BankRate.intervalOf(20), 50)
    assert.strictEqual(BankRate.intervalOf(3), 333)
    assert.strictEqual(BankRate.intervalOf(5000), 1)
  })

  db.live(
    "two workers at 50 requests a second: every slot distinct and 20 ms after the one before, fleet-wide",
    (url) =>
      Effect.gen(function* () {
        // two pools on the fleet's database, as two workers have
        const worker = () =>
          Layer.build(BankRate.BankRate.layerSql(50, "https://bank.example").pipe(Layer.provide(Database.layer(url))))
        const a = Context.get(yield* worker(), BankRate.BankRate)
        const b = Context.get(yield* worker(), BankRate.BankRate)
        const slots = yield* Effect.all(
          [...Array.from({ length: 10 }, () => a.acquire), ...Array.from({ length: 10 }, () => b.acquire)],
          { concurrency: "unbounded" }
        )
        const sorted = [...slots].sort((x, y) => x - y)
        for (let i = 1; i < sorted.length; i++) assert.isAtLeast(sorted[i]! - sorted[i - 1]!, 20)
      }).pipe(Effect.scoped),
    60_000
  )

  it.effect("a rated transport takes a slot before each request it sends", () =>
    Effect.gen(function* () {
      const order: Array<string> = []
      const inner = Layer.succeed(BankTransport.BankTransport)(
        BankTransport.BankTransport.of({
          send: () => Effect.sync(() => order.push("send")).pipe(Effect.andThen(Effect.die("not a real bank")))
        })
      )
      const rate = Layer.succeed(BankRate.BankRate)(
        BankRate.BankRate.of({ acquire: Effect.sync(() => order.push("slot")).pipe(Effect.as(0)) })
      )
      const transport = Context.get(
        yield* Layer.build(BankRate.transport(inner).pipe(Layer.provide(rate))),
        BankTransport.BankTransport
      )
      for (let i = 0; i < 3; i++) {
        yield* Effect.exit(transport.send({ url: "http://bank", headers: {}, body: "" } as never, "1 second" as never))
      }
      assert.deepStrictEqual(order, ["slot", "send", "slot", "send", "slot", "send"])
    }).pipe(Effect.scoped)
  )
})
