/**
 * Fleet throughput and recovery (issue 13). One embedded PostgreSQL (with pg_stat_statements), the mock bank in a
 * child process serving N generated standing orders that each pay once within the sweep's window, and three
 * `tppkit worker --today 2026-11-02 --once` processes. Reported: payments per second end to end (spawning the
 * workers to the last exit) and in the check phase (first to last recorded check), the phases in between, CPU per
 * payment (workers, PostgreSQL, mock bank), each worker's peak resident memory, PostgreSQL statements and transactions per payment and the statements
 * that take the most time. Then the recovery run: three workers with effect's default-like timing (shard locks
 * expire after 20 s), one SIGKILLed once a third of the checks are done; reported: kill → first check finished by
 * a survivor on a shard of the dead runner (a repeated attempt), and kill → all done.
 *
 * `pnpm bench` runs it with the other suites; `pnpm exec node --conditions=@tppkit/source bench/worker.ts` alone.
 * Environment: BENCH_WORKER_PAYMENTS (default 10000), BENCH_WORKER_RECOVERY_PAYMENTS (default 3000; 0 leaves the
 * recovery run out), BENCH_WORKER_COUNT (workers of the throughput run, default 3; 1 measures one worker holding
 * the whole day), BENCH_WORKER_CPU_PROF=DIR (the throughput run's workers write V8 CPU profiles to DIR),
 * BENCH_WORKER_NODE_FLAGS (Node flags of the throughput run's workers, separated by spaces, e.g. `--trace-gc`),
 * BENCH_WORKER_SHARDS (the throughput run's `--shards`, default the fleet's 30; issue 43: the lock-refresh cost per
 * payment, the statements that confirm a shard's lock, is printed for each count), BENCH_WORKER_BALANCES=1 (the
 * workers get an opening balance covering about half of the payments: the sweep's forecast ahead, issue 39),
 * BENCH_WORKER_ACCOUNTS (debtor accounts the throughput run's orders are spread over, each with its balance under
 * BENCH_WORKER_BALANCES=1; default 1; all bound to the default client, whose one consent lists them, at most 100 pages
 * of 100 orders), BENCH_WORKER_CONSENT_PER_ACCOUNT=1 (each account its own consent in the fleet's consents table,
 * listed by its IBAN), BENCH_WORKER_LATER (orders listed besides the due ones that pay later within
 * the forecast's horizon, 2026-11-09..13: listed, planned ahead and forecast, not checked; default 0).
 */
import type { ChildProcess } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { loadavg, tmpdir } from "node:os"
import { join } from "node:path"
import { createInterface } from "node:readline"
import { Iban } from "@tppkit/core"
import { Fixtures } from "@tppkit/sandbox"
import { Database } from "@tppkit/worker"
import { Effect, Exit, ManagedRuntime, Redacted, Scope } from "effect"
import { SqlClient } from "effect/sql"
import { workerOnce } from "../test/e2e/harness.ts"
import { exited, freshDatabase, query, tppkit as start, startPostgres } from "./fleetProcesses.ts"
import { cpuSampler, cpuSeconds, postgresCpuSampler, postmasterOf } from "./processStats.ts"

const payments = Number(process.env.BENCH_WORKER_PAYMENTS ?? 10_000)
const recoveryPayments = Number(process.env.BENCH_WORKER_RECOVERY_PAYMENTS ?? 3_000)
const fleetSize = Number(process.env.BENCH_WORKER_COUNT ?? 3)
const shards = process.env.BENCH_WORKER_SHARDS
const accountCount = Math.max(1, Number(process.env.BENCH_WORKER_ACCOUNTS ?? 1))
const later = Number(process.env.BENCH_WORKER_LATER ?? 0)
const consentPerAccount = process.env.BENCH_WORKER_CONSENT_PER_ACCOUNT === "1"
const day = "2026-11-02"
const work = mkdtempSync(join(tmpdir(), "tppkit-bench-worker-"))

/** The debtor account of the bench's `a`-th account (the fixtures' own first account when there is one). */
const debtorIban = (a: number): string =>
  accountCount === 1
    ? (Fixtures.defaults.standingOrders[0] as { debtor: { iban: string } }).debtor.iban
    : ((bban: string) => `SK${Iban.checkDigits("SK", bban)}${bban}`)(`2200000000${String(a + 1).padStart(10, "0")}`)

/**
 * N monthly orders paying on 2026-11-02, -03 or -04 (all within two working days of the sweep day), and
 * BENCH_WORKER_LATER more paying on 2026-11-09..13; spread over BENCH_WORKER_ACCOUNTS debtor accounts (bound to the
 * default client, so its one consent lists them all).
 */
