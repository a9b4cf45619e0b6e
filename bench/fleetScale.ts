/**
 * A day's sweep at a TPP's scale (issue 43): the mock bank holding N consents (one account each, its own daily limit of
 * 4 unattended listing calls, `listingConsent: "account"`) of 1 to 4 pages of 10 orders (5, 15, 25, 35 orders in
 * turn), every answer delayed by the bank's latency (default 50 ms), one consent in `BENCH_SCALE_DUE_EVERY` (default
 * 10) with one payment due in the sweep's window, the rest yearly orders not due; the consents are rows of the fleet's
 * table (`tppkit_consents`), and 1, then 3 `tppkit worker --today 2026-11-02 --once` processes sweep the day
 * unattended (`TPPKIT_WORKER_PAGE_SIZE=10`) on a fresh database each. Reported per run: the listing phase (the first
 * consent's sweep workflow stored → the last one done, sampled from the database every 500 ms) and end to end,
 * each worker's share of the listings and of the balance checks (counted in each worker by a probe on undici's
 * diagnostics channel, bench/fleetScaleProbe.ts) against the mean, each worker's peak resident set (VmHWM), the most
 * list calls any consent got from the fleet (the daily limit is 4) and the fleet's own budget count, the bank
 * requests per second in the listing phase, the database's size and rows, and the CPU of workers, PostgreSQL and
 * the bench process (which holds the mock bank).
 *
 * `pnpm exec node --conditions=@tppkit/source bench/fleetScale.ts`; environment: BENCH_SCALE_CONSENTS (sizes, comma
 * separated, default 1000), BENCH_SCALE_WORKERS (fleet sizes, default "1,3"), BENCH_SCALE_LATENCY_MS (default 50),
 * BENCH_SCALE_DUE_EVERY (default 10), BENCH_SCALE_STATEMENTS (print the N statements called most, default 0). Not part of `pnpm bench` (a run of 10,000 consents takes minutes).
 */
import type { ChildProcess } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import { Iban } from "@tppkit/core"
import { Fixtures, Sandbox } from "@tppkit/sandbox"
import { Database } from "@tppkit/worker"
import { Context, Effect, Exit, Layer, Redacted, Scope } from "effect"
import { SqlClient } from "effect/sql"
import { workerOnce } from "../test/e2e/harness.ts"
import { children, exited, freshDatabase, query, startPostgres, tppkit, withSql } from "./fleetProcesses.ts"
import { cpuSampler, postgresCpuSampler, postmasterOf } from "./processStats.ts"

const sizes = (process.env.BENCH_SCALE_CONSENTS ?? "1000").split(",").map(Number)
const fleets = (process.env.BENCH_SCALE_WORKERS ?? "1,3").split(",").map(Number)
const latencyMs = Number(process.env.BENCH_SCALE_LATENCY_MS ?? 50)
const dueEvery = Number(process.env.BENCH_SCALE_DUE_EVERY ?? 10)
const topStatements = Number(process.env.BENCH_SCALE_STATEMENTS ?? 0)
const pageSize = 10
const day = "2026-11-02"
const work = mkdtempSync(join(tmpdir(), "tppkit-bench-scale-"))
const probe = join(import.meta.dirname, "fleetScaleProbe.ts")
const creditor = "AT637441793698604585"

/** Consent i's pages (1-4, in turn) and IBAN. */
const pagesOf = (i: number): number => 1 + (i % 4)
const ibanOf = (i: number): string => {
  const bban = `1200000000${String(i + 1).padStart(10, "0")}`
  return `SK${Iban.checkDigits("SK", bban)}${bban}`
}

