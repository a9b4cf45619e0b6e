/**
 * A fleet-wide rate for a bank (`tppkit worker --bank-rate N`, issue 43): every request a worker sends to the bank
 * first takes the bank's next free slot, `1/N` seconds after the one before it, from one row of the fleet's database
 * (`tppkit_bank_rate`) on the database's own clock, so that all the fleet's workers together send at most N requests a
 * second however many there are and whatever their machines' clocks say. A request waits for its slot; nothing is
 * refused.
 *
 * @since 0.1.0
 */
import { BankTransport } from "@tppkit/http"
import { Clock, Context, Duration, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"

/** The gate every request to one bank passes: `acquire` waits for the request's slot and gives its instant. */
export class BankRate extends Context.Service<
  BankRate,
  {
    /** Waits until this request's slot (epoch milliseconds on the slot's clock), which it returns. */
    readonly acquire: Effect.Effect<number, SqlError>
  }
>()("@tppkit/worker/BankRate") {
  /** A rate of this process only (tests, one worker): `perSecond` requests a second. */
  static readonly layerMemory = (perSecond: number): Layer.Layer<BankRate> =>
    Layer.sync(BankRate, () => {
      const interval = intervalOf(perSecond)
      let next = Number.NEGATIVE_INFINITY
      return BankRate.of({
        acquire: Effect.flatMap(Clock.currentTimeMillis, (now) => {
          const slot = Math.max(next, now)
          next = slot + interval
          return Effect.as(Effect.sleep(Duration.millis(slot - now)), slot)
        })
      })
    })

  /**
   * The fleet's rate for the bank `name` (its identity, e.g. the base URL): `perSecond` requests a second shared by
   * every worker that uses the same name, slots taken from the row `name` of `tppkit_bank_rate` (made by
   * `Database.migrate`) in one statement each.
   */
  static readonly layerSql = (perSecond: number, name: string): Layer.Layer<BankRate, never, SqlClient.SqlClient> =>
    Layer.effect(
      BankRate,
      Effect.map(Effect.service(SqlClient.SqlClient), (sql) => {
        const interval = intervalOf(perSecond)
        return BankRate.of({
          acquire: Effect.gen(function* () {
            // the slot is the row's next instant or now, whichever is later, on the database's clock
            const rows = yield* sql<{ slot: string | number; now: string | number }>`
              WITH t AS (SELECT (extract(epoch FROM clock_timestamp()) * 1000)::bigint AS now)
              INSERT INTO tppkit_bank_rate (name, next_at) SELECT ${name}, t.now + ${interval} FROM t
              ON CONFLICT (name) DO UPDATE
                SET next_at = GREATEST(tppkit_bank_rate.next_at, (SELECT now FROM t)) + ${interval}
              RETURNING next_at - ${interval} AS slot, (SELECT now FROM t) AS now`
            const slot = Number(rows[0]?.slot ?? 0)
            const now = Number(rows[0]?.now ?? slot)
            if (slot > now) yield* Effect.sleep(Duration.millis(slot - now))
            return slot
          })
        })
      })
    )
}

/** The milliseconds between two slots at `perSecond` requests a second (whole milliseconds, at least 1). */
export const intervalOf = (perSecond: number): number => Math.max(1, Math.round(1000 / perSecond))

/** The DDL of the rate's table (idempotent). */
export const ddl: ReadonlyArray<string> = [
  `CREATE TABLE IF NOT EXISTS tppkit_bank_rate (name text PRIMARY KEY, next_at bigint NOT NULL)`
]

/**
 * A bank transport whose every request first takes its slot of the rate (`BankRate`): what a worker's bank client is
 * built over when the fleet has a rate for the bank. A rate store out of reach lets the request go (a fault of the
 * fleet's database is not the bank's, and the bank's own 429 still stops a burst).
 */
export const transport = (
  inner: Layer.Layer<BankTransport.BankTransport>
): Layer.Layer<BankTransport.BankTransport, never, BankRate> =>
  Layer.effect(
    BankTransport.BankTransport,
    Effect.gen(function* () {
      const rate = yield* BankRate
      const bank = yield* BankTransport.BankTransport
      return BankTransport.BankTransport.of({
        send: (request, timeout, maxBodyBytes) =>
          Effect.andThen(Effect.ignore(rate.acquire), bank.send(request, timeout, maxBodyBytes))
      })
    })
  ).pipe(Layer.provide(inner))