const fixturesFile = (n: number, name: string, extra = 0): string => {
  const base = Fixtures.defaults
  const template = base.standingOrders[0] as Record<string, unknown> & { debtor: { name: string } }
  const standingOrders = Array.from({ length: n + extra }, (_, i) => ({
    ...template,
    orderId: `BENCH-${String(i + 1).padStart(6, "0")}`,
    debtor: { name: template.debtor.name, iban: debtorIban(i % accountCount) },
    frequency: "MNTH",
    startDate: i < n ? `2026-10-0${2 + (i % 3)}` : `2026-10-${String(9 + (i % 5)).padStart(2, "0")}`,
    nextDate: i < n ? `2026-11-0${2 + (i % 3)}` : `2026-11-${String(9 + (i % 5)).padStart(2, "0")}`,
    instructedAmount: { value: 10 + (i % 500), currency: "EUR" },
    remittanceInformation: `bench ${i + 1}`
  }))
  const account = base.accounts[0] as Record<string, unknown>
  const accounts =
    accountCount === 1
      ? base.accounts
      : [
          ...base.accounts,
          ...Array.from({ length: accountCount }, (_, a) => ({
            ...account,
            iban: debtorIban(a),
            owner: `Bench customer ${a + 1}`,
            balance: "1000000.00",
            consent: { kind: "branch" }
          }))
        ]
  const clients =
    accountCount === 1
      ? base.clients
      : base.clients.map((c, i) =>
          i === 0
            ? { ...c, aispAccounts: [...c.aispAccounts, ...accounts.slice(base.accounts.length).map((a) => a.iban)] }
            : c
        )
  const file = join(work, name)
  writeFileSync(file, JSON.stringify({ ...base, clients, accounts, standingOrders }))
  return file
}

/**
 * BENCH_WORKER_BALANCES=1: the throughput run's workers are given an opening balance of the orders' debtor account
 * that covers about half of the day's payments (issue 39: the sweep forecasts it and raises the rest at risk).
 */
const withBalances = process.env.BENCH_WORKER_BALANCES === "1"

/** The balances file of BENCH_WORKER_BALANCES: each account's balance covers about half of its due payments. */
const balancesFile = (): string => {
  const file = join(work, "balances.json")
  const perAccount = Math.max(1, Math.round((130 * payments) / accountCount))
  writeFileSync(
    file,
    JSON.stringify(
      Array.from({ length: accountCount }, (_, a) => ({
        iban: debtorIban(a),
        currency: "EUR",
        amount: String(perAccount),
        date: "2026-11-01"
      }))
    )
  )
  return file
}

/** Warnings of the workers (logfmt lines on stderr), counted by message. */
const warnings = new Map<string, number>()

/** `tppkit ARGS` from source, the cluster's warnings on its stderr counted. */
const tppkit = (
  args: ReadonlyArray<string>,
  env: Record<string, string> = {},
  nodeFlags: ReadonlyArray<string> = []
): ChildProcess =>
  start(args, env, nodeFlags, (line) => {
    const m = /level=(WARN|ERROR) .*?message="([^"]*)"/.exec(line)
    if (m !== null) warnings.set(`${m[1]} ${m[2]}`, (warnings.get(`${m[1]} ${m[2]}`) ?? 0) + 1)
  })

const reportWarnings = () => {
  for (const [w, n] of warnings) console.log(`    ${String(n).padStart(5)} × ${w}`)
  warnings.clear()
}

const firstLine = (child: ChildProcess): Promise<string> =>
  new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! })
    lines.once("line", resolve)
    child.once("exit", (code) => reject(new Error(`exited with ${code} before printing`)))
  })

/** Seconds since `t0` (epoch milliseconds), one decimal. */
const secondsFrom = (t0: number, epochMillis: number | undefined): string =>
  epochMillis === undefined || Number.isNaN(epochMillis) ? "n/a" : `${((epochMillis - t0) / 1000).toFixed(1)} s`

/**
 * Watches a fleet's start-up from the database, every 250 ms until every payment's workflow is started: when
 * the fleet's runners are all registered, when the sweep's listing is done (its first planned row), when every payment is
 * planned and when every payment's workflow start is stored.
 */
