/**
 * How the `tppkit` command fails: every failure becomes one line on stderr that names what was wrong and a
 * non-zero exit code (2 for an invalid invocation, 1 for anything else); the full cause only with `--verbose`.
 * Secrets never reach these messages: the errors they are built from never carry them.
 *
 * @since 0.1.0
 */
import { Cause, Schema } from "effect"
import { CliError } from "effect/cli"

/** Exit code of a run that failed for a reason other than how the command was invoked. */
export const EXIT_FAILURE = 1

/** Exit code of an invalid invocation: an unknown flag, a bad flag value, `--from` after `--to`. */
export const EXIT_USAGE = 2

/** A failure the command explains in one line, with the exit code it ends with. */
export class CliFailure extends Schema.TaggedError<CliFailure>()("CliFailure", {
  message: Schema.String,
  exitCode: Schema.Int
}) {}

/** A failure caused by bad input on the command line (exit code 2). */
export const usage = (message: string): CliFailure => new CliFailure({ message, exitCode: EXIT_USAGE })

/** A failure while doing the work: a file, the network, the bank (exit code 1). */
export const failure = (message: string): CliFailure => new CliFailure({ message, exitCode: EXIT_FAILURE })

/** The one-line description and exit code of a failed run. */
export interface Outcome {
  readonly message: string
  readonly exitCode: number
}

const firstLine = (text: string): string =>
  text
    .split("\n")
    .find((l) => l.trim().length > 0)
    ?.trim() ?? text

const messageOf = (error: unknown): string | undefined => {
  if (typeof error === "object" && error !== null && "message" in error && typeof error.message === "string") {
    return error.message.length > 0 ? error.message : undefined
  }
  return typeof error === "string" ? error : undefined
}

const hasTag = (error: unknown, tag: string): boolean =>
  typeof error === "object" && error !== null && "_tag" in error && error._tag === tag

/** A bank call refused before sending because of what the user asked for (`BankError` reason `InvalidRequest`). */
const isInvalidBankRequest = (error: unknown): boolean =>
  typeof error === "object" &&
  error !== null &&
  "_tag" in error &&
  error._tag === "BankError" &&
  "reason" in error &&
  typeof error.reason === "object" &&
  error.reason !== null &&
  "_tag" in error.reason &&
  error.reason._tag === "InvalidRequest"

/** Describes a failed run's cause in one line with its exit code (help requests and parse errors: code 2). */
export const outcome = (cause: Cause.Cause<unknown>): Outcome => {
  const error = Cause.squash(cause)
  if (error instanceof CliFailure) return { message: error.message, exitCode: error.exitCode }
  if (CliError.isCliError(error)) {
    if (error._tag === "ShowHelp") {
      const first = error.errors[0]
      return { message: first === undefined ? "" : firstLine(first.message), exitCode: EXIT_USAGE }
    }
    return { message: firstLine(error.message), exitCode: EXIT_USAGE }
  }
  if (hasTag(error, "BankConfigError"))
    return { message: messageOf(error) ?? "invalid configuration", exitCode: EXIT_USAGE }
  if (isInvalidBankRequest(error)) return { message: messageOf(error) ?? "invalid request", exitCode: EXIT_USAGE }
  const tag =
    typeof error === "object" && error !== null && "_tag" in error && typeof error._tag === "string"
      ? error._tag
      : undefined
  const message = messageOf(error)
  return {
    message: message === undefined ? (tag ?? "unexpected failure") : firstLine(message),
    exitCode: EXIT_FAILURE
  }
}
