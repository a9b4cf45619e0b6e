/**
 * The error family of @tppkit/schedule: one `ScheduleError` whose tagged `reason` says what happened.
 *
 * @since 0.1.0
 */
import { Schema } from "effect"

/** The time zone given for "today" is not an IANA zone name the runtime knows. */
export class InvalidTimeZone extends Schema.TaggedError<InvalidTimeZone>()("InvalidTimeZone", {
  timeZone: Schema.String
}) {}

/** A balance check used by a funds check failed (the checker's own error is kept as the cause). */
export class CheckFailed extends Schema.TaggedError<CheckFailed>()("CheckFailed", {
  message: Schema.String,
  cause: Schema.optional(Schema.Defect())
}) {}

/** A forecast's input or scenario cannot be used: `message` says why (e.g. one account's balance given twice). */
export class InvalidForecast extends Schema.TaggedError<InvalidForecast>()("InvalidForecast", {
  message: Schema.String
}) {}

/**
 * A scenario's text cannot be read (`ScenarioText.parse`): the whole `text`, the `part` (one change) that is wrong,
 * when one is, and why.
 */
export class InvalidScenario extends Schema.TaggedError<InvalidScenario>()("InvalidScenario", {
  text: Schema.String,
  part: Schema.optional(Schema.String),
  detail: Schema.String
}) {
  /** The change and why, e.g. `delay:RENT+0: expected …` (or why, when no part is wrong). */
  get problem(): string {
    return this.part === undefined ? this.detail : `${this.part}: ${this.detail}`
  }
}

/** A failure of the schedule package, with its reason. */
export class ScheduleError extends Schema.TaggedError<ScheduleError>()("ScheduleError", {
  reason: Schema.Union([InvalidTimeZone, CheckFailed, InvalidForecast, InvalidScenario])
}) {
  /** A one-line description naming the reason. */
  override get message(): string {
    const reason = this.reason
    if (reason._tag === "InvalidTimeZone") return `unknown time zone ${JSON.stringify(reason.timeZone)}`
    if (reason._tag === "InvalidScenario") return `scenario ${JSON.stringify(reason.text)}: ${reason.problem}`
    return reason._tag === "CheckFailed" ? `funds check failed: ${reason.message}` : `forecast: ${reason.message}`
  }
}
