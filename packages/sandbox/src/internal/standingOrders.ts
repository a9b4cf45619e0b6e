/**
 * The standing-order list (docs/bank-interface.md, "Standing-order list" and "Daily limit"): the body read with core's
 * `StandingOrder.decodeListRequest`, the daily limit applied, one page of the orders of the token's accounts written
 * with core's `StandingOrder.encodeListResponse`.
 */
import { StandingOrder } from "@tppkit/core"
import { Result } from "effect"
import { parseJsonObject, withFloats } from "./apiChecks.ts"
import type * as DailyLimit from "./dailyLimit.ts"
import { encodingFailure, type Failure, forbidden, schemaFailure } from "./errors.ts"
import { first, type Incoming, type Outgoing } from "./exchange.ts"
import { consentKey, type Token } from "./oauth.ts"

/** The listing over the fixture orders, grouped by debtor account. */
export const make = (options: {
  readonly orders: ReadonlyArray<StandingOrder.StandingOrder>
  readonly limit: ReturnType<typeof DailyLimit.make>
  readonly pageCountAsText: boolean
  readonly now: () => number
  /** A listing of one bound account counts on that account's own consent (else on the token's). */
  readonly perAccount?: boolean | undefined
  /** The orders of a page as the bank lists them at an instant (a personality's computed nextDates), else as they are. */
  readonly listed?:
    | ((orders: Array<StandingOrder.StandingOrder>, now: number) => Array<StandingOrder.StandingOrder>)
    | undefined
}) => {
  const byDebtor = new Map<string, Array<StandingOrder.StandingOrder>>()
  for (const o of options.orders) {
    const list = byDebtor.get(o.debtor.iban) ?? []
    list.push(o)
    byDebtor.set(o.debtor.iban, list)
  }

  const list = (req: Incoming, token: Token): Outgoing | Failure => {
    if (!token.scopes.has("AISP")) {
      return forbidden("SCOPE_INSUFFICIENT", "the standing-order list needs a token with the AISP scope")
    }
    const parsed = parseJsonObject(req.body)
    if (!("value" in parsed)) return parsed
    const decoded = StandingOrder.decodeListRequest(withFloats(parsed.value))
    if (Result.isFailure(decoded)) return schemaFailure(decoded.failure)
    const body = decoded.success
    if (body.iban !== undefined && !token.bound.has(body.iban)) {
      return forbidden("ACCOUNT_NOT_BOUND", "the account is not bound to this access token", "iban")
    }
    const consent =
      options.perAccount === true && body.iban !== undefined ? consentKey(token.clientId, [body.iban]) : token.consent
    const spent = options.limit.spend(consent, options.now(), first(req.headers["psu-last-logged-time"]))
    if (typeof spent !== "string") return spent
    const selected: Array<StandingOrder.StandingOrder> = []
    for (const iban of body.iban !== undefined ? [body.iban] : token.bound) {
      const orders = byDebtor.get(iban)
      if (orders) for (const o of orders) selected.push(o)
    }
    const pageSize = body.pageSize ?? StandingOrder.DEFAULT_PAGE_SIZE
    const page = body.page ?? 0
    const encoded = StandingOrder.encodeListResponse(
      {
        pageCount: Math.ceil(selected.length / pageSize),
        standingOrders:
          options.listed === undefined
            ? selected.slice(page * pageSize, (page + 1) * pageSize)
            : options.listed(selected.slice(page * pageSize, (page + 1) * pageSize), options.now())
      },
      { pageCountAsText: options.pageCountAsText }
    )
    if (Result.isFailure(encoded)) return encodingFailure(encoded.failure)
    return {
      status: 200,
      headers: { "content-type": "application/json" },
      body: JSON.stringify(encoded.success),
      outcome: spent === "attended" ? "ok" : "ok:unattended"
    }
  }
  return { list }
}
