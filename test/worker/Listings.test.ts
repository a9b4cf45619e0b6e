import { assert, describe, it } from "@effect/vitest"
import { Money, StandingOrder } from "@tppkit/core"
import { Listings } from "@tppkit/worker"
import { Effect, Layer, Option, Result } from "effect"
import { embeddedDb } from "./pg.ts"

const db = embeddedDb()

const order = (orderId: string, value: string) =>
  Result.getOrThrow(
    StandingOrder.decode({
      orderId,
      debtor: { name: "Jana Novakova", iban: "SK3112000000198742637541" },
      creditor: { iban: "SK0809000000000123123123" },
      instructedAmount: { value: Number(value), currency: "EUR" },
      startDate: "2026-01-02",
      frequency: "MNTH"
    })
  )

const page = (n: number, ids: ReadonlyArray<string>): Listings.Page => ({
  page: n,
  pageCount: 3,
  records: ids.length,
  orders: ids.map((id, i) => order(id, `${100 + i}.10`))
})

const contract = (name: string, store: () => Layer.Layer<Listings.Listings, unknown>) =>
  describe(`Listings (${name})`, () => {
    it.live(
      "keeps each page once, in page order; a complete listing is the latest of earlier days, and keeps the one before it",
      () =>
        Effect.gen(function* () {
          const listings = yield* Listings.Listings
          const id = Listings.listingId("consent-a", undefined, 100)
          yield* listings.keep(id, "2026-11-01", page(1, ["B"]))
          yield* listings.keep(id, "2026-11-01", page(0, ["A"]))
          // the first read wins
          yield* listings.keep(id, "2026-11-01", page(0, ["X"]))
          const kept = yield* listings.pages(id, "2026-11-01")
          assert.deepStrictEqual(
            kept.map((p) => [p.page, p.pageCount, p.orders.map((o) => o.orderId)]),
            [
              [0, 3, ["A"]],
              [1, 3, ["B"]]
            ]
          )
          // amounts read back exactly
          const amount = kept[0]?.orders[0]?.instructedAmount.value
          assert.strictEqual(amount === undefined ? undefined : Money.toPlainString(amount), "100.1")
          assert.isTrue(Option.isNone(yield* listings.latestComplete(id, "2026-11-02")))
          yield* listings.keep(id, "2026-11-01", page(2, ["C"]))
          yield* listings.complete(id, "2026-11-01")
          yield* listings.keep(id, "2026-11-02", page(0, ["A"]))
          const latest = yield* listings.latestComplete(id, "2026-11-02")
          assert.strictEqual(Option.getOrThrow(latest).day, "2026-11-01")
          assert.deepStrictEqual(
            Option.getOrThrow(latest).pages.flatMap((p) => p.orders.map((o) => o.orderId)),
            ["A", "B", "C"]
          )
          // not a listing of a later day, nor another listing's
          assert.isTrue(Option.isNone(yield* listings.latestComplete(id, "2026-11-01")))
          assert.isTrue(
            Option.isNone(yield* listings.latestComplete(Listings.listingId("consent-b", undefined, 100), "2026-11-02"))
          )
          // a newer complete listing keeps the last complete one before it (the change feed's), and removes the rest
          yield* listings.keep(id, "2026-11-02", page(1, ["B"]))
          yield* listings.keep(id, "2026-11-02", page(2, ["C"]))
          yield* listings.complete(id, "2026-11-02")
          assert.strictEqual(Option.getOrThrow(yield* listings.latestComplete(id, "2026-11-02")).day, "2026-11-01")
          assert.strictEqual((yield* listings.pages(id, "2026-11-01")).length, 3)
          assert.strictEqual(Option.getOrThrow(yield* listings.latestComplete(id, "2026-11-03")).day, "2026-11-02")
          // a day read in part is not kept once a later day completes
          yield* listings.keep(id, "2026-11-03", page(0, ["A"]))
          yield* listings.keep(id, "2026-11-04", page(0, ["A"]))
          yield* listings.keep(id, "2026-11-04", page(1, ["B"]))
          yield* listings.keep(id, "2026-11-04", page(2, ["C"]))
          yield* listings.complete(id, "2026-11-04")
          assert.deepStrictEqual(yield* listings.pages(id, "2026-11-01"), [])
          assert.deepStrictEqual(yield* listings.pages(id, "2026-11-03"), [])
          assert.strictEqual((yield* listings.pages(id, "2026-11-02")).length, 3)
          assert.strictEqual(Option.getOrThrow(yield* listings.latestComplete(id, "2026-11-04")).day, "2026-11-02")
        }).pipe(Effect.provide(store())),
      60_000
    )
  })

contract("memory", () => Listings.Listings.layerMemory)
contract("PostgreSQL", () => Listings.Listings.layerSql.pipe(Layer.provide(db.fresh())))
