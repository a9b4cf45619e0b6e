import { fileURLToPath } from "node:url"
import { defineConfig } from "vitest/config"

// The processes the tests start (the command, the mock bank, workers) each compile the sources from TypeScript:
// Node's compile cache, inherited through the environment, does that once per file for the whole run (about a
// third of the CPU of test/cli/golden's 104 processes). Keyed by each file's content, so a changed file recompiles.
process.env.NODE_COMPILE_CACHE ??= fileURLToPath(new URL("./node_modules/.cache/node-compile-cache", import.meta.url))

/**
 * Suites whose faults are timed (a paused process, a lock that must time out, a take-over within seconds). They run
 * one file at a time, after everything else, so that no other test competes with them for the machine's cores.
 */
const timed = [
  "test/e2e/checkFaults.test.ts",
  "test/e2e/dbFailures.test.ts",
  "test/e2e/fleetFaults.test.ts",
  "test/e2e/fleetNamespaces.test.ts",
  "test/e2e/fleetTls.test.ts",
  "test/e2e/projectSignals.test.ts",
  "test/e2e/sandboxSignals.test.ts",
  "test/e2e/sweepFaults.test.ts"
]

/**
 * Suites whose files leave nothing behind in their process (no database; the environment restored by the tests that
 * change it): they run one file after another in a worker that keeps its loaded modules, not in a fresh process per
 * file. Loading effect and the packages again for each file was a third of their CPU (measured per folder with and
 * without isolation, at load 11-29: core 86 -> 59 s, http 29 -> 14 s, sandbox 31 -> 22 s of CPU; the cli files below,
 * which run no process and leave the environment and stdout alone, 17.6 -> 7.0 s; the worker, schedule and
 * integration files below, which start no database either, 68.6 -> 47.1 s). A new file of those folders is isolated
 * until it is named here.
 */
const shared = [
  "test/core/**/*.test.ts",
  "test/http/**/*.test.ts",
  "test/sandbox/**/*.test.ts",
  "test/cli/DemoReport.test.ts",
  "test/cli/Failure.test.ts",
  "test/cli/ForecastEvidence.test.ts",
  "test/cli/ForecastReport.test.ts",
  "test/cli/Html.test.ts",
  "test/cli/OrderTables.test.ts",
  "test/cli/Project.test.ts",
  "test/cli/ProjectionFormats.test.ts",
  "test/cli/Render.test.ts",
  "test/cli/Style.test.ts",
  "test/cli/WorkerStatus.test.ts",
  "test/cli/banks.test.ts",
  "test/cli/commandSpec.test.ts",
  "test/cli/jsonPieces.test.ts",
  "test/cli/listingStatus.test.ts",
  "test/cli/periods.test.ts",
  "test/cli/quickHelp.test.ts",
  "test/cli/standardTargets.test.ts",
  "test/worker/AtRisk.test.ts",
  "test/worker/CheckEvidence.test.ts",
  "test/worker/CheckFailure.test.ts",
  "test/worker/ConsentLifecycle.test.ts",
  "test/worker/Database.test.ts",
  "test/worker/DayReport.test.ts",
  "test/worker/FundsCheckWorkflow.test.ts",
  "test/worker/Lifecycle.test.ts",
  "test/worker/OrderChanges.test.ts",
  "test/worker/Runner.test.ts",
  "test/worker/Sweep.test.ts",
  "test/worker/aheadOrders.test.ts",
  "test/worker/digest.test.ts",
  "test/worker/pgLibraries.test.ts",
  "test/worker/sealedToken.test.ts",
  "test/worker/sweepJournal.test.ts",
  "test/worker/webhookEvents.test.ts",
  "test/schedule/CashFlow.test.ts",
  "test/schedule/Coverage.test.ts",
  "test/schedule/Export.test.ts",
  "test/schedule/Forecast.test.ts",
  "test/schedule/ForecastFiles.test.ts",
  "test/schedule/ICalendar.test.ts",
  "test/schedule/OrderSchedule.test.ts",
  "test/schedule/Projection.test.ts",
  "test/schedule/Reconciliation.test.ts",
  "test/schedule/RecurringCalendar.test.ts",
  "test/schedule/ScenarioText.test.ts",
  "test/schedule/events.test.ts",
  "test/schedule/lines.test.ts",
  "test/integration/http.test.ts"
]

// With two files at a time a test may take up to twice its time alone: the limits are for hangs, not for speed.
const limits = {
  pool: "forks" as const,
  testTimeout: 60_000,
  hookTimeout: 60_000
}

export default defineConfig({
  resolve: { conditions: ["@tppkit/source"] },
  ssr: { resolve: { conditions: ["@tppkit/source"] } },
  test: {
    projects: [
      {
        extends: true,
        test: {
          ...limits,
          name: "tests",
          include: ["test/**/*.test.ts", "packages/*/README.md.test.ts"],
          exclude: [...timed, ...shared],
          // Two files at a time: much of the time goes to waiting on child processes and loopback servers.
          maxWorkers: 2,
          sequence: { groupOrder: 0 }
        }
      },
      {
        extends: true,
        test: {
          ...limits,
          // after "tests" (projects of one group run in the order of their names), on the same two workers
          name: "unit",
          include: shared,
          isolate: false,
          maxWorkers: 2,
          sequence: { groupOrder: 0 }
        }
      },
      {
        extends: true,
        test: {
          ...limits,
          name: "timed",
          include: timed,
          maxWorkers: 1,
          sequence: { groupOrder: 1 }
        }
      }
    ]
  }
})
