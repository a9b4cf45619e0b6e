/**
 * How the `tppkit` command fails: every failure has a kind, and the kind decides the exit code (see
 * {@link exitCodes}); it is reported as one line on stderr (`tppkit: <what was wrong>`), or with `--format json`
 * as one JSON line `{"error": {...}}`; `--verbose` adds the chain of typed errors that led to it. Secrets never
 * reach these reports: the errors they are built from never carry them.
 *
 * @since 0.1.0
 */
import { ErrorBody, RequestIdentity } from "@tppkit/core"
import type { BankError } from "@tppkit/http"
// the light module only: importing it loads neither the bank client nor its transport
import * as FailureClass from "@tppkit/http/FailureClass"
import { Cause, Schema } from "effect"
import { CliError } from "effect/cli"

/** The classes of failure, each with its own exit code. */
export const Kind = Schema.Literals([
  "failure",
  "usage",
  "configuration",
  "budget",
  "refused",
  "unavailable",
  "data",
  "findings",
  "incomplete",
  "interrupted"
])

/** The classes of failure, each with its own exit code. */
export type Kind = typeof Kind.Type

/**
 * The exit code of each kind of failure: 1 anything else (a file that cannot be read, a page past the last),
 * 2 an invalid invocation, 3 configuration or credentials, 4 the daily budget, 5 the bank refused the request,
 * 6 the bank is unavailable or unreachable, 7 data that cannot be used, 8 findings a person should look at (the
 * command ran and printed them: anomalies or unexplained dates of a reconciliation), 9 work left incomplete
 * (`worker --once`: a sweep that could not complete or checks left without an answer), 130 interrupted.
 */
export const exitCodes: { readonly [K in Kind]: number } = {
  failure: 1,
  usage: 2,
  configuration: 3,
  budget: 4,
  refused: 5,
  unavailable: 6,
  data: 7,
  findings: 8,
  incomplete: 9,
  interrupted: 130
}

/** Exit code of a run that failed for a reason without a class of its own. */
export const EXIT_FAILURE = exitCodes.failure

/** Exit code of an invalid invocation: an unknown flag, a bad flag value, `--from` after `--to`. */
export const EXIT_USAGE = exitCodes.usage

/** What a failure report says beyond its message: the bank's status and code, the request identifiers. */
export const Details = Schema.Struct({
  operation: Schema.optionalKey(Schema.String),
  status: Schema.optionalKey(Schema.Int),
  code: Schema.optionalKey(Schema.String),
  ...RequestIdentity.RequestIdentity.fields,
  retryAfterSeconds: Schema.optionalKey(Schema.Number),
  freesAt: Schema.optionalKey(Schema.String)
})

/** What a failure report says beyond its message: the bank's status and code, the request identifiers. */
export type Details = typeof Details.Type

/**
 * A failure the command explains in one line: its kind (which decides the exit code), the details a script may
 * want, and the typed error it was made from (`origin`), shown by `--verbose`.
 */
export class CliFailure extends Schema.TaggedError<CliFailure>()("CliFailure", {
  message: Schema.String,
  kind: Kind,
  details: Schema.optionalKey(Details),
  origin: Schema.optionalKey(Schema.Unknown),
  /** Whether a usage failure is worth a pointer to `--help` (not for the content of a file). */
  noHelpHint: Schema.optionalKey(Schema.Boolean)
}) {
  /** The exit code of this failure's kind. */
  get exitCode(): number {
    return exitCodes[this.kind]
  }
}

/** A failure of the given kind, with optional details and the error it was made from. */
export const make = (
  kind: Kind,
  message: string,
  options: { readonly details?: Details | undefined; readonly origin?: unknown } = {}
): CliFailure =>
  new CliFailure({
    message,
    kind,
    ...(options.details === undefined ? {} : { details: options.details }),
    ...(options.origin === undefined ? {} : { origin: options.origin })
  })

/** A failure caused by bad input on the command line or in a file given to it (exit code 2). */
export const usage = (message: string, origin?: unknown): CliFailure => make("usage", message, { origin })

