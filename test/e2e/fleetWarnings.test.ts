/**
 * The fleet warns before money runs short and says what changed (issue 39), end to end on the mock bank's days: a
 * fleet with stored balances sweeps Monday 2026-11-16 and Tuesday 11-17 (`tppkit worker --today D --once
 * --days-before 6`, a mock bank listing as of each day, its orders as given). Between the two days the bank's listing
 * adds an order, changes an amount and moves a `nextDate` off the engine's date, and the account runs short on
 * Tuesday's 6th working day. The receiver gets `standing_order.created`, `.changed`, `.next_date_moved` and
 * `payment.at_risk` once each, every request verified with the `standardwebhooks` package; that payment's check (6
 * working days ahead) answers DECL and comes as `payment.at_risk_confirmed`, referring to the first; the consent 3
 * days from its end raises `consent.expiring`. `tppkit changes` lists the feed, `worker status` warns of the payment
 * (with the balance's age), the changes and the consent, and flags the balance by `--balance-max-age`; a queue read
 * that stopped shows `stalled`.
 */

import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, assert, describe, it } from "@effect/vitest"
import { LocalDate } from "@tppkit/core"
import { Fixtures, Personality, Sandbox } from "@tppkit/sandbox"
import { Consents, Database, Webhook } from "@tppkit/worker"
import { Context, Effect, Exit, Layer, Redacted, Scope } from "effect"
import { SqlClient } from "effect/sql"
import { healthyRunner, request } from "../worker/clusterQueue.ts"
import { embeddedDb } from "../worker/pg.ts"
import { tppkit, workerOnce } from "./harness.ts"
import { receiver, verifies } from "./webhookReceiver.ts"

const db = embeddedDb()
const secret = Redacted.value(Webhook.makeSecret())
const bankScope = Scope.makeUnsafe()
const dir = mkdtempSync(join(tmpdir(), "tppkit-fleet-warnings-"))
afterAll(async () => {
  await Effect.runPromise(Scope.close(bankScope, Exit.void))
  rmSync(dir, { recursive: true, force: true })
})

const base = Fixtures.generate(1)
const account = base.consents[0]!
const creditor = "SK0809000000000123123123"

/** A monthly order of the account, as the bank lists it. */
const monthly = (orderId: string, startDate: string, value: number, nextDate?: string): Fixtures.StandingOrder => ({
  orderId,
  debtor: { name: "Fleet customer 001", iban: account.iban },
  creditor: { name: "Payee", iban: creditor },
  instructedAmount: { value, currency: "EUR" },
  frequency: "MNTH",
  startDate,
  ...(nextDate === undefined ? {} : { nextDate })
})

/** The bank's orders: Monday's, then from Tuesday on RENT 100 -> 120, NEW added, POWER's next date moved. */
const ordersOf = (day: "first" | "later"): ReadonlyArray<Fixtures.StandingOrder> =>
  day === "first"
    ? [
        monthly("SO-RENT", "2026-01-18", 100),
        monthly("SO-CAR", "2026-01-25", 400),
        monthly("SO-POWER", "2026-01-15", 20, "2026-12-15")
      ]
    : [
        monthly("SO-RENT", "2026-01-18", 120),
        monthly("SO-CAR", "2026-01-25", 400),
        monthly("SO-POWER", "2026-01-15", 20, "2026-12-18"),
        monthly("SO-NEW", "2026-11-20", 30)
      ]

/** A mock bank listing as of `day`; the account holds 200.00 at the bank (the car's 400.00 is declined). */
const bankOn = async (day: string, orders: ReadonlyArray<Fixtures.StandingOrder>) => {
  const fixtures: Fixtures.Fixtures = {
    ...base.fixtures,
    accounts: base.fixtures.accounts.map((a) => ({ ...a, balance: "200.00" })),
    standingOrders: orders
  }
  const bank = await Effect.runPromise(
    Layer.buildWithScope(
      Sandbox.layer({ fixtures, listingDay: LocalDate.parseUnsafe(day), personality: Personality.asGiven }),
      bankScope
    )
  )
  return Context.get(bank, Sandbox.SandboxInfo)
}

