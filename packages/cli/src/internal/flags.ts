/**
 * Flag shapes more than one command uses.
 */
import { BusinessDayConvention, Calendar, Standard } from "@tppkit/core"
import { Config, Effect, Option } from "effect"
import { CliError, Flag } from "effect/cli"

/** `--format table|json`: a table for people (the default) or JSON for programs. */
export const tableOrJson: Flag.Flag<"table" | "json"> = Flag.Literals("format", ["table", "json"]).pipe(
  Flag.withDescription("Output format (default table)"),
  Flag.withDefault("table")
)

/**
 * `--format`: one of a command's output formats, the first the default; the help lists them unless the command
 * words them itself.
 */
export const format = <const L extends ReadonlyArray<string>>(
  values: L,
  description = `Output format: ${values.join(", ")} (default ${values[0]})`
): Flag.Flag<L[number]> =>
  Flag.Literals("format", values).pipe(Flag.withDescription(description), Flag.withDefault(values[0] as L[number]))

/** A switch, off unless given, with its help text. */
export const toggle = (name: string, description: string): Flag.Flag<boolean> =>
  Flag.Boolean(name).pipe(Flag.withDescription(description), Flag.withDefault(false))

/** A whole-number flag with its help text and its value when absent. */
export const int = (name: string, description: string, fallback: number): Flag.Flag<number> =>
  Flag.Int(name).pipe(Flag.withDescription(description), Flag.withDefault(fallback))

/** A text flag with its metavar and help text. */
export const text = (name: string, metavar: string, description: string): Flag.Flag<string> =>
  Flag.String(name).pipe(Flag.withMetavar(metavar), Flag.withDescription(description))

/** A flag naming a file (metavar `FILE`) with its help text. */
export const file = (name: string, description: string): Flag.Flag<string> => text(name, "FILE", description)

/** A flag naming a calendar day (metavar `YYYY-MM-DD`) with its help text. */
export const date = (name: string, description: string): Flag.Flag<string> => text(name, "YYYY-MM-DD", description)

/** `--orders FILE`: the orders to read; the same flag on every command that reads an orders file. */
export const orders: Flag.Flag<string> = file(
  "orders",
  "Standing-order list response body or bare array of orders (- for stdin)"
)

/** `--from D --to D`: the window of a projection or forecast, both days included. */
export const window = {
  from: date("from", "First day of the window"),
  to: date("to", "Last day of the window")
}

/**
 * An optional text flag with its metavar and help text, and the `TPPKIT_*` variable it falls back to when one is
 * given (the help text names it itself).
 */
export const optionalText = (
  name: string,
  metavar: string,
  description: string,
  env?: string
): Flag.Flag<Option.Option<string>> => {
  const flag = text(name, metavar, description)
  return (env === undefined ? flag : flag.pipe(Flag.withFallbackConfig(Config.String(env)))).pipe(Flag.optional)
}

/** A text flag that may be given any number of times with its metavar and help text, none when absent. */
export const list = (name: string, metavar: string, description: string): Flag.Flag<ReadonlyArray<string>> =>
  text(name, metavar, description).pipe(Flag.atLeast(0), Flag.withDefault([] as ReadonlyArray<string>))

/**
 * A text flag that may be given any number of times with its metavar and help text, none when absent (optional, so
 * that the help does not call it required).
 */
export const repeated = (name: string, metavar: string, description: string): Flag.Flag<ReadonlyArray<string>> =>
  text(name, metavar, description).pipe(
    Flag.atLeast(0),
    Flag.optional,
    Flag.map(Option.getOrElse((): ReadonlyArray<string> => []))
  )

/**
 * A flag with a fixed set of values and a fallback environment variable; a bad value from either names the
 * allowed values (and the variable when it came from there).
 */
export const literalsWithEnv = <const L extends ReadonlyArray<string>>(
  name: string,
  values: L,
  env: string
): Flag.Flag<L[number]> => {
  const allowed = values.map((v) => JSON.stringify(v)).join(" | ")
  const fromEnv = Config.String(env).pipe(Config.map((value) => ({ fromEnv: value })))
  return Flag.Literals(name, values).pipe(
    Flag.withFallbackConfig(fromEnv),
    Flag.mapEffect((value) => {
      if (typeof value === "string") return Effect.succeed(value)
      return (values as ReadonlyArray<string>).includes(value.fromEnv)
        ? Effect.succeed(value.fromEnv as L[number])
        : Effect.fail(
            new CliError.InvalidValue({
              option: name,
              value: value.fromEnv,
              expected: `${allowed} (the value came from ${env})`,
              kind: "flag"
            })
          )
    })
  )
}

/**
 * `--standard`: every record of the orders file read in this standard, else each in the one its `standard` field
 * says or its fields reveal (core's `Standard.detect`); the same flag on every command that reads orders.
 */
export const standard: Flag.Flag<Option.Option<Standard.Standard>> = Flag.Literals("standard", Standard.standards).pipe(
  Flag.withDescription(
    "Read every record in this standard (default: each record's own, as its standard field says or its fields reveal)"
  ),
  Flag.optional
)

