/**
 * `tppkit changes --since D [--format table|json]`: the change feed of the fleet's standing orders (issue 39), what
 * each day's sweep found changed against the last complete listing the fleet keeps for the consent: orders created,
 * removed, changed (amount, creditor, schedule, end: before and after) and next dates moved off the engine's date.
 * Read from the fleet's database; the database code is loaded only when it runs.
 *
 * @since 0.1.0
 */
import * as Connection from "./Connection.ts"
import * as CommandSpec from "./internal/commandSpec.ts"
import * as Flags from "./internal/flags.ts"

/** `tppkit changes --since YYYY-MM-DD [--format table|json]`. */
export const changesCommand = CommandSpec.make({
  name: "changes",
  flags: {
    databaseUrl: Connection.flags.databaseUrl,
    since: Flags.date("since", "The first sweep day whose changes are listed"),
    format: Flags.tableOrJson
  },
  run: CommandSpec.lazy(() => import("./internal/changes.ts"))("run"),
  description: "What changed in the fleet's standing orders from one listing to the next, since a day",
  examples: [
    { command: "tppkit changes --since 2026-11-01", description: "Created, removed, changed and moved orders" },
    { command: "tppkit changes --since 2026-11-01 --format json", description: "One JSON array of the events" }
  ]
})
