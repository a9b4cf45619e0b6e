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
import { Config, type Redacted } from "effect"
import { Command, Flag } from "effect/cli"
import * as Connection from "./Connection.ts"
import * as CommandSpec from "./internal/commandSpec.ts"
import * as Flags from "./internal/flags.ts"

/**
 * `tppkit worker status --database-url URL [--day YYYY-MM-DD] [--format table|json] [--balances FILE] [--orders FILE]`.
 */
export const workerStatusCommand = CommandSpec.make({
  name: "status",
  flags: {
    databaseUrl: Connection.flags.databaseUrl,
    day: Flags.optionalText(
      "day",
      "YYYY-MM-DD",
      "Only the checks planned by this day's sweep, and this day's budget (default: all)"
    ),
    format: Flags.tableOrJson,
    balances: Flags.optionalText(
      "balances",
      "FILE",
      "Opening balances (as tppkit forecast reads them) for a forecast of the checked accounts with the checks beside it (default: those the workers were started with)"
    ),
    balanceMaxAge: Flags.int(
      "balance-max-age",
      "Flag stored balances older than this many days: the forecast ahead stands on them (default 3)",
      3
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
    ...Flags.reading,
    listedOn: Flags.listedOn
  },
  run: CommandSpec.lazy(() => import("./internal/workerStatus.ts"))("status"),
  description: "The fleet's funds checks (outcome, attempts, Request-ID) and the shared daily budget",
  examples: [{ command: "tppkit worker status --database-url $URL --day 2026-11-02", description: "One day's checks" }]
})

/**
 * `tppkit worker --database-url URL [--days-before N] [--calendar C] [--hour H] [--time-zone Z] [--today D]
 * [--once] [--consents K[=IBAN][@PROFILE],…] [--metrics-port P] [--webhook URL …] [--balances FILE]` plus the bank connection
 * flags.
 */
export const workerCommand = CommandSpec.make({
  name: "worker",
  flags: {
    ...Connection.flags,
    daysBefore: Flags.int(
      "days-before",
      "Check payments executing up to this many working days after today (default 2)",
      2
    ),
    calendar: Flag.String("calendar").pipe(
      Flag.withDescription("Working days: weekends, target or an ISO 3166 country code, e.g. SK (default target)"),
      Flag.withDefault("target")
    ),
    holidays: Flags.holidays,
    convention: Flags.convention,
    standard: Flags.bankStandard,
    hour: Flags.int("hour", "Local hour of the daily sweep, 0-23 (default 8)", 8),
    timeZone: Flag.String("time-zone").pipe(
      Flag.withDescription(`IANA time zone of the sweep hour and of today (default ${LocalDate.bankTimeZone})`),
      Flag.withDefault(LocalDate.bankTimeZone)
    ),
    today: Flags.optionalText(
      "today",
      "YYYY-MM-DD",
      "Sweep this day right away (demos and tests); later days follow the daily cron"
    ),
    once: Flags.toggle("once", "Run today's sweep, wait until all its checks are finished in the fleet, and exit"),
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
    runnerPort: Flags.int("runner-port", "TCP port of this runner for the other runners (default: any free port)", 0),
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
    reconfigure: Flags.toggle(
      "reconfigure",
      "Change the fleet's plan settings (days before, calendar, hour, time zone, balances) to this worker's for the days not yet swept, and its webhook endpoints to this worker's --webhook"
    ),
    webhook: Flags.list(
      "webhook",
      "URL",
      "Post DECLs, refused or unanswered checks and failed sweeps to this endpoint as Standard Webhooks (repeatable; the fleet's endpoints)"
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
    horizon: Flags.int(
      "horizon",
      "Forecast the accounts with balances this many working days ahead at each sweep: payment.at_risk (default 10)",
      10
    ),
    logFormat: Flag.Literals("log-format", ["logfmt", "json"]).pipe(
      Flag.withDescription("Lifecycle lines on stderr: logfmt, or one JSON object a line"),
      Flag.withDefault("logfmt")
    )
  },
  run: CommandSpec.lazy(() => import("./internal/worker.ts"))("run"),
  description: "Join the fleet of funds-check workers (cluster runner on PostgreSQL)",
  examples: [
    {
      command: "tppkit worker --database-url $URL",
      description: `Join the fleet: sweep daily at 08:00 ${LocalDate.bankTimeZone}, check payments due within 2 working days`
    },
    {
      command: "tppkit worker --database-url $URL --today 2026-11-02 --once",
      description: "Sweep 2026-11-02, wait until every check of it is finished in the fleet, exit"
    }
  ]
}).pipe(Command.withSubcommands([workerStatusCommand]))
