/**
 * One plan per day: the settings that shape a day's sweep (days before, calendar, holidays, convention, the standard the
 * bank's records are read in, the bank's profile, hour, time zone) are
 * stored with the fleet in its database by the first worker; a worker started with other settings is refused with
 * one line naming each difference, unless it asks to reconfigure the fleet, which changes them for the days not yet
 * swept (a day already swept keeps the checks it planned). The opening balances a worker is given (`--balances`)
 * are stored with them and follow the same rule: they shape no check, but they are what `tppkit worker status`
 * forecasts the checked accounts from, so the fleet holds one set of them and a worker with others (or none where
 * the fleet has some) is refused until one reconfigures the fleet.
 *
 * @since 0.1.0
 */
import { Clock, Effect, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"

/**
 * One account's opening balance as the fleet stores it: the balance at the start of `date` (before that day's
 * payments) and an optional threshold, exact decimals as plain text (`"1250.5"`), the date as `YYYY-MM-DD`.
 */
export const Balance = Schema.Struct({
  iban: Schema.String,
  currency: Schema.String,
  amount: Schema.String,
  date: Schema.String,
  threshold: Schema.optionalKey(Schema.String)
})

/** One account's opening balance as the fleet stores it. */
export type Balance = typeof Balance.Type

/**
 * The settings that shape a day's plan, as the command line gives them (the calendar by its name), and as the fleet
 * stores them (what a worker of this or an older version wrote: an older one kept the consents here too, which are the
 * fleet's data now, `Consents`, and no longer part of the plan; they are passed over).
 */
export const Settings = Schema.Struct({
  daysBefore: Schema.Number,
  calendar: Schema.String,
  /** The bank's own closing days added to the calendar (`--holidays`), as `YYYY-MM-DD`; absent: none. */
  holidays: Schema.optional(Schema.Array(Schema.String)),
  /** The business-day convention of the plan (`--convention`); absent: `following`. */
  convention: Schema.optional(Schema.String),
  /**
   * The standard the worker's bank's records are read in (`--standard`) where it is not the bank profile's own, so
   * that two workers never read the same bank's records differently; absent: the profile's.
   */
  standard: Schema.optional(Schema.String),
  /**
   * The bank profile the worker's own bank is read with (`--profile`) where it is not the seed bank's (`sbas`), so
   * that two workers never read one bank with two profiles (its paths, fields and limits); absent: `sbas`.
   */
  profile: Schema.optional(Schema.String),
  hour: Schema.Number,
  timeZone: Schema.String,
  /** The opening balances of `--balances`, one per account (absent: none given). */
  balances: Schema.optional(Schema.Array(Balance))
})

/** The settings that shape a day's plan. */
export type Settings = typeof Settings.Type

/** A worker's settings differ from the fleet's: each difference as `what: here …, fleet …`. */
export class PlanSettingsError extends Schema.TaggedError<PlanSettingsError>()("PlanSettingsError", {
  differences: Schema.Array(Schema.String),
  setAt: Schema.String
}) {
  /** One line naming every difference and the two ways out. */
  override get message(): string {
    return `this worker's plan settings differ from the fleet's (stored ${this.setAt}): ${this.differences.join("; ")}; start it with the fleet's settings, or give --reconfigure to change the fleet's for the days not yet swept`
  }
}

/** The DDL of the fleet's settings table (idempotent). */
export const ddl: ReadonlyArray<string> = [
  `CREATE TABLE IF NOT EXISTS tppkit_plan_settings (
    id integer PRIMARY KEY CHECK (id = 1), settings text NOT NULL, set_at bigint NOT NULL)`
]

const balanceOf = (b: Balance): Balance => ({
  iban: b.iban,
  currency: b.currency,
  amount: b.amount,
  date: b.date,
  ...(b.threshold === undefined ? {} : { threshold: b.threshold })
})

/**
 * The settings in a canonical form: calendar names compared without case, the balances by IBAN (the order of a
 * file's records does not matter); no `balances` key without balances, so that settings stored by a version that
 * had none read the same.
 */
const canonical = (s: Settings): Settings => ({
  daysBefore: s.daysBefore,
  calendar: s.calendar.trim().toLowerCase(),
  // the defaults leave no key, so that settings stored by a version without these flags read the same
  ...(s.holidays === undefined || s.holidays.length === 0 ? {} : { holidays: [...new Set(s.holidays)].sort() }),
  ...(s.convention === undefined || s.convention === "following" ? {} : { convention: s.convention }),
  ...(s.standard === undefined ? {} : { standard: s.standard }),
  ...(s.profile === undefined || s.profile === "sbas" ? {} : { profile: s.profile }),
  hour: s.hour,
  timeZone: s.timeZone,
  ...(s.balances === undefined
    ? {}
    : { balances: s.balances.map(balanceOf).sort((a, b) => (a.iban < b.iban ? -1 : a.iban > b.iban ? 1 : 0)) })
})

/** Balances in a few words: `none`, or how many accounts and their dates. */
const balancesText = (balances: Settings["balances"]): string => {
  if (balances === undefined) return "none"
  const dates = [...new Set(balances.map((b) => b.date))].sort()
  const when = dates.length === 0 ? "" : ` as of ${dates.length === 1 ? dates[0] : `${dates[0]}..${dates.at(-1)}`}`
  return `${balances.length} ${balances.length === 1 ? "account" : "accounts"}${when}`
}

/** The IBANs whose balance differs between two canonical sets (either side's), at most `max` of them. */
const changedAccounts = (a: ReadonlyArray<Balance>, b: ReadonlyArray<Balance>, max: number): Array<string> => {
  const there = new Map(b.map((x) => [x.iban, JSON.stringify(x)]))
  const here = new Set(a.map((x) => x.iban))
  const out = a.filter((x) => there.get(x.iban) !== JSON.stringify(x)).map((x) => x.iban)
  for (const x of b) if (!here.has(x.iban)) out.push(x.iban)
  return out.slice(0, max)
}

/** Each setting that differs, as `--flag here X, fleet Y` (empty: the same plan). */
export const differences = (here: Settings, fleet: Settings): Array<string> => {
  const a = canonical(here)
  const b = canonical(fleet)
  const out: Array<string> = []
  const compare = (flag: string, x: string, y: string) => {
    if (x !== y) out.push(`${flag} ${x} here, ${y} in the fleet`)
  }
  compare("--days-before", String(a.daysBefore), String(b.daysBefore))
  compare("--calendar", a.calendar, b.calendar)
  compare("--holidays", a.holidays?.join(",") ?? "none", b.holidays?.join(",") ?? "none")
  compare("--convention", a.convention ?? "following", b.convention ?? "following")
  compare("--standard", a.standard ?? "the profile's", b.standard ?? "the profile's")
  compare("--profile", a.profile ?? "sbas", b.profile ?? "sbas")
  compare("--hour", String(a.hour), String(b.hour))
  compare("--time-zone", a.timeZone, b.timeZone)
  if (JSON.stringify(a.balances) !== JSON.stringify(b.balances)) {
    const x = balancesText(a.balances)
    const y = balancesText(b.balances)
    if (x !== y) out.push(`--balances ${x} here, ${y} in the fleet`)
    else {
      const changed = changedAccounts(a.balances ?? [], b.balances ?? [], 3)
      out.push(`--balances ${x} here and in the fleet, with other figures for ${changed.join(", ")}`)
    }
  }
  return out
}

const decodeText = Schema.decodeUnknownOption(Schema.fromJsonString(Settings))

/** Stored settings read back; `undefined` for a text that is not such settings. */
const decodeStored = (text: string): Settings | undefined => Option.getOrUndefined(decodeText(text))

/**
 * Joins the fleet's plan: stores these settings when the fleet has none (or `reconfigure` is given), else refuses
 * settings that differ with a {@link PlanSettingsError}. Returns whether the stored settings changed.
 */
export const claim = (
  settings: Settings,
  options: { readonly reconfigure?: boolean | undefined } = {}
): Effect.Effect<boolean, PlanSettingsError | SqlError, SqlClient.SqlClient> =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const now = yield* Clock.currentTimeMillis
    const text = JSON.stringify(canonical(settings))
    // the first worker's settings win a race: insert-if-absent, then read what is stored
    yield* sql`INSERT INTO tppkit_plan_settings (id, settings, set_at) VALUES (1, ${text}, ${now})
      ON CONFLICT (id) DO NOTHING`
    const rows = yield* sql<{ settings: string; set_at: string }>`
      SELECT settings, set_at FROM tppkit_plan_settings WHERE id = 1`
    const stored = rows[0]
    const fleet = stored === undefined ? undefined : decodeStored(stored.settings)
    if (stored === undefined || fleet === undefined || stored.settings === text) return false
    const changed = differences(settings, fleet)
    if (options.reconfigure === true || changed.length === 0) {
      yield* sql`UPDATE tppkit_plan_settings SET settings = ${text}, set_at = ${now} WHERE id = 1`
      return changed.length > 0
    }
    return yield* new PlanSettingsError({
      differences: changed,
      setAt: new Date(Number(stored.set_at)).toISOString()
    })
  })

/** The fleet's stored plan settings and when they were stored (epoch milliseconds), if a worker has stored any. */
export const stored: Effect.Effect<
  Option.Option<{ readonly settings: Settings; readonly setAt: number }>,
  SqlError,
  SqlClient.SqlClient
> = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ settings: string; set_at: string }>`
    SELECT settings, set_at FROM tppkit_plan_settings WHERE id = 1`
  const row = rows[0]
  const settings = row === undefined ? undefined : decodeStored(row.settings)
  return row === undefined || settings === undefined
    ? Option.none()
    : Option.some({ settings, setAt: Number(row.set_at) })
})
