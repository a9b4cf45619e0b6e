/**
 * `tppkit worker`: joins the fleet of funds-check workers as a cluster runner on PostgreSQL (effect's cluster and
 * workflow engine): a daily sweep at the configured hour plans a durable funds check for every payment due within
 * `--days-before` working days, and every check runs once in the whole fleet. `--once` runs one day's sweep, waits
 * until each of its checks is finished somewhere in the fleet, and exits. `tppkit worker status` prints the checks
 * and the shared budget, and, where the workers were given opening balances (`--balances`), a forecast of the
 * checked accounts with the answers beside it. The cluster code is loaded only when a worker command runs.
 *
 * @since 0.1.0
 */
import { LocalDate } from "@tppkit/core"
import { Config, Effect, type Redacted } from "effect"
import { Command, Flag } from "effect/cli"
import * as Connection from "./Connection.ts"
import * as Flags from "./internal/flags.ts"

/** `--day` / `--today`: a calendar date flag. */
const dateFlag = (name: string, description: string) =>
  Flag.String(name).pipe(Flag.withMetavar("YYYY-MM-DD"), Flag.withDescription(description), Flag.optional)

/**
 * `tppkit worker status --database-url URL [--day YYYY-MM-DD] [--format table|json] [--balances FILE] [--orders FILE]`.
 */
export const workerStatusCommand = Command.make(
  "status",
  {
    databaseUrl: Connection.flags.databaseUrl,
    day: dateFlag("day", "Only the checks planned by this day's sweep, and this day's budget (default: all)"),
    format: Flags.tableOrJson,
    balances: Flags.optionalText(
      "balances",
      "FILE",
      "Opening balances (as tppkit forecast reads them) for a forecast of the checked accounts with the checks beside it (default: those the workers were started with)"
    ),
    balanceMaxAge: Flag.Int("balance-max-age").pipe(
      Flag.withDescription(
        "Flag stored balances older than this many days: the forecast ahead stands on them (default 3)"
      ),
      Flag.withDefault(3)
    ),
    orders: Flags.optionalText(
      "orders",
      "FILE",
      "The standing orders the fleet checks (an orders file) for the forecast (default: the fleet's plan, the payments it checks)"
    ),
    // the rule the forecast from --orders projects with (the fleet's plan has its own)
    calendar: Flags.calendarWith("auto"),
    holidays: Flags.holidays,
    convention: Flags.convention,
    standard: Flags.standard,
    accounts: Flags.accounts,
    listedOn: Flags.listedOn
  },
  (input) =>
    Effect.flatMap(
      Effect.promise(() => import("./internal/workerStatus.ts")),
      (impl) => impl.status(input)
    )
).pipe(
  Command.withDescription("The fleet's funds checks (outcome, attempts, Request-ID) and the shared daily budget"),
  Command.withExamples([
    { command: "tppkit worker status --database-url $URL --day 2026-11-02", description: "One day's checks" }
  ])
)

/**
 * `tppkit worker --database-url URL [--days-before N] [--calendar C] [--hour H] [--time-zone Z] [--today D]
 * [--once] [--consents K[=IBAN][@PROFILE],…] [--metrics-port P] [--webhook URL …] [--balances FILE]` plus the bank connection
 * flags.
 */
