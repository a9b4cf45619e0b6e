import { assert, describe, it } from "@effect/vitest"
import { BankGate } from "@tppkit/worker"
import * as Database from "@tppkit/worker/Database"
import { Context, Effect, Fiber, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { TestClock } from "effect/testing"
import { embeddedDb } from "./pg.ts"

const db = embeddedDb()

const settings: BankGate.Settings = {
  threshold: 3,
  initial: "10 seconds",
  max: "40 seconds",
  poll: "1 second",
  probeLease: "1 minute"
}

/** Whether `pass` is still waiting after the fibers had their turn. */
const waiting = (fiber: Fiber.Fiber<unknown>) =>
  Effect.map(
    Effect.andThen(
      Effect.yieldNow,
      Effect.sync(() => fiber.pollUnsafe())
    ),
    (exit) => exit === undefined
  )

describe("BankGate", () => {
  it.effect("opens after consecutive transient failures, lets one probe through once its wait has passed", () =>
    Effect.gen(function* () {
      const gate = yield* BankGate.BankGate
      assert.deepStrictEqual(yield* gate.pass, { probe: false })
      yield* gate.record("transient")
      yield* gate.record("transient")
      // an answer in between: the failures were not consecutive
      yield* gate.record("answer")
      yield* gate.record("transient")
      yield* gate.record("transient")
      assert.deepStrictEqual(yield* gate.pass, { probe: false })
      yield* gate.record("transient")
      // open: nobody passes for 10 s
      const first = yield* Effect.forkChild(gate.pass)
      const second = yield* Effect.forkChild(gate.pass)
      yield* TestClock.adjust("9 seconds")
      assert.isTrue(yield* waiting(first))
      yield* TestClock.adjust("1 second")
      // one of them is the probe, the other waits for its outcome
      const probe = yield* Fiber.join(first)
      assert.deepStrictEqual(probe, { probe: true })
      assert.isTrue(yield* waiting(second))
      // the probe failed: open again for twice the wait
      yield* gate.record("transient")
      yield* TestClock.adjust("19 seconds")
      assert.isTrue(yield* waiting(second))
      yield* TestClock.adjust("1 second")
      assert.deepStrictEqual(yield* Fiber.join(second), { probe: true })
      // its answer closes the breaker: everyone passes at once
      yield* gate.record("answer")
      assert.deepStrictEqual(yield* gate.pass, { probe: false })
      assert.deepStrictEqual(yield* gate.pass, { probe: false })
    }).pipe(Effect.provide(BankGate.BankGate.layerMemory(settings)))
  )

  it.effect("an answer to a request sent before the latest failure closes nothing; one sent after it does", () =>
    Effect.gen(function* () {
      const gate = yield* BankGate.BankGate
      yield* TestClock.setTime(1_000)
      const before = 500
      // the bank went down: two failures, then an answer to a request it took before (sent at 500)
      yield* gate.record("transient")
      yield* gate.record("transient")
      yield* gate.record("answer", before)
      // the failures are still consecutive: the third opens the breaker
      yield* gate.record("transient")
      const held = yield* Effect.forkChild(gate.pass)
      assert.isTrue(yield* waiting(held))
      // more old answers while it is down keep it open
      yield* gate.record("answer", before)
      assert.isTrue(yield* waiting(held))
      // an answer to a request sent after the failures (the bank is back) closes it
      yield* TestClock.adjust("1 second")
      yield* gate.record("answer", 1_500)
      yield* TestClock.adjust("1 second")
      assert.deepStrictEqual(yield* Fiber.join(held), { probe: false })
    }).pipe(Effect.provide(BankGate.BankGate.layerMemory(settings)))
  )

  it.effect("a check that was not sent (nothing asked) neither opens nor closes the breaker", () =>
    Effect.gen(function* () {
      const gate = yield* BankGate.BankGate
      for (let i = 0; i < 10; i++) yield* gate.record("none")
      assert.deepStrictEqual(yield* gate.pass, { probe: false })
    }).pipe(Effect.provide(BankGate.BankGate.layerMemory(settings)))
  )

  db.live("is shared by the fleet in PostgreSQL: failures seen by one worker hold back the others, one probe", (url) =>
    Effect.gen(function* () {
      const fleet: BankGate.Settings = { ...settings, initial: "2 seconds", poll: "50 millis" }
      // two workers: two gates over one database, each with its own pool and its own reading of the breaker
      const gateOf = Effect.map(
        Layer.build(BankGate.BankGate.layerSql(fleet).pipe(Layer.provide(Database.layer(url, { maxConnections: 2 })))),
        (context) => Context.get(context, BankGate.BankGate)
      )
      const a = yield* gateOf
      const b = yield* gateOf
      assert.deepStrictEqual(yield* b.pass, { probe: false })
      for (let i = 0; i < 3; i++) yield* a.record("transient")
      // B holds its check back although the failures were A's (once it has read the breaker again: a poll later)
      yield* Effect.sleep("100 millis")
      const heldB = yield* Effect.forkChild(b.pass)
      const heldA = yield* Effect.forkChild(a.pass)
      yield* Effect.sleep("300 millis")
      assert.isTrue(yield* waiting(heldB))
      assert.isTrue(yield* waiting(heldA))
      // once the wait has passed, exactly one of the two gets the probe; the other waits for its outcome
      while ((yield* waiting(heldA)) && (yield* waiting(heldB))) yield* Effect.sleep("20 millis")
      yield* Effect.sleep("300 millis")
      const [probe, other, probeGate] = (yield* waiting(heldB)) ? [heldA, heldB, a] : ([heldB, heldA, b] as const)
      assert.deepStrictEqual(yield* Fiber.join(probe), { probe: true })
      assert.isTrue(yield* waiting(other))
      // an answer to a request sent before the failures leaves the fleet's breaker open; the probe's answer opens
      // the bank to both
      yield* probeGate.record("answer", 0)
      yield* Effect.sleep("300 millis")
      assert.isTrue(yield* waiting(other))
      yield* probeGate.record("answer")
      assert.deepStrictEqual(yield* Fiber.join(other), { probe: false })
    }).pipe(Effect.scoped)
  )

  it.effect("one breaker per bank: a COBS bank's outage holds back no check of the SBAS bank", () =>
    Effect.gen(function* () {
      const gates = yield* BankGate.BankGate
      const cobs = gates.bank("cobs")
      const sbas = gates.bank("sbas")
      for (let i = 0; i < 3; i++) yield* cobs.record("transient")
      const held = yield* Effect.forkChild(cobs.pass)
      assert.isTrue(yield* waiting(held))
      assert.deepStrictEqual(yield* sbas.pass, { probe: false })
      assert.deepStrictEqual(yield* gates.pass, { probe: false })
      // the same bank's gate is one breaker, however often it is asked for
      assert.strictEqual(gates.bank("cobs"), cobs)
      yield* TestClock.adjust("10 seconds")
      assert.deepStrictEqual(yield* Fiber.join(held), { probe: true })
    }).pipe(Effect.provide(BankGate.BankGate.layerMemory(settings)))
  )

  db.live(
    "a database of the previous shape (one row for every bank): migrated to one row per bank, its state kept",
    (url) =>
      Effect.gen(function* () {
        const context = yield* Layer.build(Database.layer(url, { maxConnections: 2 }))
        const sql = Context.get(context, SqlClient.SqlClient)
        // as the previous version left it: one row per gate name, open until far ahead
        yield* sql`DROP TABLE tppkit_bank_gate`
        yield* sql`CREATE TABLE tppkit_bank_gate (
        name text PRIMARY KEY,
        failures integer NOT NULL DEFAULT 0,
        open_until double precision NOT NULL DEFAULT 0,
        wait_ms double precision NOT NULL DEFAULT 0,
        probe_until double precision NOT NULL DEFAULT 0,
        failed_at double precision NOT NULL DEFAULT 0
      )`
        const far = Date.now() + 3_600_000
        yield* sql`INSERT INTO tppkit_bank_gate (name, failures, open_until, wait_ms, failed_at)
        VALUES ('balance-check', 3, ${far}, 10000, ${Date.now()})`
        yield* Database.migrate.pipe(Effect.provideService(SqlClient.SqlClient, sql))
        yield* Database.migrate.pipe(Effect.provideService(SqlClient.SqlClient, sql))
        const rows = yield* sql<{ name: string; bank: string; failures: number }>`
        SELECT name, bank, failures FROM tppkit_bank_gate ORDER BY bank`
        assert.deepStrictEqual(
          rows.map((r) => [r.name, r.bank, Number(r.failures)]),
          [["balance-check", "", 3]]
        )
        const key = yield* sql<{ columns: string }>`
        SELECT string_agg(a.attname, ',' ORDER BY array_position(c.conkey, a.attnum)) AS columns
        FROM pg_constraint c JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = ANY (c.conkey)
        WHERE c.conrelid = 'tppkit_bank_gate'::regclass AND c.contype = 'p'`
        assert.strictEqual(key[0]?.columns, "name,bank")
        const gates = Context.get(
          yield* Layer.build(
            BankGate.BankGate.layerSql({ ...settings, poll: "10 millis" }).pipe(
              Layer.provide(Layer.succeed(SqlClient.SqlClient)(sql))
            )
          ),
          BankGate.BankGate
        )
        // the old row is the unnamed bank's, still open; the banks named start closed and keep their own rows
        const held = yield* Effect.forkChild(gates.pass)
        yield* Effect.sleep("50 millis")
        assert.isTrue(yield* waiting(held))
        yield* Fiber.interrupt(held)
        for (let i = 0; i < 3; i++) yield* gates.bank("cobs").record("transient")
        assert.deepStrictEqual(yield* gates.bank("sbas").pass, { probe: false })
        const heldCobs = yield* Effect.forkChild(gates.bank("cobs").pass)
        yield* Effect.sleep("50 millis")
        assert.isTrue(yield* waiting(heldCobs))
        yield* Fiber.interrupt(heldCobs)
        const after = yield* sql<{ bank: string; failures: number }>`
        SELECT bank, failures FROM tppkit_bank_gate ORDER BY bank`
        assert.deepStrictEqual(
          after.map((r) => [r.bank, Number(r.failures)]),
          [
            ["", 3],
            ["cobs", 3]
          ]
        )
      }).pipe(Effect.scoped)
  )
})
