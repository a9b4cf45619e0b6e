/**
 * What the fleet benches read of their processes from /proc (Linux): CPU seconds, peak resident set, parent, and
 * samplers of them while the processes live.
 */
import type { ChildProcess } from "node:child_process"
import { readdirSync, readFileSync } from "node:fs"
import { Database } from "@tppkit/worker"
import { Effect, type Redacted } from "effect"
import { SqlClient } from "effect/sql"

/** CPU seconds (user + system) a live process has used so far, from /proc (Linux); undefined once it is gone. */
export const cpuSeconds = (pid: number | undefined): number | undefined => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    return (Number(fields[11]) + Number(fields[12])) / 100
  } catch {
    return undefined
  }
}

/** The peak resident set of a live process so far (VmHWM, MB), from /proc (Linux); undefined once it is gone. */
export const peakRssMb = (pid: number | undefined): number | undefined => {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))
    return m === null ? undefined : Number(m[1]) / 1024
  } catch {
    return undefined
  }
}

/**
 * Samples the CPU seconds and the peak resident set of processes every 100 ms while they live: the last sample
 * before each exits.
 */
export const cpuSampler = (children: ReadonlyArray<ChildProcess>) => {
  const last = children.map(() => 0)
  const rss = children.map(() => 0)
  const timer = setInterval(() => {
    children.forEach((c, i) => {
      const s = cpuSeconds(c.pid)
      if (s !== undefined) last[i] = s
      const m = peakRssMb(c.pid)
      if (m !== undefined) rss[i] = m
    })
  }, 100)
  return () => {
    clearInterval(timer)
    return { cpu: last, rss }
  }
}

/** The parent process id of a live process, from /proc (Linux). */
export const parentPid = (pid: number): number | undefined => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8")
    return Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1])
  } catch {
    return undefined
  }
}

/**
 * Samples the CPU seconds of every child of a PostgreSQL server (its backends and helpers) every 250 ms: the sum
 * of the last sample of each (a backend that ends between samples loses at most 250 ms of its count).
 */
export const postgresCpuSampler = (postmaster: number) => {
  const last = new Map<number, number>()
  const sample = () => {
    for (const entry of readdirSync("/proc")) {
      const pid = Number(entry)
      if (!Number.isInteger(pid) || parentPid(pid) !== postmaster) continue
      const s = cpuSeconds(pid)
      if (s !== undefined) last.set(pid, s)
    }
  }
  sample()
  const before = new Map(last)
  const timer = setInterval(sample, 250)
  return () => {
    clearInterval(timer)
    sample()
    let total = 0
    for (const [pid, s] of last) total += s - (before.get(pid) ?? 0)
    return total
  }
}

/**
 * The process id of the PostgreSQL server at `url` (-1 when not found): the parent of a backend, read while that
 * backend's connection is open (read after it closed, the backend may be gone and nothing is found).
 */
export const postmasterOf = (url: Redacted.Redacted<string>): Promise<number> =>
  Effect.runPromise(
    Effect.flatMap(Effect.service(SqlClient.SqlClient), (sql) =>
      Effect.map(
        sql.unsafe<{ pid: number }>("SELECT pg_backend_pid() AS pid"),
        ([row]) => parentPid(Number(row?.pid)) ?? -1
      )
    ).pipe(
      Effect.provide(Database.layer(url, { maxConnections: 1 })),
      Effect.scoped,
      Effect.orElseSucceed(() => -1)
    )
  )
