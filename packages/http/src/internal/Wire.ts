/**
 * Thin adapters over core's wire schemas (BalanceCheck, StandingOrder): schema issues as a dotted path and a
 * message, and the lenient page decoding with the failure shape the client reports.
 */
import { type BalanceCheck, ErrorBody, SchemaProblem, StandingOrder } from "@tppkit/core"
import { Result, type SchemaIssue } from "effect"
import { MalformedResponse } from "../BankError.ts"

/** The first issue of a schema failure as core words it, the root written `$` as the client's errors do. */
export const firstIssue = (issue: SchemaIssue.Issue): { path: string; message: string } => {
  const { path, message } = SchemaProblem.first(issue)
  return { path: path ?? "$", message }
}

/**
 * The JSON text of an encoded balance-check request (core's `BalanceCheck.encodeRequest` output): the common request
 * (the three mandatory fields) is written directly, in the schema's key order, every text through `JSON.stringify`
 * (the same text `JSON.stringify` makes of the whole object; property-tested); any other request by `JSON.stringify`.
 * It runs on every balance check, where the generic walk of `JSON.stringify` was the largest single cost.
 */
export const balanceCheckText = (json: BalanceCheck.RequestJson): string => {
  if (json.creationDateTime !== undefined || json.relatedParties !== undefined || json.references !== undefined) {
    return JSON.stringify(json)
  }
  const { value, currency } = json.amount
  return `{"instructionIdentification":${JSON.stringify(json.instructionIdentification)},"iban":${JSON.stringify(json.iban)},"amount":{"value":${JSON.stringify(value)},"currency":${JSON.stringify(currency)}}}`
}

const errorKeys = ["tppMessages", "errors", "error", "type", "title", "status", "detail", "code"]

/**
 * Decodes a list response leniently (core's rules): malformed records come back as errors beside the good ones.
 * A body without `standingOrders` that carries an error's members (problem details, OAuth, `tppMessages`,
 * `errors`) is refused, not read as an empty list.
 */
export const decodePage = (
  u: unknown
): Result.Result<StandingOrder.LenientList, { readonly path: string; readonly message: string }> => {
  if (typeof u === "object" && u !== null && !Array.isArray(u)) {
    const record = u as Record<string, unknown>
    if ((record.standingOrders === undefined || record.standingOrders === null) && errorKeys.some((k) => k in record)) {
      return Result.fail({ path: "standingOrders", message: "missing, and the body looks like an error" })
    }
  }
  return Result.mapError(StandingOrder.decodeListLenient(u), (message) => ({ path: "$", message }))
}

/**
 * Whether the text holds at most `max` opening brackets anywhere (strings included): then no nesting can be deeper
 * than `max`. A few native `indexOf` calls for a small answer, instead of a pass over every character.
 */
const fewBrackets = (text: string, max: number): boolean => {
  let count = 0
  for (let i = text.indexOf("{"); i !== -1; i = text.indexOf("{", i + 1)) if (++count > max) return false
  for (let i = text.indexOf("["); i !== -1; i = text.indexOf("[", i + 1)) if (++count > max) return false
  return true
}

/**
 * The nesting depth of the JSON text, counted over brackets outside strings, stopping as soon as it passes
 * `max` (so a hostile body costs one pass at most, and no recursion anywhere). A text with no more than `max`
 * opening brackets at all is not scanned.
 */
export const depthExceeds = (text: string, max: number): boolean => {
  if (fewBrackets(text, max)) return false
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 92)
        i++ // backslash: skip the escaped character
      else if (c === 34) inString = false
    } else if (c === 34) inString = true
    else if (c === 123 || c === 91) {
      if (++depth > max) return true
    } else if (c === 125 || c === 93) depth--
  }
  return false
}

/** Parses a success body as JSON no deeper than `maxDepth`; anything else is a `MalformedResponse`. */
export const parseJson = (text: string, maxDepth: number): Result.Result<unknown, MalformedResponse> => {
  if (depthExceeds(text, maxDepth)) {
    return Result.fail(new MalformedResponse({ path: "$", detail: `JSON nested deeper than ${maxDepth} levels` }))
  }
  try {
    return Result.succeed(JSON.parse(text))
  } catch {
    return Result.fail(
      new MalformedResponse({ path: "$", detail: text.trim() === "" ? "the body is empty" : "the body is not JSON" })
    )
  }
}

/**
 * The `MalformedResponse` of a 2xx body that is not the success shape: with the error it carries when it is one
 * of the error dialects core recognises (so a bank answering 200 with an error says what the error was).
 */
export const malformed = (
  status: number,
  contentType: string | undefined,
  text: string,
  path: string,
  detail: string
): MalformedResponse => {
  const error = ErrorBody.decode(status, contentType, text)
  return error._tag === "Raw" ? new MalformedResponse({ path, detail }) : new MalformedResponse({ path, detail, error })
}