/** The mock bank's data for `n` consents: one account each, 5, 15, 25 or 35 orders in turn. */
const fixturesOf = (n: number): Fixtures.Fixtures => {
  const accounts: Array<Fixtures.Account> = []
  const standingOrders: Array<Fixtures.StandingOrder> = []
  for (let i = 0; i < n; i++) {
    const iban = ibanOf(i)
    const owner = `Scale customer ${i + 1}`
    accounts.push({ iban, owner, currency: "EUR", balance: "50000.00", consent: { kind: "branch" } })
    const orders = pageSize * (pagesOf(i) - 1) + 5
    for (let k = 0; k < orders; k++) {
      const due = k === 0 && i % dueEvery === 0
      standingOrders.push({
        orderId: `S${i + 1}-${k + 1}`,
        debtor: { name: owner, iban },
        creditor: { name: "Payee", iban: creditor },
        instructedAmount: { value: 10 + (k % 90), currency: "EUR" },
        frequency: due ? "MNTH" : "YEAR",
        startDate: due ? "2026-10-03" : "2026-05-15",
        nextDate: due ? "2026-11-03" : "2027-05-15"
      })
    }
  }
  return {
    clients: [
      {
        clientId: "tppkit-sandbox",
        clientSecret: "sandbox-secret",
        rights: ["PISP", "PIISP", "AISP"],
        aispAccounts: accounts.map((a) => a.iban)
      }
    ],
    accounts,
    standingOrders
  }
}

/** A worker with the probe that counts its requests; the last lines of its stderr said if it fails. */
const worker = (args: ReadonlyArray<string>, env: Record<string, string>): ChildProcess => {
  const tail: Array<string> = []
  const child = tppkit(args, env, [`--import=${probe}`], (l) => {
    tail.push(l.slice(0, 300))
    if (tail.length > 5) tail.shift()
  })
  child.once("exit", (code) => {
    if (code !== 0) console.log(`  a worker exited ${code}; its last lines:\n    ${tail.join("\n    ")}`)
  })
  return child
}

interface Probe {
  readonly listings: number
  readonly checks: number
  readonly tokens: number
  readonly pages: ReadonlyArray<readonly [string, number]>
}

const spread = (values: ReadonlyArray<number>): string => {
  const mean = values.reduce((a, b) => a + b, 0) / values.length
  const worst = Math.max(...values.map((v) => Math.abs(v - mean) / mean))
  return `${values.join(" / ")} (mean ${mean.toFixed(0)}, furthest ${(worst * 100).toFixed(1)} % from it)`
}

