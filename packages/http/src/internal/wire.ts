/**
 * Thin adapters over core's wire schemas (BalanceCheck, StandingOrder): schema issues as a dotted path and a
 * message, and the lenient page decoding with the failure shape the client reports.
 */
import { type BalanceCheck, ErrorBody, Orders, SchemaProblem, type StandingOrder } from "@tppkit/core"
import { Result, type SchemaIssue } from "effect"
import { MalformedResponse } from "../BankError.ts"

/** The first issue of a schema failure as core words it, the root written `$` as the client's errors do. */
export const firstIssue = (issue: SchemaIssue.Issue): { path: string; message: string } => {
  const { path, message } = SchemaProblem.first(issue)
  return { path: path ?? "$", message }
}

/**
 * Whether JSON writes a text between quotes as it is: no quote, backslash, control character or surrogate (a lone
 * surrogate is escaped; a text with a pair goes the general way too).
 */
const isPlainJsonText = (text: string): boolean => {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c < 0x20 || c === 0x22 || c === 0x5c || (c >= 0xd800 && c <= 0xdfff)) return false
  }
  return true
}

/**
 * The JSON text of an encoded balance-check request (core's `BalanceCheck.encodeRequest` output, and only that): the
 * common request (the three mandatory fields) is written directly, in the schema's key order, without
 * `JSON.stringify`. Core's encoding guarantees what this relies on: the IBAN is upper-case letters and digits, the
 * currency three upper-case letters, the amount a finite number (JavaScript writes it as JSON does); the
 * identification is free text, written between quotes when nothing in it needs an escape, else by `JSON.stringify`.
 * The result is the text `JSON.stringify` makes of the whole object (property-tested); any other request goes
 * through `JSON.stringify`. It runs on every balance check, where the generic walk, or four calls of it, cost more
 * than the rest of the encoding.
 */
export const balanceCheckText = (json: BalanceCheck.RequestJson): string => {
  if (json.creationDateTime !== undefined || json.relatedParties !== undefined || json.references !== undefined) {
    return JSON.stringify(json)
  }
  const id = json.instructionIdentification
  const { value, currency } = json.amount
  return `{"instructionIdentification":${isPlainJsonText(id) ? `"${id}"` : JSON.stringify(id)},"iban":"${json.iban}","amount":{"value":${value},"currency":"${currency}"}}`
}

const errorKeys = ["tppMessages", "errors", "error", "type", "title", "status", "detail", "code"]

/**
 * Decodes a list response body leniently and exactly, from its bytes when the transport kept them (core's one
 * decoder, `Orders.decodeBankList`: numbers from their source text, a malformed, unreadable or repeated-key record
 * reported beside the good ones, invalid UTF-8 named by its byte offset, a record out of format kept with a
 * warning). A body without `standingOrders` that carries an error's members (problem details, OAuth,
 * `tppMessages`, `errors`) is refused, not read as an empty list.
 */
export const decodePage = (
  body: string | Uint8Array,
  maxDepth: number,
  page: number
): Result.Result<StandingOrder.LenientList, { readonly path: string; readonly message: string }> => {
  const decoded = Orders.decodeBankList(body, { body: true, maxDepth })
  if (Result.isFailure(decoded)) {
    const { kind, detail, reason } = decoded.failure
    const message =
      kind === "empty" || (kind === "json" && typeof body === "string" && body.trim() === "")
        ? "the body is empty"
        : kind === "json"
          ? `the body is not JSON (${detail})`
          : kind === "notAList"
            ? "standing-order list body must be a JSON object"
            : reason
    return Result.fail({ path: "$", message })
  }
  const { pageCount, orders, errors, warnings, skipped, listMissing, keys } = decoded.success
  if (listMissing && errorKeys.some((k) => keys.includes(k))) {
    return Result.fail({ path: "standingOrders", message: "missing, and the body looks like an error" })
  }
  if (!listMissing && keys.length === 0) {
    return Result.fail({ path: "$", message: "standing-order list body must be a JSON object" })
  }
  // a page before the last one announced that holds no records: reported, never taken for the end of the list
  if (pageCount !== undefined && page < pageCount - 1 && orders.length === 0 && errors.every((e) => e.index < 0)) {
    const what = listMissing ? "has no standingOrders" : "has an empty standingOrders array"
    errors.unshift({
      index: -1,
      orderId: undefined,
      path: "standingOrders",
      message: `page ${page} ${what} although pageCount announces ${pageCount} pages`
    })
  }
  return Result.succeed(
    skipped === undefined || skipped.length === 0
      ? { pageCount, orders, errors, warnings }
      : { pageCount, orders, errors, warnings, skipped }
  )
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

const notJson = (text: string, maxDepth: number): Result.Result<unknown, MalformedResponse> =>
  Result.fail(
    new MalformedResponse({
      path: "$",
      detail: depthExceeds(text, maxDepth)
        ? `JSON nested deeper than ${maxDepth} levels`
        : text.trim() === ""
          ? "the body is empty"
          : "the body is not JSON"
    })
  )

/**
 * Parses a success body as JSON no deeper than `maxDepth`; anything else is a `MalformedResponse`. A text of at most
 * `2 × maxDepth + 1` characters is parsed without counting first: valid JSON closes every bracket it opens, so it
 * cannot be deeper than half its length; when it does not parse, the depth decides the message as before.
 */
export const parseJson = (text: string, maxDepth: number): Result.Result<unknown, MalformedResponse> => {
  if (text.length <= 2 * maxDepth + 1) {
    try {
      return Result.succeed(JSON.parse(text))
    } catch {
      return notJson(text, maxDepth)
    }
  }
  if (depthExceeds(text, maxDepth)) {
    return Result.fail(new MalformedResponse({ path: "$", detail: `JSON nested deeper than ${maxDepth} levels` }))
  }
  try {
    return Result.succeed(JSON.parse(text))
  } catch {
    return notJson(text, maxDepth)
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
