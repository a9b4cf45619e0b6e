/** How the demo words a check without an answer, and a group of payments at risk. */
import { ErrorBody } from "@tppkit/core"
import { BankError } from "@tppkit/http"
import type { Coverage } from "@tppkit/schedule"
import type * as CheckFailure from "@tppkit/worker/CheckFailure"
import * as Failure from "../../Failure.ts"

// the reasons whose line is "<status> <words> (<the body's headline>)": "403 forbidden (CONSENT_MISSING: No consent)"
const statusLines: ReadonlySet<string> = new Set(["BadRequest", "Unauthorized", "Forbidden", "NotFound", "ServerError"])

// a bank's code as banks write them, CONSENT_MISSING (an OAuth error such as invalid_token reads better whole)
const isUpperCode = (code: string): boolean => /^[A-Z][A-Z_]+$/.test(code)

/**
 * Why a balance check got no answer, in a few words: a refusal with one code of the bank's as its status and code
 * ("403 CONSENT_MISSING"), anything else as the reason's line (the operation and the request identifiers left out,
 * the attempts kept when they are news).
 */
export const describeFailure = (error: BankError.BankError): string => {
  const { status, code } = Failure.bankDetails(error)
  const headline = "body" in error.reason ? ErrorBody.headline(error.reason.body) : undefined
  // the body's headline is that one code, or the code and a title (one without a parenthesis of its own)
  const oneCode =
    code !== undefined &&
    isUpperCode(code) &&
    headline !== undefined &&
    (headline === code || (headline.startsWith(`${code}: `) && !headline.includes(")")))
  const attemptsShown = error.attempts !== undefined && error.attempts !== 1
  return statusLines.has(error.reason._tag) && status !== undefined && oneCode && !attemptsShown
    ? `${status} ${code}`
    : BankError.reasonLine(error)
}

/** A check the fleet recorded without an answer, in the same few words (rows of older versions: "no description"). */
export const describeRecorded = (failure: CheckFailure.CheckFailure | undefined): string =>
  failure === undefined ? "no description" : failure._tag === "BankError" ? describeFailure(failure) : failure.message

/** Why a group of payments is at risk, as the report and the picture say it. */
export const reasonText = (reason: Coverage.RiskReason): string => {
  switch (reason._tag) {
    case "Declined":
      return "declined (DECL)"
    case "NoAnswer":
      return reason.detail
    case "RunningTotal":
      return "each covered alone, not together with the earlier payments due (running total)"
    case "Balance":
      return "the forecast balance of its day is at or below zero or the threshold"
  }
}