/** Input given through the command line that is not what it should be, e.g. not an orders file (exit code 2). */
export const badInput = (message: string, origin?: unknown): CliFailure =>
  new CliFailure({ message, kind: "usage", noHelpHint: true, ...(origin === undefined ? {} : { origin }) })

/** A failure without a class of its own: a file that cannot be read, a page past the last (exit code 1). */
export const failure = (message: string, origin?: unknown): CliFailure => make("failure", message, { origin })

/** Missing or invalid configuration or credentials: no bank address, a bad setting, a TLS file (exit code 3). */
export const configuration = (message: string, origin?: unknown): CliFailure =>
  make("configuration", message, { origin })

/**
 * The run worked and printed what it found, but the findings need a person (exit code 8); nothing more is printed,
 * so that a nightly job can alert on the code alone.
 */
export const findings = (): CliFailure => make("findings", "")

/** The full report of a failed run: kind, one-line message, exit code and details. */
export interface Outcome {
  readonly kind: Kind
  readonly message: string
  readonly exitCode: number
  readonly details?: Details
  /** Whether to point at `--help` after the message (invalid invocations). */
  readonly helpHint: boolean
}

const firstLine = (text: string): string =>
  text
    .split("\n")
    .find((l) => l.trim().length > 0)
    ?.trim() ?? text

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null

const messageOf = (error: unknown): string | undefined => {
  if (isObject(error) && typeof error.message === "string") {
    return error.message.length > 0 ? error.message : undefined
  }
  return typeof error === "string" ? error : undefined
}

const tagOf = (error: unknown): string | undefined =>
  isObject(error) && typeof error._tag === "string" ? error._tag : undefined

const isBankError = (error: unknown): error is BankError.BankError =>
  isObject(error) && error._tag === "BankError" && isObject(error.reason) && typeof error.reason._tag === "string"

const statusOfTag: Record<string, number> = {
  BadRequest: 400,
  Unauthorized: 401,
  Forbidden: 403,
  NotFound: 404,
  TooManyRequests: 429
}

/** The kind of each class of bank failure (http's `FailureClass`): an invalid request is a usage failure. */
const kindOfClass: { readonly [C in FailureClass.FailureClass]: Kind } = {
  refused: "refused",
  unavailable: "unavailable",
  configuration: "configuration",
  budget: "budget",
  data: "data",
  invalid: "usage"
}

/** The kind of a bank call's failure, from its reason's class (a reason this version does not know: `failure`). */
export const bankKind = (reason: BankError.Reason): Kind => kindOfClass[FailureClass.classify(reason)] ?? "failure"

/** The details of a bank call's failure: operation, status, the bank's code, the request identifiers. */
export const bankDetails = (error: BankError.BankError): Details => {
  const reason = error.reason
  const status = "status" in reason ? reason.status : statusOfTag[reason._tag]
  // a status's error body, or the error a 2xx answer carried instead of its success shape
  const body = "body" in reason ? reason.body : "error" in reason ? reason.error : undefined
  const code = isObject(body) ? ErrorBody.code(body) : undefined
  const ids = error.identity
  return {
    operation: error.operation,
    ...(status === undefined ? {} : { status }),
    ...(code === undefined ? {} : { code }),
    ...(ids.requestId === undefined ? {} : { requestId: ids.requestId }),
    ...(ids.correlationId === undefined ? {} : { correlationId: ids.correlationId }),
    ...(ids.processId === undefined ? {} : { processId: ids.processId }),
    ...(ids.responseId === undefined ? {} : { responseId: ids.responseId }),
    ...("retryAfterSeconds" in reason && reason.retryAfterSeconds !== undefined
      ? { retryAfterSeconds: reason.retryAfterSeconds }
      : {}),
    ...("freesAt" in reason ? { freesAt: reason.freesAt } : {})
  }
}

/**
 * A bank call's failure as a `CliFailure` with its kind and details, the message replaced when given (e.g. one
 * that names the address that could not be reached); anything else is returned as it is.
 */
export const fromBank = <E>(error: E, message?: string): E | CliFailure =>
  isBankError(error)
    ? make(bankKind(error.reason), message ?? error.message, { details: bankDetails(error), origin: error })
    : error

