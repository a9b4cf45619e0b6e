/**
 * The balance check (docs/bank-interface.md, "Balance check"): the body read with core's `BalanceCheck.decodeRequest`,
 * the account's consent checked, the answer written with `BalanceCheck.encodeResponse`.
 */
import { BalanceCheck, type Timestamp } from "@tppkit/core"
import { BigDecimal, Result } from "effect"
import { parseJsonObject } from "./apiChecks.ts"
import type * as Consent from "./consent.ts"
import { encodingFailure, type Failure, forbidden, schemaFailure } from "./errors.ts"
import type { Incoming, Outgoing } from "./exchange.ts"
import type { Token } from "./oauth.ts"

/** The balance check over the accounts; `dateTime` gives the answer's RFC 3339 time. */
export const make = (accounts: ReturnType<typeof Consent.make>, dateTime: () => string) => {
  // many answers share a millisecond: each answer's text is encoded once for the time it carries
  let textsAt = ""
  const texts = new Map<BalanceCheck.Answer, string>()
  const answerText = (response: BalanceCheck.Answer): string | Failure => {
    const at = dateTime()
    if (at !== textsAt) {
      texts.clear()
      textsAt = at
    }
    const known = texts.get(response)
    if (known !== undefined) return known
    const encoded = BalanceCheck.encodeResponse({ response, dateTime: at as Timestamp.Timestamp })
    if (Result.isFailure(encoded)) return encodingFailure(encoded.failure)
    const text = JSON.stringify(encoded.success)
    texts.set(response, text)
    return text
  }

  const check = (req: Incoming, token: Token): Outgoing | Failure => {
    if (!token.scopes.has("PIISP")) {
      return forbidden("SCOPE_INSUFFICIENT", "the balance check needs a token with the PIISP scope")
    }
    const parsed = parseJsonObject(req.body)
    if (!("value" in parsed)) return parsed
    const decoded = BalanceCheck.decodeRequest(parsed.value)
    if (Result.isFailure(decoded)) return schemaFailure(decoded.failure)
    const body = decoded.success
    const state = accounts.forBalanceCheck(body.iban, token)
    if ("status" in state) return state
    const covered =
      body.amount.currency === state.account.currency &&
      BigDecimal.isLessThanOrEqualTo(body.amount.value, state.balance)
    const answer = answerText(covered ? "APPR" : "DECL")
    if (typeof answer !== "string") return answer
    return {
      status: 200,
      headers: { "content-type": "application/json" },
      body: answer,
      outcome: covered ? "ok:APPR" : "ok:DECL"
    }
  }
  return { check }
}
