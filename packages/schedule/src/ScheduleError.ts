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

/** A failure of the schedule package, with its reason. */
export class ScheduleError extends Schema.TaggedError<ScheduleError>()("ScheduleError", {
  reason: Schema.Union([InvalidTimeZone, CheckFailed, InvalidForecast])
}) {
  /** A one-line description naming the reason. */
  override get message(): string {
    const reason = this.reason
    if (reason._tag === "InvalidTimeZone") return `unknown time zone ${JSON.stringify(reason.timeZone)}`
    return reason._tag === "CheckFailed" ? `funds check failed: ${reason.message}` : `forecast: ${reason.message}`
  }
}
