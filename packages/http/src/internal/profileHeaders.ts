/**
 * The request headers of a profile other than the seed bank's (whose headers core's `Headers.request` writes on the
 * hot path): each header of the profile's list with its value from its source, left out when its value is missing or
 * when it is sent only with the customer present and the customer is not (packages/http/README.md, "Bank profiles").
 * And the response headers that carry the bank's answer id and the echoed identities, read under the names the
 * client's pipeline reads.
 */
import type { Profile } from "@tppkit/core"
import { DateTime, Redacted } from "effect"
import type { Settings } from "../BankConfig.ts"
import type { Exchange } from "../BankTransport.ts"
import * as PsuContext from "../PsuContext.ts"

/** What one request's headers are made from. */
export interface Context {
  /** The `Authorization` value, or undefined for an operation that sends no token. */
  readonly authorization: string | undefined
  readonly ids: { readonly requestId?: string; readonly correlationId?: string; readonly processId?: string }
  readonly psu: PsuContext.PsuContext
  /** The clock's time, epoch milliseconds: the `Date` header and whether the customer is present. */
  readonly now: number
}

/** Makes one request's headers, names as the profile spells them. */
export type Builder = (context: Context) => Record<string, string>

/** `latitude, longitude` as RFC 2426's `GEO:lat;lon` (COBS's `User-Geo-Location`). */
export const geoUri = (geoLocation: string): string => {
  const [lat, lon] = geoLocation.split(",").map((s) => s.trim())
  return `GEO:${lat};${lon}`
}

/** The `Date` header's value: RFC 9110's IMF-fixdate, e.g. `Sun, 29 Nov 2026 06:35:18 GMT`. */
export const httpDate = (epochMillis: number): string => new Date(epochMillis).toUTCString()

/** The header builder of a profile and configuration. */
export const make = (profile: Profile.Profile, config: Settings): Builder => {
  const apiKey = config.apiKey === undefined ? undefined : Redacted.value(config.apiKey)
  const list = profile.headers
  return (context) => {
    const present = PsuContext.isPresent(context.psu, DateTime.makeUnsafe(context.now))
    const psu = PsuContext.toHeaders(context.psu)
    const out: Record<string, string> = {}
    for (const header of list) {
      if (header.when === "customerPresent" && !present) continue
      let value: string | undefined
      switch (header.from) {
        case "constant":
          value = header.value
          break
        case "authorization":
          value = context.authorization
          break
        case "apiKey":
          value = apiKey
          break
        case "requestId":
          value = context.ids.requestId
          break
        case "correlationId":
          value = context.ids.correlationId
          break
        case "processId":
          value = context.ids.processId
          break
        case "date":
          value = httpDate(context.now)
          break
        case "userInvolved":
          value = present ? "true" : "false"
          break
        case "tppName":
          value = config.tpp.name
          break
        case "tppIdentification":
          value = config.tpp.identification
          break
        case "psu.ipAddress":
          value = psu.ipAddress
          break
        case "psu.deviceOs":
          value = psu.deviceOs
          break
        case "psu.userAgent":
          value = psu.userAgent
          break
        case "psu.geoLocation":
          value = psu.geoLocation
          break
        case "psu.lastLoggedTime":
          value = psu.lastLoggedTime
          break
      }
      if (value === undefined) continue
      out[header.name] = header.format === "geoUri" && header.from === "psu.geoLocation" ? geoUri(value) : value
    }
    return out
  }
}

/**
 * The exchange with the profile's response headers copied under the names the pipeline reads (`response-id`,
 * `correlation-id`, `process-id`); the same exchange when the profile uses those names.
 */
export const responseIds = (profile: Profile.Profile, exchange: Exchange): Exchange => {
  const names = profile.responseHeaders
  const pairs: Array<[string, string | undefined]> = [
    ["response-id", names.responseId],
    ["correlation-id", names.correlationId],
    ["process-id", names.processId]
  ]
  let headers: Record<string, string> | undefined
  for (const [ours, theirs] of pairs) {
    const value = theirs === undefined ? undefined : exchange.headers[theirs.toLowerCase()]
    if (theirs === undefined || theirs.toLowerCase() === ours) continue
    headers ??= { ...exchange.headers }
    if (value === undefined) delete headers[ours]
    else headers[ours] = value
  }
  return headers === undefined ? exchange : { ...exchange, headers }
}
