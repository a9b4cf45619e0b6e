/**
 * COBS's balance check asked again, over real loopback HTTP against the mock bank playing COBS: its
 * `exchangeIdentification` names one query and the bank refuses one it has seen (`RF01`), so a request sent again
 * after its answer was lost carries a fresh id, and a new call under an id the bank recorded is asked once more under
 * a fresh one.
 */
import { assert, describe, it } from "@effect/vitest"
import { type Currency, Iban, Money, Profile } from "@tppkit/core"
import { BankClient, BankTransport } from "@tppkit/http"
import { Fixtures, type Journal } from "@tppkit/sandbox"
import { Context, Effect, Layer } from "effect"
import { bankOf } from "../sandbox/support.ts"
import { cobsClient } from "./cobsClient.ts"

const psu = { ipAddress: "203.0.113.7", deviceOs: "server", userAgent: "tppkit-fleet/1" }

/** The ids of the balance checks the bank received, in order. */
const idsOf = (entries: ReadonlyArray<Journal.Entry>) =>
  entries
    .filter((e) => e.path.endsWith("/balanceCheck"))
    .map((e) => (JSON.parse(e.body) as { exchangeIdentification: string }).exchangeIdentification)

describe("COBS exchangeIdentification: one per request", () => {
  it.live("an answer lost after the bank recorded the id: the retry asks under a fresh id and is answered", () =>
    Effect.gen(function* () {
      const { info, journal } = yield* bankOf({ profile: Profile.cobs })
      // the first balance check reaches the bank, which records its id and answers; the answer is lost (the
      // connection reset, the mock bank's `reset` fault on the same request sent once more)
      let lost = 0
      const losing = Layer.effect(
        BankTransport.BankTransport,
        Effect.map(Effect.service(BankTransport.BankTransport), (inner) =>
          BankTransport.BankTransport.of({
            send: (request, timeout, maxBodyBytes) =>
              request.url.endsWith("/balanceCheck") && lost++ === 0
                ? Effect.andThen(
                    inner.send(request, timeout, maxBodyBytes),
                    inner.send(
                      { ...request, headers: { ...request.headers, "x-sandbox-fault": "reset" } },
                      timeout,
                      maxBodyBytes
                    )
                  )
                : inner.send(request, timeout, maxBodyBytes)
          })
        )
      ).pipe(Layer.provide(BankTransport.BankTransport.layerUndici()))
      const client = Context.get(yield* Layer.build(cobsClient(info, losing)), BankClient.BankClient)
      const check = (id: string) =>
        client.balanceCheck(
          {
            instructionIdentification: id,
            iban: Iban.parseUnsafe(Fixtures.ibans.eurBranch),
            amount: { value: Money.parseUnsafe("1.00"), currency: "EUR" as Currency.CurrencyCode }
          },
          { psu }
        )
      const first = yield* check("SO-0001/2026-12-01")
      assert.strictEqual(first.body.response, "APPR")
      const ids = idsOf(yield* journal.entries)
      // the caller's id (recorded), the same request whose answer was lost, then the retry under a fresh id
      assert.strictEqual(ids.length, 3)
      assert.deepStrictEqual(ids.slice(0, 2), ["SO-0001/2026-12-01", "SO-0001/2026-12-01"])
      assert.match(ids[2] ?? "", /^[0-9A-Z]{18}$/)

      // a new call under an id the bank recorded (the fleet's check of the payment tried again after the answer was
      // lost for good): RF01 to the caller's id, then asked once more under a fresh id
      const again = yield* check("SO-0001/2026-12-01")
      assert.strictEqual(again.body.response, "APPR")
      assert.strictEqual(again.requests, 2)
      const all = idsOf(yield* journal.entries)
      assert.strictEqual(all.length, 5)
      assert.strictEqual(all[3], "SO-0001/2026-12-01")
      assert.match(all[4] ?? "", /^[0-9A-Z]{18}$/)
      assert.strictEqual(new Set(all.slice(2)).size, 3)
    }).pipe(Effect.scoped)
  )
})
