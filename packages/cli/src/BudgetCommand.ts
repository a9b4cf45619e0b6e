/**
 * `tppkit budget [--format json]`: the daily budget of unattended standing-order listings as the budget store
 * holds it today, per consent (environment, bank, client, consent): used, left and when it resets. The store is
 * the budget file, or with `--database-url` (`TPPKIT_DATABASE_URL`) a fleet's PostgreSQL, which wins. It reads
 * only; a missing file means nothing was spent and is not created.
 *
 * @since 0.1.0
 */
import { Effect } from "effect"
import { Command } from "effect/cli"
import * as Connection from "./Connection.ts"
import * as Flags from "./internal/flags.ts"

/** `tppkit budget [--budget-file FILE | --database-url URL] [--format table|json]`. */
export const budgetCommand = Command.make(
  "budget",
  {
    budgetFile: Connection.flags.budgetFile,
    databaseUrl: Connection.flags.databaseUrl,
    format: Flags.tableOrJson
  },
  (input) =>
    Effect.flatMap(
      Effect.promise(() => import("./internal/budget.ts")),
      (impl) => impl.budget(input)
    )
).pipe(
  Command.withDescription(
    "Show today's daily budget of unattended listings per consent (budget file or fleet database): used, left, reset"
  ),
  Command.withExamples([
    { command: "tppkit budget", description: "Today's budget in ~/.tppkit/budget.json (or TPPKIT_BUDGET_FILE)" },
    { command: "tppkit budget --database-url $URL --format json", description: "The fleet's shared budget" }
  ])
)
