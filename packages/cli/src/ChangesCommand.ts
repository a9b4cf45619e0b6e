/**
 * `tppkit changes --since D [--format table|json]`: the change feed of the fleet's standing orders (issue 39), what
 * each day's sweep found changed against the last complete listing the fleet keeps for the consent: orders created,
 * removed, changed (amount, creditor, schedule, end: before and after) and next dates moved off the engine's date.
 * Read from the fleet's database; the database code is loaded only when it runs.
 *
 * @since 0.1.0
 */
import { Effect } from "effect"
import { Command, Flag } from "effect/cli"
import * as Connection from "./Connection.ts"
import * as Flags from "./internal/flags.ts"

/** `tppkit changes --since YYYY-MM-DD [--format table|json]`. */
export const changesCommand = Command.make(
  "changes",
  {
    databaseUrl: Connection.flags.databaseUrl,
    since: Flag.String("since").pipe(
      Flag.withMetavar("YYYY-MM-DD"),
      Flag.withDescription("The first sweep day whose changes are listed")
    ),
    format: Flags.tableOrJson
  },
  (input) =>
    Effect.flatMap(
      Effect.promise(() => import("./internal/changes.ts")),
      (impl) => impl.run(input)
    )
).pipe(
  Command.withDescription("What changed in the fleet's standing orders from one listing to the next, since a day"),
  Command.withExamples([
    { command: "tppkit changes --since 2026-11-01", description: "Created, removed, changed and moved orders" },
    { command: "tppkit changes --since 2026-11-01 --format json", description: "One JSON array of the events" }
  ])
)