/**
 * `--standard` on the commands that read the bank's own listing (`worker`, `standing-orders --reconcile`): its records
 * read in this standard in place of the bank profile's (`--profile`; BankConfig's `Settings.standard`).
 */
export const bankStandard: Flag.Flag<Option.Option<Standard.Standard>> = Flag.Literals(
  "standard",
  Standard.standards
).pipe(
  Flag.withDescription("Read the bank's records in this standard (default: its profile's, as --profile says)"),
  Flag.optional
)

/**
 * `--calendar`: the working-day calendar the rule moves dates on (a built-in one, a country's, or `auto`: each
 * currency's own), as `Project.settings` reads it, with its default; the same flag on every command that projects.
 */
export const calendarWith = (fallback: string): Flag.Flag<string> =>
  Flag.String("calendar").pipe(
    Flag.withDescription(
      `${Calendar.builtIn.map((c) => c.name).join(", ")}, an ISO 3166 country code, e.g. SK, or auto: each currency's own (EUR target, CZK CZ, USD US …; default ${fallback})`
    ),
    Flag.withDefault(fallback)
  )

/** {@link calendarWith} the default calendar, `target` (the schedule rules' default). */
export const calendar: Flag.Flag<string> = calendarWith(Calendar.target.name)

/** `--holidays D,D`: the bank's own closing days, added to the calendar; the same flag on every command that projects. */
export const holidays: Flag.Flag<Option.Option<string>> = text(
  "holidays",
  "YYYY-MM-DD,...",
  "Extra holidays added to the calendar"
).pipe(Flag.optional)

/**
 * `--convention` with what a command says of it (the default named after it): optional where the command finds the
 * default itself, else defaulting to {@link BusinessDayConvention.defaultConvention}.
 */
export const conventionSaying = (what: string) =>
  Flag.Literals("convention", BusinessDayConvention.conventions).pipe(
    Flag.withDescription(`${what} (default ${BusinessDayConvention.defaultConvention})`)
  )

/** {@link conventionSaying} with the default convention when not given. */
export const conventionWithDefault = (what: string): Flag.Flag<BusinessDayConvention.BusinessDayConvention> =>
  conventionSaying(what).pipe(Flag.withDefault(BusinessDayConvention.defaultConvention))

/** `--convention`: the business-day convention; the same flag on every command that projects. */
export const convention = conventionWithDefault("Business-day convention")

/**
 * `--raw-csv`: with `--format csv`, cells that begin like a spreadsheet formula (`=`, `+`, `-`, `@` …) are written
 * as they are, for programs that read the file; by default they are neutralised for spreadsheets (a `'` before
 * them). Control characters are shown escaped either way.
 */
export const rawCsv: Flag.Flag<boolean> = toggle(
  "raw-csv",
  "With --format csv: write cells that begin like a spreadsheet formula (=, +, -, @) as they are, for programs (default: a ' before them, as OWASP recommends)"
)

/**
 * `--accounts FILE`: account ids a source names instead of an IBAN (a UK `AccountId`, YNAB and Actual accounts) mapped
 * to the account's IBAN and currency (core's `AccountMap`); the same flag on every command that reads orders.
 */
export const accounts: Flag.Flag<Option.Option<string>> = file(
  "accounts",
  'Account ids mapped to an IBAN and a currency, for records that carry neither (UK AccountId, YNAB and Actual accounts): { "ID": { "iban": "...", "currency": "GBP" } }'
).pipe(Flag.optional)

/** `--standard` and `--accounts`: how an orders file's records are read; the same on every command that reads one. */
export const reading = { standard, accounts }

/**
 * `--listed-on`: the day the orders' list was read, from which a COBS list item (which names no start) counts; the
 * same flag on the commands that read orders without a window (`translate`, `worker status --orders`).
 */
export const listedOn: Flag.Flag<Option.Option<string>> = date(
  "listed-on",
  "The day the list was read: a COBS list item names no start and counts from it (default today in the bank's time zone, said in a warning)"
).pipe(Flag.optional)

/**
 * The rule a listing is reconciled against (`tppkit reconcile`, `standing-orders --reconcile`): `--calendar` with
 * `every-day` (a bank paying on every day) besides the calendars, `--holidays` and `--convention`.
 */
export const reconcileRule = {
  calendar: Flag.String("calendar").pipe(
    Flag.withDescription(
      `The calendar tppkit projects with: ${Calendar.builtIn.map((c) => c.name).join(", ")}, every-day or an ISO 3166 country code (default ${Calendar.target.name})`
    ),
    Flag.withDefault(Calendar.target.name)
  ),
  convention: conventionWithDefault("The convention tppkit projects with"),
  holidays: text(
    "holidays",
    "YYYY-MM-DD,...",
    "Holidays besides the calendar's (with every-day: the only days it is closed)"
  ).pipe(Flag.optional)
}