describe("the fleet warns ahead and says what changed", { timeout: 120_000 }, () => {
  it("two days of sweeps: changes, a payment at risk confirmed by its check, a consent near its end, stalled", async () => {
    const hook = await receiver(() => 204)
    try {
      const url = await Effect.runPromise(db.freshUrl())
      // the consent, valid until Friday 2026-11-20 (3 days after Tuesday)
      await Effect.runPromise(
        Consents.add({ key: account.key, iban: account.iban, validUntil: "2026-11-20" }).pipe(
          Effect.provide(Database.layer(url)),
          Effect.scoped
        )
      )
      // what the user knows: 520.00 on the account at the start of Monday
      const balances = join(dir, "balances.json")
      writeFileSync(
        balances,
        JSON.stringify([{ iban: account.iban, currency: "EUR", amount: "520.00", date: "2026-11-16" }])
      )
      const sweep = async (day: string, orders: ReadonlyArray<Fixtures.StandingOrder>) => {
        const info = await bankOn(day, orders)
        const run = await tppkit(
          workerOnce(
            Redacted.value(url),
            info,
            day,
            "--days-before",
            "6",
            "--balances",
            balances,
            "--webhook",
            hook.url
          ),
          {
            env: {
              TPPKIT_CLIENT_SECRET: Redacted.value(info.clientSecret),
              TPPKIT_WEBHOOK_SECRET: secret,
              TPPKIT_WORKER_POLL_MS: "250",
              TPPKIT_WEBHOOK_POLL_MS: "100"
            },
            timeoutMs: 60_000
          }
        )
        assert.strictEqual(run.code, 0, run.stderr)
      }
      // Monday: the car's payment is beyond the checks' 6 working days; Tuesday: it is checked at once
      await sweep("2026-11-16", ordersOf("first"))
      await sweep("2026-11-17", ordersOf("later"))

      // each request as received: its event, and whether standardwebhooks verifies it
      const got = hook.got.map((g) => {
        const event = JSON.parse(g.body) as { type: string; data: Record<string, unknown> }
        return { id: g.id, type: event.type, data: event.data, verified: verifies(secret, g) }
      })
      assert.isTrue(
        got.every((g) => g.verified),
        "every request verifies with standardwebhooks"
      )
      const of = (type: string) => {
        const seen = new Map<string, (typeof got)[number]>()
        for (const g of got) if (g.type === type) seen.set(g.id, g)
        return [...seen.values()]
      }
      const created = of("standing_order.created")
      const changed = of("standing_order.changed")
      const moved = of("standing_order.next_date_moved")
      const atRisk = of("payment.at_risk")
      assert.deepStrictEqual(
        [created, changed, moved, atRisk].map((events) => events.map((e) => e.data.orderId)),
        [["SO-NEW"], ["SO-RENT"], ["SO-POWER"], ["SO-CAR"]]
      )
      assert.deepStrictEqual(changed[0]?.data.changes, [{ field: "amount", before: "100 EUR", after: "120 EUR" }])
      assert.deepStrictEqual(
        [moved[0]?.data.before, moved[0]?.data.after, moved[0]?.data.engine],
        ["2026-12-15", "2026-12-18", "2026-12-15"]
      )
      assert.strictEqual(of("standing_order.removed").length, 0)
      // the car's payment on Wednesday 11-25, the 6th working day after Tuesday: 520 - 120 - 30 - 400
      const risk = atRisk[0]!.data
      assert.deepStrictEqual(
        [risk.sweepDay, risk.executionDate, risk.closing, risk.reason, risk.balanceDate, risk.balanceAgeDays],
        ["2026-11-17", "2026-11-25", "-30", "zero", "2026-11-16", 1]
      )
      // its check answers DECL: confirmed, referring to the first
      const confirmed = of("payment.at_risk_confirmed")
      assert.deepStrictEqual(
        confirmed.map((c) => [c.data.atRiskId, c.data.answer]),
        [[atRisk[0]!.id, "DECL"]]
      )
      assert.strictEqual(of("payment.at_risk_contradicted").length, 0)
      const expiring = of("consent.expiring").map((e) => [e.data.notice, e.data.daysLeft, e.data.day])
      assert.deepStrictEqual(expiring, [
        [14, 4, "2026-11-16"],
        [3, 3, "2026-11-17"]
      ])

      // the change feed on the command line
      const env = { TPPKIT_DATABASE_URL: Redacted.value(url) }
      const changes = await tppkit(["changes", "--since", "2026-11-16", "--format", "json"], { env })
      assert.strictEqual(changes.code, 0, changes.stderr)
      assert.deepStrictEqual(
        (JSON.parse(changes.stdout) as ReadonlyArray<{ type: string; orderId: string }>)
          .map((c) => [c.type, c.orderId])
          .sort(),
        [
          ["standing_order.changed", "SO-RENT"],
          ["standing_order.next_date_moved", "SO-POWER"],
          ["standing_order.created", "SO-NEW"]
        ].sort()
      )

      // nothing of it spent a listing: the budget counts the two sweeps' one page each (on the bank's day)
      const [budget] = await Effect.runPromise(
        Effect.flatMap(
          SqlClient.SqlClient,
          (sql) => sql<{ used: number }>`SELECT sum(used)::int AS used FROM tppkit_budget`
        ).pipe(Effect.provide(Database.layer(url)), Effect.scoped)
      )
      assert.strictEqual(Number(budget?.used), 2)

      // a queue whose read position stopped while a runner looks healthy
      await Effect.runPromise(
        Effect.all([request(Date.now() - 300_000, 1), healthyRunner("127.0.0.1:1")]).pipe(
          Effect.provide(Database.layer(url)),
          Effect.scoped
        )
      )
      const status = await tppkit(["worker", "status", "--balance-max-age", "0"], { env })
      assert.strictEqual(status.code, 0, status.stderr)
      const lines = status.stdout.split("\n")
      assert.deepStrictEqual(
        lines.filter((l) => l.length > 100),
        []
      )
      const text = status.stdout.replace(/\n {2,4}/g, " ")
      assert.match(text, /Payments at risk ahead of 2026-11-17 \(1\):/)
      assert.match(text, /2026-11-25 SO-CAR 400\.00 EUR from \S+: closing -30\.00 \(at or below zero\)/)
      assert.match(text, /balance of 2026-11-16, 1 day old; check: DECL/)
      assert.match(text, /fleet-001: valid until 2026-11-20, 3 days left/)
      assert.match(text, /Standing orders changed since 2026-11-11 \(3\):/)
      assert.match(text, /Balances older than 0 days on 2026-11-17 \(--balance-max-age\): \S+ of 2026-11-16 \(1 day\)/)
      assert.match(text, /Fleet: stalled since/)
    } finally {
      await hook.close()
    }
  })
})