/** Describes a failed run's cause: kind, one line, exit code and details (help requests and parse errors: usage). */
export const outcome = (cause: Cause.Cause<unknown>): Outcome => {
  if (Cause.hasInterruptsOnly(cause)) {
    return { kind: "interrupted", message: "interrupted", exitCode: exitCodes.interrupted, helpHint: false }
  }
  const error = Cause.squash(cause)
  const of = (kind: Kind, message: string, details?: Details, helpHint = kind === "usage"): Outcome => ({
    kind,
    message,
    exitCode: exitCodes[kind],
    ...(details === undefined ? {} : { details }),
    helpHint
  })
  if (error instanceof CliFailure) {
    return of(error.kind, error.message, error.details, error.kind === "usage" && error.noHelpHint !== true)
  }
  if (CliError.isCliError(error)) {
    if (error._tag === "ShowHelp") {
      const first = error.errors[0]
      return of("usage", first === undefined ? "" : firstLine(first.message))
    }
    return of("usage", firstLine(error.message))
  }
  if (tagOf(error) === "BankConfigError") return of("configuration", messageOf(error) ?? "invalid configuration")
  if (isBankError(error)) return of(bankKind(error.reason), firstLine(error.message), bankDetails(error))
  const message = messageOf(error)
  return of("failure", message === undefined ? (tagOf(error) ?? "unexpected failure") : firstLine(message))
}

/**
 * A failed run as the one JSON line `--format json` prints on stderr: `{"error": {"kind", "message", "exitCode",
 * …details, "chain"?}}` (the chain of typed errors with `--verbose`).
 */
export const json = (o: Outcome, errorChain?: ReadonlyArray<string>): string =>
  JSON.stringify({
    error: {
      kind: o.kind,
      message: o.message,
      exitCode: o.exitCode,
      ...o.details,
      ...(errorChain === undefined ? {} : { chain: errorChain })
    }
  })

const scalarFields = (error: Record<string, unknown>): string => {
  const parts: Array<string> = []
  for (const [key, value] of Object.entries(error)) {
    if (key === "_tag" || key === "message" || key === "origin" || key === "reason" || key === "cause") continue
    if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") {
      parts.push(`${key}=${JSON.stringify(value)}`)
    } else if (key === "identity" || key === "details") {
      if (isObject(value)) {
        for (const [k, v] of Object.entries(value)) if (v !== undefined) parts.push(`${k}=${JSON.stringify(v)}`)
      }
    } else if (key === "body" && isObject(value) && typeof value._tag === "string") {
      parts.push(`body=${JSON.stringify(ErrorBody.headline(value as ErrorBody.ErrorBody))}`)
    }
  }
  return parts.length === 0 ? "" : ` {${parts.join(", ")}}`
}

/** The error an error was made from: a CLI failure's origin, a bank error's reason, an `Error`'s cause. */
const next = (error: unknown): unknown => {
  if (!isObject(error)) return undefined
  if (error instanceof CliFailure) return error.origin
  if (isBankError(error)) return error.reason
  return "cause" in error ? error.cause : undefined
}

/**
 * The typed errors behind a failed run, outermost first, each as `Tag {field=value, …}: message` (the errors
 * it was made from marked `← `); a defect (a
 * bug, not a typed failure) is shown with its stack.
 */
export const chain = (cause: Cause.Cause<unknown>): Array<string> => {
  const lines: Array<string> = []
  for (const reason of cause.reasons) {
    if (Cause.isFailReason(reason)) {
      let error: unknown = reason.error
      for (let depth = 0; error !== undefined && depth < 10; depth++) {
        const tag = tagOf(error) ?? (error instanceof Error ? error.name : typeof error)
        const message = messageOf(error)
        const fields = isObject(error) ? scalarFields(error) : ""
        lines.push(`${depth === 0 ? "" : "← "}${tag}${fields}${message === undefined ? "" : `: ${message}`}`)
        error = next(error)
      }
    } else if (Cause.isDieReason(reason)) {
      const defect = reason.defect
      lines.push(`defect: ${defect instanceof Error ? (defect.stack ?? defect.message) : String(defect)}`)
    } else {
      lines.push("interrupted")
    }
  }
  return lines
}
