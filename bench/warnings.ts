/**
 * The warnings ahead (issue 39): a day's sweep of 100,000 standing orders over 10,000 accounts (one consent each, 10
 * orders an account, monthly on every day of the month) with stored balances against the same sweep without them,
 * alternately in one process. The sweep is the fleet's (`Sweep.layer` on effect's in-memory workflow engine, the
 * check store in PostgreSQL, the durable checks started for every payment within two working days and answered APPR
 * at once); with balances the sweep's watcher (`Warnings.layerSql`) also compares each listing with the day
 * before's (1 % of the orders changed) and forecasts every account over 10 working days, one account in ten running
 * short (its payments raised at risk). Reported: wall and CPU time of each sweep (each on a new database), the ratio
 * (target ≤ 1.2×), the events kept, and this process's peak resident memory (target: under 400 MB).
 *
 * `pnpm exec node --conditions=@tppkit/source bench/warnings.ts`; BENCH_WARNINGS_ORDERS (default 100000),
 * BENCH_WARNINGS_ACCOUNTS (default 10000), BENCH_WARNINGS_RUNS (pairs, default 2; the order alternates).
 */
import { loadavg } from "node:os"
import { Calendar } from "@tppkit/core"
import { Checks, Database, EmbeddedDb, FundsCheckWorkflow, PlanSettings, Sweep, Warnings } from "@tppkit/worker"
import { Effect, Exit, Layer, Redacted, Scope } from "effect"
import { SqlClient } from "effect/sql"
import { WorkflowEngine } from "effect/workflow"
import * as WarningsData from "./warningsData.ts"

const ORDERS = Number(process.env.BENCH_WARNINGS_ORDERS ?? 100_000)
const ACCOUNTS = Number(process.env.BENCH_WARNINGS_ACCOUNTS ?? 10_000)
const RUNS = Number(process.env.BENCH_WARNINGS_RUNS ?? 2)
const day = "2026-11-16"

const { listings, balances } = WarningsData.make(ORDERS, ACCOUNTS, day)
const byKey = new Map(listings.map((l) => [l.key, l]))

const settings: Sweep.Settings = {
  consents: listings.map((l) => ({ key: l.key })),
  daysBefore: 2,
  calendar: Calendar.target,
  timeZone: "Europe/Bratislava",
  hour: 8
}

const source = Layer.succeed(Sweep.OrderSource)({
  list: (consent) =>
    Effect.sync(() => {
      const l = byKey.get(consent.key)!
      return { orders: l.today, pages: 1, previous: { day: "2026-11-13", orders: l.before } }
    })
})

let peakRss = 0
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss)
}, 100)

const sweepOn = (url: Redacted.Redacted<string>, watched: boolean) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* PlanSettings.claim({
      daysBefore: settings.daysBefore,
      calendar: "target",
      hour: settings.hour,
      timeZone: settings.timeZone,
      ...(watched ? { balances } : {})
    })
    const wallStart = performance.now()
    const cpuStart = process.cpuUsage()
    const summary = yield* Sweep.sweepNow(day)
    const cpu = process.cpuUsage(cpuStart)
    const wall = performance.now() - wallStart
    const [events] = yield* sql<{ n: number }>`SELECT count(*)::int AS n FROM tppkit_fleet_events`
    const planned = summary.consents.reduce((n, c) => n + c.planned, 0)
    return { wall, cpu: (cpu.user + cpu.system) / 1000, planned, events: Number(events?.n ?? 0) }
  }).pipe(
    Effect.provide(
      Layer.mergeAll(FundsCheckWorkflow.layer, Sweep.layer).pipe(
        Layer.provideMerge(watched ? Warnings.layerSql({ horizon: 10 }) : Layer.empty),
        Layer.provideMerge(WorkflowEngine.layerMemory),
        Layer.provideMerge(Checks.Checks.layerSql),
        Layer.provide(source),
        Layer.provide(
          Layer.succeed(FundsCheckWorkflow.BalanceChecker)({ check: () => Effect.succeed({ answer: "APPR" as const }) })
        ),
        Layer.provideMerge(Layer.succeed(Sweep.SweepSettings)(settings)),
        Layer.provideMerge(Database.layer(url, { maxConnections: 4 }))
      )
    ),
    Effect.scoped
  )

const scope = Scope.makeUnsafe()
const main = Effect.gen(function* () {
  const db = yield* Scope.provide(EmbeddedDb.start(), scope)
  let n = 0
  const fresh = () =>
    Effect.gen(function* () {
      const name = `warnings_${n++}`
      yield* Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(`CREATE DATABASE ${name}`)).pipe(
        Effect.provide(Database.layer(db.url)),
        Effect.scoped
      )
      return Redacted.make(Redacted.value(db.url).replace(/\/postgres$/, `/${name}`))
    })
  console.log(
    `warnings ahead: a sweep of ${ORDERS.toLocaleString("en")} orders over ${ACCOUNTS.toLocaleString("en")} accounts, without and with balances (load ${loadavg()[0]?.toFixed(1)})`
  )
  const ratios: Array<number> = []
  const cpuRatios: Array<number> = []
  for (let r = 0; r < RUNS; r++) {
    // the order alternates, so that neither side always runs on a warmer process
    const first = yield* sweepOn(yield* fresh(), r % 2 === 1)
    const second = yield* sweepOn(yield* fresh(), r % 2 === 0)
    const [without, withBalances] = r % 2 === 0 ? [first, second] : [second, first]
    ratios.push(withBalances.wall / without.wall)
    cpuRatios.push(withBalances.cpu / without.cpu)
    console.log(
      `  pair ${r + 1}: without ${without.wall.toFixed(0)} ms wall, ${without.cpu.toFixed(0)} ms CPU (${without.planned} checks); ` +
        `with ${withBalances.wall.toFixed(0)} ms wall, ${withBalances.cpu.toFixed(0)} ms CPU (${withBalances.events} events): ` +
        `${(withBalances.wall / without.wall).toFixed(2)}x wall, ${(withBalances.cpu / without.cpu).toFixed(2)}x CPU (load ${loadavg()[0]?.toFixed(1)})`
    )
  }
  console.log(
    `  with/without wall: ${ratios.map((x) => x.toFixed(2)).join(", ")}, CPU: ${cpuRatios.map((x) => x.toFixed(2)).join(", ")} (target <= 1.2); peak RSS of this process ${(peakRss / 2 ** 20).toFixed(0)} MB (target < 400)`
  )
})

await Effect.runPromise(main).finally(async () => {
  clearInterval(sampler)
  await Effect.runPromise(Scope.close(scope, Exit.void))
})
