/**
 * The faults a request asks for (`X-Sandbox-Fault`, a magic balance-check amount, or the seeded global rate) and the
 * answers that replace the normal one. Status faults are written like every other error (core's `ErrorBody`); the
 * broken bodies (`truncate`, `nonjson`) are broken on purpose.
 */
import { AccessToken, BalanceCheck, type Timestamp } from "@tppkit/core"
import { Redacted, Result } from "effect"
import * as Faults from "../Faults.ts"
import { badRequest, type Dialect, fail, oauthFail } from "./errors.ts"
import { first, type Incoming, type Outgoing } from "./exchange.ts"

/** The faults of one request, or the 400 for an unknown one. */
export type Selection = { readonly faults: ReadonlyArray<Faults.Fault> } | { readonly refused: Outgoing }

/** Picks the faults of requests: the header wins, then a magic amount, then the global rate (if configured). */
export const make = (initial: Faults.GlobalFaults | undefined) => {
  let global = initial
  let pickGlobal = global ? Faults.picker(global) : undefined
  /** Replaces the global fault injection (undefined or rate 0: none); the seeded sequence starts again. */
  const setGlobal = (next: Faults.GlobalFaults | undefined): void => {
    global = next
    pickGlobal = next !== undefined && next.rate > 0 ? Faults.picker(next) : undefined
  }
  const select = (
    req: Incoming,
    isToken: boolean,
    isBalanceCheck: boolean,
    dialect: Dialect,
    ids: Record<string, string>
  ): Selection => {
    const header = first(req.headers[Faults.header])
    if (header !== undefined) {
      const parsed = Faults.parse(header)
      if (parsed.unknown.length > 0) {
        const detail = `unknown sandbox fault ${parsed.unknown.join(", ")}; known: ${[...Faults.kinds, "error=CODE"].join(", ")}`
        return {
          refused: isToken
            ? oauthFail(400, "invalid_request", detail)
            : fail(badRequest(detail, "X-Sandbox-Fault"), dialect, ids)
        }
      }
      return { faults: parsed.faults }
    }
    const f = (isBalanceCheck ? Faults.fromBalanceCheckBody(req.body) : undefined) ?? pickGlobal?.()
    return { faults: f ? [f] : [] }
  }
  return { select, setGlobal, global: () => global }
}

const retryLater = { "retry-after": "1" }

/** The well-formed body a `truncate` fault cuts in half. */
const truncatedBody = (isToken: boolean, dateTime: string): string => {
  const encoded: Result.Result<unknown, unknown> = isToken
    ? AccessToken.encodeResponse({
        access_token: Redacted.make("truncated-token-value", { label: "access_token" }),
        expires_in: AccessToken.LIFETIME_SECONDS,
        token_type: "Bearer"
      })
    : BalanceCheck.encodeResponse({ response: "APPR", dateTime: dateTime as Timestamp.Timestamp })
  return Result.isSuccess(encoded) ? JSON.stringify(encoded.success) : "{}"
}

/** The 400 of an `error=CODE` fault, in the dialect of the API paths (never on the token endpoint). */
export const errorAnswer = (code: string, dialect: Dialect, ids: Record<string, string>): Outgoing => ({
  ...fail({ status: 400, code, title: "Bad Request", detail: `sandbox fault: the bank answers ${code}` }, dialect, ids),
  outcome: `fault:error=${code}`
})

/** The answer replacing the normal one for a fault, or undefined when the fault does not replace it. */
export const answer = (
  kind: Faults.Kind,
  isToken: boolean,
  dialect: Dialect,
  ids: Record<string, string>,
  dateTime: () => string
): Outgoing | undefined => {
  const outcome = `fault:${kind}`
  switch (kind) {
    case "delay":
      return undefined
    case "503":
      return isToken
        ? { ...oauthFail(503, "temporarily_unavailable", "sandbox fault: 503", retryLater), outcome }
        : {
            ...fail(
              {
                status: 503,
                code: "SERVICE_UNAVAILABLE",
                title: "Service Unavailable",
                detail: "sandbox fault: 503",
                headers: retryLater
              },
              dialect,
              ids
            ),
            outcome
          }
    case "429":
      return {
        ...fail(
          {
            status: 429,
            code: "TOO_MANY_REQUESTS",
            title: "Too Many Requests",
            detail: "sandbox fault: 429",
            headers: retryLater
          },
          dialect,
          ids
        ),
        outcome
      }
    case "502":
      return {
        status: 502,
        headers: { "content-type": "text/html" },
        body: "<html><body><h1>502 Bad Gateway</h1></body></html>",
        outcome
      }
    case "reset":
      return { status: 0, headers: {}, body: "", outcome, action: "reset" }
    case "truncate":
      return {
        status: 200,
        headers: { "content-type": "application/json", ...ids },
        body: truncatedBody(isToken, dateTime()),
        outcome,
        action: "truncate"
      }
    case "nonjson":
      return {
        status: 200,
        headers: { "content-type": "application/json", ...ids },
        body: "<html><body>Maintenance</body></html>",
        outcome
      }
    case "expired-token":
      return isToken
        ? undefined
        : {
            ...fail(
              {
                status: 401,
                code: "TOKEN_EXPIRED",
                title: "Unauthorized",
                detail: "the access token has expired",
                headers: { "www-authenticate": 'Bearer error="invalid_token", error_description="token expired"' }
              },
              dialect,
              ids
            ),
            outcome
          }
  }
}
