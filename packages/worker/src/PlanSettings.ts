/**
 * One plan per day: the settings that shape a day's sweep (days before, calendar, hour, time zone, consents) are
 * stored with the fleet in its database by the first worker; a worker started with other settings is refused with
 * one line naming each difference, unless it asks to reconfigure the fleet, which changes them for the days not yet
 * swept (a day already swept keeps the checks it planned).
 *
 * @since 0.1.0
 */
import { Clock, Effect, Schema } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"

/** The settings that shape a day's plan, as the command line gives them (the calendar by its name). */
export interface Settings {
  readonly daysBefore: number
  readonly calendar: string
  readonly hour: number
  readonly timeZone: string
  /** Each consent's key and optional IBAN, in the order given. */
  readonly consents: ReadonlyArray<{ readonly key: string; readonly iban?: string | undefined }>
}

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

const consentsText = (consents: Settings["consents"]): string =>
  consents.map((c) => (c.iban === undefined ? c.key : `${c.key}=${c.iban}`)).join(",")

/** The settings in a canonical form (calendar names compared without case). */
const canonical = (s: Settings): Settings => ({
  daysBefore: s.daysBefore,
  calendar: s.calendar.trim().toLowerCase(),
  hour: s.hour,
  timeZone: s.timeZone,
  consents: s.consents.map((c) => (c.iban === undefined ? { key: c.key } : { key: c.key, iban: c.iban }))
})

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
  compare("--hour", String(a.hour), String(b.hour))
  compare("--time-zone", a.timeZone, b.timeZone)
  compare("--consents", consentsText(a.consents), consentsText(b.consents))
  return out
}

const decodeStored = (text: string): Settings | undefined => {
  try {
    return JSON.parse(text) as Settings
  } catch {
    return undefined
  }
}

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