export const workerCommand = Command.make(
  "worker",
  {
    ...Connection.flags,
    daysBefore: Flag.Int("days-before").pipe(
      Flag.withDescription("Check payments executing up to this many working days after today (default 2)"),
      Flag.withDefault(2)
    ),
    calendar: Flag.String("calendar").pipe(
      Flag.withDescription("Working days: weekends, target or an ISO 3166 country code, e.g. SK (default target)"),
      Flag.withDefault("target")
    ),
    holidays: Flags.holidays,
    convention: Flags.convention,
    standard: Flags.bankStandard,
    hour: Flag.Int("hour").pipe(
      Flag.withDescription("Local hour of the daily sweep, 0-23 (default 8)"),
      Flag.withDefault(8)
    ),
    timeZone: Flag.String("time-zone").pipe(
      Flag.withDescription(`IANA time zone of the sweep hour and of today (default ${LocalDate.bankTimeZone})`),
      Flag.withDefault(LocalDate.bankTimeZone)
    ),
    today: dateFlag("today", "Sweep this day right away (demos and tests); later days follow the daily cron"),
    once: Flag.Boolean("once").pipe(
      Flag.withDescription("Run today's sweep, wait until all its checks are finished in the fleet, and exit"),
      Flag.withDefault(false)
    ),
    consents: Flags.optionalText(
      "consents",
      "KEY[=IBAN][@PROFILE],...",
      "Consents whose standing orders are swept, each at its profile's bank (TPPKIT_<PROFILE>_BASE_URL, …; default this worker's) (TPPKIT_CONSENTS; default: the client id)",
      "TPPKIT_CONSENTS"
    ),
    metricsPort: Flag.Int("metrics-port").pipe(
      Flag.withDescription("Serve Prometheus metrics on 127.0.0.1:P/metrics"),
      Flag.optional
    ),
    runnerPort: Flag.Int("runner-port").pipe(
      Flag.withDescription("TCP port of this runner for the other runners (default: any free port)"),
      Flag.withDefault(0)
    ),
    runnerHost: Flags.optionalText(
      "runner-host",
      "ADDR",
      "The address the other workers reach this one at (TPPKIT_RUNNER_HOST; default 127.0.0.1, allowed only with a database on loopback)",
      "TPPKIT_RUNNER_HOST"
    ),
    runnerListen: Flags.optionalText(
      "runner-listen",
      "ADDR",
      "The address this runner's socket binds (default: the runner host)"
    ),
    runnerTlsCert: Flags.optionalText(
      "runner-tls-cert",
      "FILE",
      "This runner's certificate (PEM), signed by the fleet's CA: runners talk mutual TLS",
      "TPPKIT_RUNNER_TLS_CERT"
    ),
    runnerTlsKey: Flags.optionalText(
      "runner-tls-key",
      "FILE",
      "The key of --runner-tls-cert (PEM)",
      "TPPKIT_RUNNER_TLS_KEY"
    ),
    runnerTlsCa: Flags.optionalText(
      "runner-tls-ca",
      "FILE",
      "The fleet's certificate authority (PEM): only runners with a certificate it signed are heard",
      "TPPKIT_RUNNER_TLS_CA"
    ),
    shards: Flag.Int("shards").pipe(
      Flag.withDescription("The fleet's shards, 1-300, the same on every worker (TPPKIT_WORKER_SHARDS; default 30)"),
      Flag.withFallbackConfig(Config.Int("TPPKIT_WORKER_SHARDS")),
      Flag.withDefault(30)
    ),
    bankRate: Flag.Finite("bank-rate").pipe(
      Flag.withMetavar("N"),
      Flag.withDescription(
        "At most N requests a second to each bank from the whole fleet, slots shared through the database (TPPKIT_BANK_RATE; default: no rate)"
      ),
      Flag.withFallbackConfig(Config.Number("TPPKIT_BANK_RATE")),
      Flag.optional
    ),
    reconfigure: Flag.Boolean("reconfigure").pipe(
      Flag.withDescription(
        "Change the fleet's plan settings (days before, calendar, hour, time zone, balances) to this worker's for the days not yet swept, and its webhook endpoints to this worker's --webhook"
      ),
      Flag.withDefault(false)
    ),
    webhook: Flag.String("webhook").pipe(
      Flag.withMetavar("URL"),
      Flag.withDescription(
        "Post DECLs, refused or unanswered checks and failed sweeps to this endpoint as Standard Webhooks (repeatable; the fleet's endpoints)"
      ),
      Flag.atLeast(0),
      Flag.withDefault([] as ReadonlyArray<string>)
    ),
    webhookSecret: Flag.Redacted("webhook-secret").pipe(
      Flag.withMetavar("SECRET"),
      Flag.withDescription(
        "Each --webhook's secret in order, or one for all: whsec_… (tppkit webhook secret makes one; the new and the old space-separated during a rotation); prefer TPPKIT_WEBHOOK_SECRET, command lines are visible to others"
      ),
      Flag.atLeast(0),
      Flag.withDefault([] as ReadonlyArray<Redacted.Redacted<string>>)
    ),
    balances: Flags.optionalText(
      "balances",
      "FILE",
      "Opening balances (as tppkit forecast reads them), stored with the plan settings: worker status forecasts the checked accounts from them"
    ),
    horizon: Flag.Int("horizon").pipe(
      Flag.withDescription(
        "Forecast the accounts with balances this many working days ahead at each sweep: payment.at_risk (default 10)"
      ),
      Flag.withDefault(10)
    ),
    logFormat: Flag.Literals("log-format", ["logfmt", "json"]).pipe(
      Flag.withDescription("Lifecycle lines on stderr: logfmt, or one JSON object a line"),
      Flag.withDefault("logfmt")
    )
  },
  (input) =>
    Effect.flatMap(
      Effect.promise(() => import("./internal/worker.ts")),
      (impl) => impl.run(input)
    )
).pipe(
  Command.withDescription("Join the fleet of funds-check workers (cluster runner on PostgreSQL)"),
  Command.withSubcommands([workerStatusCommand]),
  Command.withExamples([
    {
      command: "tppkit worker --database-url $URL",
      description: `Join the fleet: sweep daily at 08:00 ${LocalDate.bankTimeZone}, check payments due within 2 working days`
    },
    {
      command: "tppkit worker --database-url $URL --today 2026-11-02 --once",
      description: "Sweep 2026-11-02, wait until every check of it is finished in the fleet, exit"
    }
  ])
)
