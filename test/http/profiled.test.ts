/**
 * The listing of a profile other than the seed bank's (COBS), over real loopback HTTP against the mock bank playing
 * COBS: an unattended listing is shared as the seed bank's is — callers asking for the same consent's listing at once
 * share one run, and pay for it once.
 */
import { assert, describe, it } from "@effect/vitest"
import { Profile } from "@tppkit/core"
import { BankClient, TokenService } from "@tppkit/http"
import { Context, Effect, Layer, Redacted, Stream } from "effect"
import { bankOf, customerTokens } from "../sandbox/support.ts"
import { cobsClient } from "./cobsClient.ts"

const psu = { ipAddress: "203.0.113.7", deviceOs: "server", userAgent: "tppkit-fleet/1" }

describe("the profiled listing (COBS)", () => {
  it.live(
    "two callers asking for the same consent's unattended listing at once share one run: its pages asked once",
    () =>
      Effect.gen(function* () {
        const { info, journal } = yield* bankOf({ profile: Profile.cobs })
        const services = yield* Layer.build(cobsClient(info))
        const client = Context.get(services, BankClient.BankClient)
        const token = TokenService.fromSca(
          "sandbox",
          Redacted.make((yield* Effect.promise(() => customerTokens(info))).access_token)
        )
        const listing = Stream.runCollect(client.standingOrders({ psu, token, consentKey: "cz-1", pageSize: 50 }))
        const [a, b] = yield* Effect.all([listing, listing], { concurrency: 2 })
        const pages = (yield* journal.entries).filter((e) => e.path.startsWith("/my/standingorders?"))
        // one listing of 2 pages reached the bank, and both callers have every page of it
        assert.strictEqual(pages.length, 2)
        assert.strictEqual(a.length, 2)
        assert.deepStrictEqual(
          b.map((p) => p.body.records?.map((r) => r.id)),
          a.map((p) => p.body.records?.map((r) => r.id))
        )
        // a third caller within the reuse age is given the listing without a request
        const c = yield* listing
        assert.strictEqual(c.length, 2)
        assert.strictEqual((yield* journal.entries).filter((e) => e.path.startsWith("/my/standingorders?")).length, 2)
        assert.deepStrictEqual(
          c.map((p) => p.body.records?.map((r) => r.read?._tag)),
          a.map((p) => p.body.records?.map((r) => r.read?._tag))
        )
      }).pipe(Effect.scoped)
  )
})