const run = async () => {
  const scope = Scope.makeUnsafe()
  const db = await startPostgres(scope, work)
  let serial = 0
  try {
    for (const n of sizes) {
      const t0 = Date.now()
      const fixtures = fixturesOf(n)
      const loaded = Fixtures.decode(fixtures)
      if (loaded._tag === "Failure") throw new Error(loaded.failure.slice(0, 3).join("; "))
      const orders = fixtures.standingOrders.length
      const pagesAll = Array.from({ length: n }, (_, i) => pagesOf(i)).reduce((a, b) => a + b, 0)
      console.log(
        `\nfleet at scale (issue 43): ${n} consents, ${orders} orders, ${pagesAll} pages of ${pageSize}, ${Math.ceil(n / dueEvery)} payments due, bank latency ${latencyMs} ms (fixtures made in ${((Date.now() - t0) / 1000).toFixed(1)} s)`
      )
      for (const size of fleets) {
        const bankScope = Scope.makeUnsafe()
        const bank = await Effect.runPromise(
          Layer.buildWithScope(
            Sandbox.layer({
              fixtures: loaded.success,
              listingConsent: "account",
              listingDay: Fixtures.baseDate,
              faults: { rate: 1, kinds: ["delay"], delayMs: latencyMs }
            }),
            bankScope
          )
        )
        const info = Context.get(bank, Sandbox.SandboxInfo)
        const name = `scale${++serial}`
        const url = await freshDatabase(db.url, name)
        // the fleet's tables, and its consents as rows (added on the day swept: their validity counts from it)
        const addedAt = Date.parse(`${day}T00:00:00Z`)
        await withSql(url, (sql) =>
          Effect.gen(function* () {
            yield* Database.migrate
            for (let from = 0; from < n; from += 2000) {
              const values: Array<string> = []
              for (let i = from; i < Math.min(n, from + 2000); i++)
                values.push(`('c${String(i + 1).padStart(6, "0")}', '${ibanOf(i)}', ${addedAt})`)
              yield* sql.unsafe(`INSERT INTO tppkit_consents (consent_key, iban, added_at) VALUES ${values.join(", ")}`)
            }
          }).pipe(Effect.provideService(SqlClient.SqlClient, sql))
        )
        await query(url, "CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
        await query(url, "SELECT pg_stat_statements_reset()")
        const postmaster = await postmasterOf(url)
        const load = loadavg().map((l) => l.toFixed(1))
        const env = {
          TPPKIT_CLIENT_SECRET: Redacted.value(info.clientSecret),
          TPPKIT_WORKER_POLL_MS: "500",
          TPPKIT_WORKER_PAGE_SIZE: String(pageSize)
        }
        const args = workerOnce(Redacted.value(url), info, day)
        const benchCpu0 = process.cpuUsage()
        const spawned = Date.now()
        const probes = Array.from({ length: size }, (_, i) => join(work, `${name}-w${i}.json`))
        const workers = probes.map((file) => worker(args, { ...env, BENCH_PROBE_FILE: file }))
        const stopCpu = cpuSampler(workers)
        const stopPostgresCpu = postgresCpuSampler(postmaster)
        // the listing phase from the database: the consents' sweep workflows stored and done
        let firstStored: number | undefined
        let lastDone: number | undefined
        let sampling = true
        const sampler = (async () => {
          while (sampling) {
            const [row] = await query<{ stored: number; done: number }>(
              url,
              `SELECT count(*)::int AS stored, count(*) FILTER (WHERE processed)::int AS done FROM cluster_messages
                WHERE entity_type = 'Workflow/tppkit/ConsentSweep' AND tag = 'run'`
            ).catch(() => [{ stored: 0, done: 0 }])
            const now = Date.now()
            if (firstStored === undefined && (row?.stored ?? 0) > 0) firstStored = now
            if ((row?.done ?? 0) >= n && lastDone === undefined) lastDone = now
            if (lastDone !== undefined) break
            await new Promise((r) => setTimeout(r, 500))
          }
        })()
        const ended = await Promise.all(workers.map((w) => exited(w).then((code) => ({ code, at: Date.now() }))))
        sampling = false
        await sampler
        const wall = (Math.max(...ended.map((e) => e.at)) - spawned) / 1000
        const { cpu, rss } = stopCpu()
        const postgresCpu = stopPostgresCpu()
        const benchCpu = process.cpuUsage(benchCpu0)
        const loadAfter = loadavg().map((l) => l.toFixed(1))
        const found = probes.map((file): Probe => {
          try {
            return JSON.parse(readFileSync(file, "utf8")) as Probe
          } catch {
            return { listings: 0, checks: 0, tokens: 0, pages: [] }
          }
        })
        // list calls per consent over the whole fleet
        const perConsent = new Map<string, number>()
        for (const p of found) for (const [iban, k] of p.pages) perConsent.set(iban, (perConsent.get(iban) ?? 0) + k)
        const most = Math.max(0, ...perConsent.values())
        const overPages = [...perConsent].filter(([iban, k]) => {
          const i = Number(iban.slice(-10)) - 1
          return k > pagesOf(i)
        }).length
        const [budget] = await query<{ most: number; consents: number }>(
          url,
          "SELECT coalesce(max(used), 0)::int AS most, count(*)::int AS consents FROM tppkit_budget"
        ).catch(() => [{ most: -1, consents: -1 }])
        const [checked] = await query<{ n: number; repeated: number }>(
          url,
          `SELECT count(*)::int AS n, count(*) FILTER (WHERE attempts > 1)::int AS repeated FROM tppkit_checks
            WHERE outcome IS NOT NULL`
        )
        const sizeRows = await query<{ bytes: string; table: string; rows: string }>(
          url,
          `SELECT pg_database_size(current_database())::text AS bytes, relname AS table, n_live_tup::text AS rows
             FROM pg_stat_user_tables ORDER BY n_live_tup DESC LIMIT 8`
        )
        // every statement of the run (the bench's own sampling left out), and those that confirm a runner still holds
        // a shard's lock (its heartbeat and the lock query, as bench/worker.ts counts them)
        const statements = await query<{ calls: string; query: string }>(
          url,
          `SELECT sum(calls)::text AS calls, left(regexp_replace(query, '\\s+', ' ', 'g'), 140) AS query
             FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
              AND query NOT LIKE '%Workflow/tppkit/ConsentSweep%' GROUP BY 2`
        )
        const calls = statements.reduce((a, r) => a + Number(r.calls), 0)
        const lockCalls = statements
          .filter((r) => /pg_locks|last_heartbeat/.test(r.query))
          .reduce((a, r) => a + Number(r.calls), 0)
        const listingPhase =
          firstStored === undefined || lastDone === undefined ? Number.NaN : (lastDone - firstStored) / 1000
        const requests = found.reduce((a, p) => a + p.listings + p.checks + p.tokens, 0)
        console.log(
          `  ${size} worker(s), load ${load.join(" ")} at start, ${loadAfter.join(" ")} at the end; exit codes ${ended.map((e) => e.code).join(", ")}`
        )
        console.log(
          `    LISTING PHASE (first consent's workflow stored → last done): ${listingPhase.toFixed(1)} s = ${(n / listingPhase).toFixed(1)} consents/s; end to end ${wall.toFixed(1)} s`
        )
        console.log(`    listings per worker: ${spread(found.map((p) => p.listings))}`)
        console.log(`    consents listed per worker: ${spread(found.map((p) => p.pages.length))}`)
        console.log(
          `    balance checks per worker: ${found.map((p) => p.checks).join(" / ")}; tokens ${found.map((p) => p.tokens).join(" / ")}`
        )
        console.log(`    PEAK RSS per worker (VmHWM): ${rss.map((m) => `${m.toFixed(0)} MB`).join(", ")}`)
        console.log(
          `    consents listed ${perConsent.size} of ${n}; most list calls one consent got: ${most} (daily limit 4); consents listed past their pages: ${overPages}; the fleet's budget: most used ${budget?.most} over ${budget?.consents} consents`
        )
        console.log(`    checks recorded ${checked?.n} (due ${Math.ceil(n / dueEvery)}), repeated ${checked?.repeated}`)
        console.log(
          `    bank requests ${requests} = ${(requests / listingPhase).toFixed(1)}/s over the listing phase; CPU s: workers ${cpu.map((c) => c.toFixed(1)).join(" + ")}, PostgreSQL ${postgresCpu.toFixed(1)}, bench + mock bank ${((benchCpu.user + benchCpu.system) / 1e6).toFixed(1)}`
        )
        console.log(
          `    PostgreSQL: ${(calls / n).toFixed(1)} statements a consent (${calls}), of which shard-lock statements ${(lockCalls / n).toFixed(2)} a consent, ${(lockCalls / wall).toFixed(1)} a second over the run`
        )
        // BENCH_SCALE_STATEMENTS=N: the N statements called most, per consent (where the database's work goes)
        for (const r of [...statements].sort((a, b) => Number(b.calls) - Number(a.calls)).slice(0, topStatements))
          console.log(`      ${(Number(r.calls) / n).toFixed(2).padStart(6)}  ${r.query}`)
        console.log(
          `    database ${(Number(sizeRows[0]?.bytes) / 1e6).toFixed(1)} MB; rows: ${sizeRows.map((r) => `${r.table} ${r.rows}`).join(", ")}`
        )
        await Effect.runPromise(Scope.close(bankScope, Exit.void))
      }
    }
  } finally {
    for (const child of children) child.kill("SIGKILL")
    await Effect.runPromise(Scope.close(scope, Exit.void))
    rmSync(work, { recursive: true, force: true })
  }
}

await run()
