/**
 * Details within the budget, over real loopback HTTP against the mock bank playing COBS: ten orders behind a daily
 * limit of 4 unattended calls are complete after the days `Details.plan` says, and the mock bank's journal shows no
 * day over the limit; details read once are kept and not asked again while the list item stays the same.
 */
import { it } from "@effect/vitest"
import { Profile } from "@tppkit/core"
import { Details, TokenService } from "@tppkit/http"
import { Effect, Layer, Redacted } from "effect"
import { TestClock } from "effect/testing"
import { describe, expect } from "vitest"
import { bankAt, customerTokens, faulting } from "../sandbox/support.ts"
import { cobsClient, tenOrders as fixtures } from "./cobsClient.ts"

describe("Details", () => {
  it("plans the days: the list's own call comes first each day", () => {
    expect(Details.plan(10, 4, 1)).toBe(4)
    expect(Details.plan(9, 4, 1)).toBe(3)
    expect(Details.plan(0, 4, 1)).toBe(0)
    expect(Details.plan(3, 1, 1)).toBe(Number.POSITIVE_INFINITY)
  })

  it.effect("ten COBS orders behind 4 unattended calls a day are complete after the planned days, none over", () =>
    Effect.scoped(
      Effect.gen(function* () {
        const { info, clock, journal } = yield* bankAt(Date.parse("2026-12-01T08:00:00Z"), {
          profile: Profile.cobs,
          fixtures
        })
        const stack = cobsClient(info)
        const services = yield* Layer.build(stack)
        const psu = { ipAddress: "203.0.113.7", deviceOs: "server", userAgent: "tppkit-fleet/1" }
        const days = Details.plan(fixtures.standingOrders.length, Profile.cobs.unattended.dailyLimit, 1)
        const perDay: Array<{ fetched: number; pending: number }> = []
        for (let day = 0; day < days; day++) {
          // the customer's token of the day (an hour long; a refresh token would do the same)
          const access = (yield* Effect.promise(() => customerTokens(info))).access_token
          const token = TokenService.fromSca("sandbox", Redacted.make(access))
          const listing = yield* Details.list({ psu, token, maxAge: 0 }).pipe(Effect.provide(services))
          perDay.push({ fetched: listing.fetched.length, pending: listing.pending.length })
          if (day === days - 1) {
            expect(listing.pending).toEqual([])
            expect(listing.orders.every((o) => o.read?._tag === "Order")).toBe(true)
          }
          yield* TestClock.adjust("1 day")
          clock.adjustUnsafe(86_400_000)
        }
        expect(perDay).toEqual([
          { fetched: 3, pending: 7 },
          { fetched: 3, pending: 4 },
          { fetched: 3, pending: 1 },
          { fetched: 1, pending: 0 }
        ])
        // the mock bank's own count: unattended calls per day, never over 4, and each detail asked once
        const calls = (yield* journal.entries).filter((e) => e.path.startsWith("/my/standingorders"))
        const byDay = new Map<string, number>()
        for (const e of calls) {
          expect(e.outcome).toBe("ok:unattended")
          byDay.set(e.at.slice(0, 10), (byDay.get(e.at.slice(0, 10)) ?? 0) + 1)
        }
        expect([...byDay.values()]).toEqual([4, 4, 4, 2])
        const details = calls.filter((e) => e.path.startsWith("/my/standingorders/")).map((e) => e.path)
        expect(new Set(details).size).toBe(10)
        expect(details.length).toBe(10)
      })
    )
  )

  it.effect(
    "a detail call failing part-way (resume): the next attempt asks for neither the list nor the details kept",
    () =>
      Effect.scoped(
        Effect.gen(function* () {
          const { info, journal } = yield* bankAt(Date.parse("2026-12-01T08:00:00Z"), {
            profile: Profile.cobs,
            fixtures
          })
          // the second detail asked for is answered 502 once (an unattended detail is never retried)
          let details = 0
          const transport = faulting((request) =>
            new URL(request.url).pathname.startsWith("/my/standingorders/") && ++details === 2 ? "502" : undefined
          )
          const services = yield* Layer.build(cobsClient(info, transport))
          const psu = { ipAddress: "203.0.113.7", deviceOs: "server", userAgent: "tppkit-fleet/1" }
          const access = (yield* Effect.promise(() => customerTokens(info))).access_token
          const token = TokenService.fromSca("sandbox", Redacted.make(access))
          const first = yield* Effect.flip(
            Details.list({ psu, token, maxAge: 0, resume: true }).pipe(Effect.provide(services))
          )
          expect(first.operation).toBe("standingOrder")
          expect(first.reason._tag).toBe("ServerError")
          const second = yield* Details.list({ psu, token, maxAge: 0, resume: true }).pipe(Effect.provide(services))
          const calls = (yield* journal.entries).filter((e) => e.path.startsWith("/my/standingorders"))
          const paths = calls.map((e) => e.path.replace(/\?.*/, ""))
          // the list once, detail 1, detail 2 (502); then detail 2 again only: the day's 4 calls
          expect(paths.length).toBe(4)
          expect(paths.filter((p) => p === "/my/standingorders")).toHaveLength(1)
          expect(paths[3]).toBe(paths[2])
          expect(second.fetched).toEqual([paths[3]?.slice("/my/standingorders/".length)])
          expect(second.pending).toHaveLength(8)
          expect(second.orders).toHaveLength(10)
          expect(second.pages).toBe(1)
        })
      ),
    30_000
  )
})
