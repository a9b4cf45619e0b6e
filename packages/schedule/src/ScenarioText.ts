/**
 * A forecast's what-if scenario as text, as a person types it: changes separated by commas, each `skip:ORDER@DATE`,
 * `fail:ORDER@DATE`, `delay:ORDER+DAYS`, `delay:ORDER@DATE+DAYS`, `add:FILE` (every order of an orders file, read by
 * the caller), `remove:ORDER`, `convention:NAME` or `calendar:NAME`, e.g. `delay:SALARY+3,skip:SO-RENT@2026-08-03`.
 * The text is the scenario's name. `parse` reads it into `Forecast.Scenario`'s changes, `format` writes one change
 * back. The engine is `internal/scenarioText.ts`.
 *
 * @since 0.1.0
 */
import type { Calendar, LocalDate } from "@tppkit/core"
import type { Result } from "effect"
import type * as Forecast from "./Forecast.ts"
import * as Engine from "./internal/scenarioText.ts"
import type * as Projection from "./Projection.ts"
import type { ScheduleError } from "./ScheduleError.ts"

/** What a scenario's text is read with. */
export interface Options {
  /** The orders of each file an `add:FILE` names, read by the caller (see {@link addedFiles}). */
  readonly added?: ReadonlyMap<string, ReadonlyArray<Projection.ProjectableOrder>> | undefined
  /** The bank's own closing days: they stay closed on the calendar a `calendar:NAME` names. */
  readonly holidays?: ReadonlyArray<LocalDate.LocalDate> | undefined
  /** How `calendar:NAME` finds its calendar, or why not (default {@link calendarOf}). */
  readonly calendarOf?: ((name: string) => Result.Result<Calendar.Calendar, string>) | undefined
}

/** A built-in calendar by its name (`target`, `weekends`), or a country's by its ISO 3166 code (`Holidays.national`). */
export const calendarOf: (name: string) => Result.Result<Calendar.Calendar, string> = Engine.calendarOf

/** The files a scenario's text adds orders from (`add:FILE`), in the order named: the caller reads them. */
export const addedFiles: (text: string) => Array<string> = Engine.addedFiles

/**
 * The scenario a text names, or why not: the reason `InvalidScenario` names the change that is wrong (an unknown kind,
 * a date that is no date, a delay that is not a whole number of days ≥ 1, an `add:FILE` not in `options.added`), or
 * that the text names no change.
 * @example parse("delay:SALARY+3,skip:SO-RENT@2026-08-03")
 */
export const parse: (text: string, options?: Options) => Result.Result<Forecast.Scenario, ScheduleError> = Engine.parse

/** A change as a scenario's text names it (`delay:SALARY+3`; an added order as `add:` and its orderId). */
export const format: (change: Forecast.Change) => string = Engine.format
