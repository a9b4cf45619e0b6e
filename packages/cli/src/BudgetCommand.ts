/**
 * `tppkit budget [--format json]`: the daily budget of unattended standing-order listings as the budget store
 * holds it today, per consent (environment, bank, client, consent): used, left and when it resets. The store is
 * the budget file, or with `--database-url` (`TPPKIT_DATABASE_URL`) a fleet's PostgreSQL, which wins. It reads
 * only; a missing file means nothing was spent and is not created.
 *
 * @since 0.1.0
 */
import * as Connection from "./Connection.ts"
import * as CommandSpec from "./internal/commandSpec.ts"
import * as Flags from "./internal/flags.ts"

/** `tppkit budget [--budget-file FILE | --database-url URL] [--format table|json]`. */
export const budgetCommand = CommandSpec.make({
  name: "budget",
  flags: {
    budgetFile: Connection.flags.budgetFile,
    databaseUrl: Connection.flags.databaseUrl,
    format: Flags.tableOrJson
  },
  run: CommandSpec.lazy(() => import("./internal/budget.ts"))("budget"),
  description:
    "Show today's daily budget of unattended listings per consent (budget file or fleet database): used, left, reset",
  examples: [
    { command: "tppkit budget", description: "Today's budget in ~/.tppkit/budget.json (or TPPKIT_BUDGET_FILE)" },
    { command: "tppkit budget --database-url $URL --format json", description: "The fleet's shared budget" }
  ]
})