const startupSampler = (url: Redacted.Redacted<string>, n: number) => {
  const runtime = ManagedRuntime.make(Database.layer(url, { maxConnections: 1 }))
  const at: { joined?: number; listed?: number; planned?: number; started?: number } = {}
  let stopped = false
  const sample = Effect.flatMap(Effect.service(SqlClient.SqlClient), (sql) =>
    sql.unsafe<{ runners: number; planned: number; started: number }>(
      `SELECT (SELECT count(*) FROM cluster_runners)::int AS runners,
              (SELECT count(*) FROM tppkit_checks)::int AS planned,
              (SELECT count(*) FROM cluster_messages
                WHERE entity_type = 'Workflow/tppkit/FundsCheck' AND tag = 'run')::int AS started`
    )
  ).pipe(Effect.orElseSucceed(() => [{ runners: 0, planned: 0, started: 0 }]))
  const loop = (async () => {
    while (!stopped) {
      const [row] = await runtime.runPromise(sample).catch(() => [{ runners: 0, planned: 0, started: 0 }])
      const now = Date.now()
      if (at.joined === undefined && (row?.runners ?? 0) >= fleetSize) at.joined = now
      if (at.listed === undefined && (row?.planned ?? 0) > 0) at.listed = now
      if (at.planned === undefined && (row?.planned ?? 0) >= n) at.planned = now
      if (at.started === undefined && (row?.started ?? 0) >= n) at.started = now
      if (at.started !== undefined && at.joined !== undefined) break
      await new Promise((r) => setTimeout(r, 250))
    }
  })()
  return async () => {
    stopped = true
    await loop
    await runtime.dispose()
    return at
  }
}

const run = async () => {
  const scope = Scope.makeUnsafe()
  // interrupted (Ctrl-C, a timeout): the workers and the mock bank killed, PostgreSQL stopped, the files removed
  const db = await startPostgres(scope, work)
  const bankFor = async (file: string) => {
    // the bank lists as of the fixtures' day (it computes each order's next date from its listing day)
    const bank = tppkit(["sandbox", "--fixtures", file, "--listing-day", "2026-11-01", "--format", "json"])
    const info = JSON.parse(await firstLine(bank)) as { baseUrl: string; clientSecret: string }
    return { bank, info }
  }
  // an attended listing: 100 pages of orders do not fit the 4 unattended listings a day
  const workerArgs = (url: Redacted.Redacted<string>, baseUrl: string) =>
    workerOnce(Redacted.value(url), { baseUrl, clientId: "tppkit-sandbox" }, day, "--psu-last-logged-time", "now")
  const freshDb = (name: string) => freshDatabase(db.url, name)

  try {
    // ---- throughput
    {
      const { bank, info } = await bankFor(fixturesFile(payments, "throughput.json", later))
      const url = await freshDb("throughput")
      if (consentPerAccount && accountCount > 1) {
        // one consent per account, listed by its IBAN (a listing holds at most 100 pages of 100 orders)
        await Effect.runPromise(Database.migrate.pipe(Effect.provide(Database.layer(url, { maxConnections: 1 }))))
        for (let a = 0; a < accountCount; a += 1000) {
          const rows = Array.from(
            { length: Math.min(1000, accountCount - a) },
            (_, i) => `('bench-${a + i + 1}', '${debtorIban(a + i)}', ${Date.UTC(2026, 10, 1)})`
          )
          await query(url, `INSERT INTO tppkit_consents (consent_key, iban, added_at) VALUES ${rows.join(", ")}`)
        }
      }
      await query(url, "CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
      await query(url, "SELECT pg_stat_statements_reset()")
      const [before] = await query<{ x: string }>(
        url,
        "SELECT xact_commit::text AS x FROM pg_stat_database WHERE datname = current_database()"
      )
      const postmaster = await postmasterOf(url)
      const load = loadavg()[0]?.toFixed(1)
      const stopSampler = startupSampler(url, payments)
      const profiles = process.env.BENCH_WORKER_CPU_PROF
      const nodeFlags = [
        ...(profiles === undefined ? [] : ["--cpu-prof", `--cpu-prof-dir=${profiles}`]),
        ...(process.env.BENCH_WORKER_NODE_FLAGS ?? "").split(" ").filter((f) => f !== "")
      ]
      const spawned = Date.now()
      const env = { TPPKIT_CLIENT_SECRET: info.clientSecret, TPPKIT_WORKER_POLL_MS: "500" }
      const args = [
        ...workerArgs(url, info.baseUrl),
        ...(shards === undefined ? [] : ["--shards", shards]),
        ...(withBalances ? ["--balances", balancesFile()] : [])
      ]
      const workers = Array.from({ length: fleetSize }, () => tppkit(args, env, nodeFlags))
      const stopCpu = cpuSampler(workers)
      const stopPostgresCpu = postgresCpuSampler(postmaster)
      const bankCpuBefore = cpuSeconds(bank.pid) ?? 0
      // each worker prints its one-line summary once every check of the sweep is finished, then shuts down
      const reported = workers.map((w) =>
        firstLine(w).then(
          () => Date.now(),
          () => Number.NaN
        )
      )
      const exits = workers.map((w) => exited(w).then((code) => ({ code, at: Date.now() })))
      const ended = await Promise.all(exits)
      const codes = ended.map((e) => e.code)
      const lastExit = Math.max(...ended.map((e) => e.at))
      const wall = (lastExit - spawned) / 1000
      const { cpu: workerCpu, rss: workerRss } = stopCpu()
      const postgresCpu = stopPostgresCpu()
      const bankCpu = (cpuSeconds(bank.pid) ?? 0) - bankCpuBefore
      const phases = await stopSampler()
      const [stats] = await query<{ n: number; repeated: number; first: string; last: string }>(
        url,
        `SELECT count(*)::int AS n, count(*) FILTER (WHERE attempts > 1)::int AS repeated,
                (extract(epoch FROM min(checked_at)) * 1000)::text AS first,
                (extract(epoch FROM max(checked_at)) * 1000)::text AS last
           FROM tppkit_checks WHERE outcome IS NOT NULL`
      )
      const messages = await query<{ entity_type: string; tag: string | null; kind: number; n: number }>(
        url,
        `SELECT entity_type, tag, kind, count(*)::int AS n FROM cluster_messages
          GROUP BY entity_type, tag, kind ORDER BY n DESC`
      )
      const [after] = await query<{ x: string }>(
        url,
        "SELECT xact_commit::text AS x FROM pg_stat_database WHERE datname = current_database()"
      )
      const statements = await query<{ calls: string; ms: string; query: string }>(
        url,
        // statements alike in their first 90 characters taken together (the storage's polls differ in their shard
        // lists); the bench's own sampling left out
        `SELECT sum(calls)::text AS calls, round(sum(total_exec_time))::text AS ms,
                left(regexp_replace(query, '\\s+', ' ', 'g'), 90) AS query
           FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database())
            AND query NOT LIKE '%AS runners,%'
          GROUP BY 3 ORDER BY sum(total_exec_time) DESC`
      )
      const calls = statements.reduce((n, s) => n + Number(s.calls), 0)
      const pgMillis = statements.reduce((n, s) => n + Number(s.ms), 0)
      const first = Number(stats?.first)
      const last = Number(stats?.last)
      const checkPhase = (last - first) / 1000
      const rate = (seconds: number) => `${(payments / seconds).toFixed(0)} payments/s`
      console.log(
        `\nfleet throughput (issue 13): ${payments} due payments (${later} more later), ${accountCount} account(s)${withBalances ? " with balances" : ""}${consentPerAccount ? ", a consent each" : ""}, ${fleetSize} worker(s), ${shards ?? 30} shards, load average ${load} at start`
      )
      console.log(`  exit codes ${codes.join(", ")}; checked ${stats?.n}, repeated ${stats?.repeated}`)
      console.log(`  END TO END (spawn → last worker exit): ${wall.toFixed(1)} s = ${rate(wall)}`)
      console.log(
        `  PEAK RSS per worker (VmHWM): ${workerRss.map((m) => `${m.toFixed(0)} MB`).join(", ")} (target ≤ 400 MB)`
      )
      console.log(`  CHECK PHASE (first → last recorded check): ${checkPhase.toFixed(1)} s = ${rate(checkPhase)}`)
      console.log(
        `  PostgreSQL: ${(calls / payments).toFixed(1)} statements and ${((Number(after?.x) - Number(before?.x)) / payments).toFixed(1)} transactions per payment`
      )
      const workersCpu = workerCpu.reduce((a, b) => a + b, 0)
      const totalCpu = workersCpu + postgresCpu + bankCpu
      const perPayment = (seconds: number) => `${((seconds * 1000) / payments).toFixed(2)} ms`
      console.log(
        `  CPU per payment: ${perPayment(totalCpu)} = workers ${perPayment(workersCpu)} + PostgreSQL ${perPayment(postgresCpu)} + mock bank ${perPayment(bankCpu)}`
      )
      console.log(
        `    (CPU seconds: workers ${workerCpu.map((c) => c.toFixed(1)).join(" + ")}, PostgreSQL ${postgresCpu.toFixed(1)} of which statements' execution ${(pgMillis / 1000).toFixed(1)}, mock bank ${bankCpu.toFixed(1)}; on 2 cores that CPU alone allows ${((2 * payments) / totalCpu).toFixed(0)} payments/s)`
      )
      console.log("  phases, from spawning the workers (sampled every 250 ms):")
      console.log(`    all ${fleetSize} runner(s) registered     ${secondsFrom(spawned, phases.joined)}`)
      console.log(`    listing done (first planned row) ${secondsFrom(spawned, phases.listed)}`)
      console.log(`    every payment planned            ${secondsFrom(spawned, phases.planned)}`)
      console.log(`    every workflow start stored      ${secondsFrom(spawned, phases.started)}`)
      console.log(`    first check recorded             ${secondsFrom(spawned, first)}`)
      console.log(`    last check recorded              ${secondsFrom(spawned, last)}`)
      const reports = await Promise.all(reported)
      console.log(`    workers' summaries printed       ${reports.map((r) => secondsFrom(spawned, r)).join(", ")}`)
      console.log(`    workers' exits                   ${ended.map((e) => secondsFrom(spawned, e.at)).join(", ")}`)
      // what confirms a runner still holds a shard's lock before a reply is stored: its heartbeat and the lock query
      const lockStatements = statements
        .filter((s) => /pg_locks|last_heartbeat/.test(s.query))
        .reduce((n, s) => n + Number(s.calls), 0)
      console.log(
        `  LOCK REFRESHES: ${(lockStatements / payments).toFixed(2)} shard-lock statements per payment (${lockStatements} in all, ${shards ?? 30} shards)`
      )
      console.log("  statements by total time:")
      for (const s of statements.slice(0, 10))
        console.log(`    ${s.ms.padStart(7)} ms ${s.calls.padStart(7)} × ${s.query}`)
      console.log("  cluster messages stored, by entity type, tag and kind:")
      for (const m of messages)
        console.log(`    ${String(m.n).padStart(7)} × ${m.entity_type} ${m.tag ?? "-"} (kind ${m.kind})`)
      if (withBalances) {
        const events = await query<{ type: string; n: number }>(
          url,
          "SELECT type, count(*)::int AS n FROM tppkit_fleet_events GROUP BY type ORDER BY type"
        ).catch(() => [])
        console.log(`  fleet events: ${events.map((e) => `${e.n} ${e.type}`).join(", ") || "none"}`)
      }
      if (profiles !== undefined) console.log(`  CPU profiles of the workers in ${profiles}`)
      console.log("  workers' warnings:")
      reportWarnings()
      bank.kill("SIGTERM")
      await exited(bank)
    }

    // ---- recovery (BENCH_WORKER_RECOVERY_PAYMENTS=0 leaves it out)
    if (recoveryPayments > 0) {
      const { bank, info } = await bankFor(fixturesFile(recoveryPayments, "recovery.json"))
      const url = await freshDb("recovery")
      const env = { TPPKIT_CLIENT_SECRET: info.clientSecret }
      const workers = [0, 1, 2].map(() => tppkit(workerArgs(url, info.baseUrl), env))
      const done = workers.map(exited)
      for (;;) {
        const [row] = await query<{ n: number }>(
          url,
          "SELECT count(*)::int AS n FROM tppkit_checks WHERE outcome IS NOT NULL"
        ).catch(() => [{ n: 0 }])
        if ((row?.n ?? 0) >= recoveryPayments / 3) break
        await new Promise((r) => setTimeout(r, 100))
      }
      const killedAt = Date.now()
      workers[1]?.kill("SIGKILL")
      await Promise.all(done)
      const [stats] = await query<{ resumed: string | null; last: string; repeated: number; pending: number }>(
        url,
        `SELECT extract(epoch FROM min(checked_at) FILTER (WHERE attempts > 1))::text AS resumed,
                extract(epoch FROM max(checked_at))::text AS last,
                count(*) FILTER (WHERE attempts > 1)::int AS repeated,
                count(*) FILTER (WHERE outcome IS NULL)::int AS pending
           FROM tppkit_checks`
      )
      const since = (epoch: string | null | undefined) =>
        epoch === null || epoch === undefined ? "n/a" : `${(Number(epoch) - killedAt / 1000).toFixed(1)} s`
      console.log(`\nrecovery (issue 13): ${recoveryPayments} payments, one of 3 workers SIGKILLed at a third`)
      console.log(
        `  kill → first repeated check finished by a survivor: ${since(stats?.resumed)}; kill → all done: ${since(stats?.last)}`
      )
      console.log(`  repeated (attempts 2): ${stats?.repeated}; left pending: ${stats?.pending}`)
      console.log("  workers' warnings:")
      reportWarnings()
      bank.kill("SIGTERM")
      await exited(bank)
    }
  } finally {
    await Effect.runPromise(Scope.close(scope, Exit.void))
    rmSync(work, { recursive: true, force: true })
  }
}

await run()
