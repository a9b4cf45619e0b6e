/**
 * HTTP headers of the balance check and the standing-order list, which send the same ones (docs/bank-interface.md,
 * "Headers"): names as constants, the request headers as a schema (lower-case keys, as servers see them), a builder
 * for outgoing headers and a reader for the response IDs. We send `PSU-GeoLocation`; both spellings are read
 * (docs/bank-interface.md, "Headers").
 *
 * @since 0.1.0
 */
import { Result, Schema } from "effect"
import * as Timestamp from "./Timestamp.ts"

/** Header names, spelled as the document spells them. */
export const names = {
  contentType: "Content-Type",
  authorization: "Authorization",
  requestId: "Request-ID",
  correlationId: "Correlation-ID",
  processId: "Process-ID",
  psuIpAddress: "PSU-IP-Address",
  psuDeviceOs: "PSU-Device-OS",
  psuUserAgent: "PSU-User-Agent",
  psuGeoLocation: "PSU-GeoLocation",
  psuGeoLocationAlternative: "PSU-Geo-Location",
  psuLastLoggedTime: "PSU-Last-Logged-Time",
  responseId: "Response-ID"
} as const

/** The `Content-Type` of the JSON requests. */
export const jsonContentType = "application/json;charset=UTF-8" as const

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/

/** Whether a text is an IPv4 address in dotted decimal or an IPv6 address (RFC 4291 text forms). */
export const isIpAddress = (text: string): boolean => {
  if (IPV4.test(text)) return true
  if (!/^[0-9A-Fa-f:.]+$/.test(text) || !text.includes(":")) return false
  let body = text
  let groups = 8
  const lastColon = text.lastIndexOf(":")
  const tail = text.slice(lastColon + 1)
  if (tail.includes(".")) {
    if (!IPV4.test(tail)) return false
    body = `${text.slice(0, lastColon + 1)}0` // the IPv4 tail fills two groups: count it as one of seven
    groups = 7
  }
  const parts = body.split("::")
  if (parts.length > 2) return false
  const hex = /^[0-9A-Fa-f]{1,4}$/
  const split = (s: string): Array<string> => (s === "" ? [] : s.split(":"))
  const head = split(parts[0] ?? "")
  const rest = parts.length === 2 ? split(parts[1] ?? "") : []
  if (![...head, ...rest].every((g) => hex.test(g))) return false
  const count = head.length + rest.length
  return parts.length === 2 ? count < groups : count === groups
}

/** `PSU-IP-Address`: an IPv4 or IPv6 address. */
export const IpAddress = Schema.String.check(
  Schema.makeFilter((s: string) => isIpAddress(s) || "PSU-IP-Address must be an IPv4 or IPv6 address")
)

/**
 * Whether a text is `latitude, longitude` in decimal degrees within range (docs/bank-interface.md, "Headers":
 * `PSU-GeoLocation`).
 */
export const isGeoLocation = (text: string): boolean => {
  const m = /^\s*([-+]?\d{1,2}(?:\.\d+)?)\s*,\s*([-+]?\d{1,3}(?:\.\d+)?)\s*$/.exec(text)
  return m !== null && Math.abs(Number(m[1])) <= 90 && Math.abs(Number(m[2])) <= 180
}

/** `PSU-GeoLocation`: GPS coordinates `latitude, longitude`. */
export const GeoLocation = Schema.String.check(
  Schema.makeFilter((s: string) => isGeoLocation(s) || 'PSU-GeoLocation must be "latitude, longitude"')
)

const NonEmpty = (name: string) => Schema.String.check(Schema.isMinLength(1, { message: `${name} must not be empty` }))

/**
 * The request headers as a server reads them (lower-case keys): mandatory Content-Type,
 * Authorization (Bearer, RFC 6750), Request-ID, PSU-IP-Address, PSU-Device-OS, PSU-User-Agent; optional
 * Correlation-ID, Process-ID, PSU-GeoLocation (either spelling), PSU-Last-Logged-Time (RFC 3339).
 */
export const RequestHeaders = Schema.Struct({
  "content-type": Schema.String,
  authorization: Schema.String.check(
    Schema.isPattern(/^Bearer \S+$/i, { message: "Authorization must be a Bearer token (RFC 6750)" })
  ),
  "request-id": NonEmpty("Request-ID"),
  "correlation-id": Schema.optionalKey(NonEmpty("Correlation-ID")),
  "process-id": Schema.optionalKey(NonEmpty("Process-ID")),
  "psu-ip-address": IpAddress,
  "psu-device-os": NonEmpty("PSU-Device-OS"),
  "psu-user-agent": NonEmpty("PSU-User-Agent"),
  "psu-geolocation": Schema.optionalKey(GeoLocation),
  "psu-geo-location": Schema.optionalKey(GeoLocation),
  "psu-last-logged-time": Schema.optionalKey(Timestamp.Timestamp)
})

/** Request headers as a server reads them. */
export type RequestHeaders = typeof RequestHeaders.Type

/** The geo-location of decoded request headers, whichever spelling carried it. */
export const geoLocation = (headers: RequestHeaders): string | undefined =>
  headers["psu-geolocation"] ?? headers["psu-geo-location"]

/** The customer context of a call: the PSU-* request headers. */
export interface Psu {
  readonly ipAddress: string
  readonly deviceOs: string
  readonly userAgent: string
  readonly geoLocation?: string
  readonly lastLoggedTime?: Timestamp.Timestamp
}

/** The request identities of a call (README.md, "Request identity"). */
export interface Ids {
  readonly requestId: string
  readonly correlationId?: string
  readonly processId?: string
}

/**
 * The outgoing headers of a balance-check or standing-order request, named as the document names them; optional
 * ones only when given. The authorization value is revealed here, for the wire only.
 */
export const request = (options: {
  readonly authorization: string
  readonly ids: Ids
  readonly psu: Psu
}): Record<string, string> => {
  const { ids, psu } = options
  // literal keys (checked against `names` by the type), not computed ones: this runs on every request, and an object
  // literal with computed keys is built key by key (BENCHMARKS.md, "where the in-process gap comes from")
  const out: Record<string, string> = {
    "Content-Type": jsonContentType,
    Authorization: options.authorization,
    "Request-ID": ids.requestId,
    "PSU-IP-Address": psu.ipAddress,
    "PSU-Device-OS": psu.deviceOs,
    "PSU-User-Agent": psu.userAgent
  } satisfies Record<
    | typeof names.contentType
    | typeof names.authorization
    | typeof names.requestId
    | typeof names.psuIpAddress
    | typeof names.psuDeviceOs
    | typeof names.psuUserAgent,
    string
  >
  if (ids.correlationId !== undefined) out[names.correlationId] = ids.correlationId
  if (ids.processId !== undefined) out[names.processId] = ids.processId
  if (psu.geoLocation !== undefined) out[names.psuGeoLocation] = psu.geoLocation
  if (psu.lastLoggedTime !== undefined) out[names.psuLastLoggedTime] = psu.lastLoggedTime
  return out
}

/**
 * The response headers (lower-case keys). `Response-ID` is mandatory for the bank but read as
 * optional, so that a missing header never costs a valid body.
 */
export const ResponseHeaders = Schema.Struct({
  "response-id": Schema.optionalKey(Schema.String),
  "correlation-id": Schema.optionalKey(Schema.String),
  "process-id": Schema.optionalKey(Schema.String)
})

/** The IDs a response carries, for support tickets (README.md, "Request identity"). */
export interface ResponseIds {
  readonly responseId: string | undefined
  readonly correlationId: string | undefined
  readonly processId: string | undefined
}

/** Reads the response IDs from headers in any letter case. */
export const responseIds = (
  headers: Readonly<Record<string, string | ReadonlyArray<string> | undefined>>
): ResponseIds => {
  const lower = new Map<string, string>()
  for (const [k, v] of Object.entries(headers)) {
    const value = typeof v === "string" ? v : v?.[0]
    if (value !== undefined) lower.set(k.toLowerCase(), value)
  }
  return {
    responseId: lower.get("response-id"),
    correlationId: lower.get("correlation-id"),
    processId: lower.get("process-id")
  }
}

/**
 * How long after the last log-in the customer still counts as present, in milliseconds
 * (docs/bank-interface.md, "Daily limit": 1 hour).
 */
export const presenceWindowMillis = 3_600_000

/** The default tolerance for a log-in time slightly ahead of the receiver's clock, in milliseconds (one minute). */
export const defaultClockSkewMillis = 60_000

/**
 * Whether the customer is present (docs/bank-interface.md, "Daily limit"; a listing without them present is counted):
 * `PSU-Last-Logged-Time` is given and lies at most one hour in the past and not in the future, a log-in time at most
 * `clockSkewMillis` ahead of `nowMillis` being allowed for clocks that differ slightly
 * (default {@link defaultClockSkewMillis}). A time further ahead does not count, so that a wrong or forged clock
 * cannot hide an unattended listing.
 */
export const isPresent = (
  lastLoggedMillis: number | undefined,
  nowMillis: number,
  clockSkewMillis: number = defaultClockSkewMillis
): boolean => {
  if (lastLoggedMillis === undefined || !Number.isFinite(lastLoggedMillis)) return false
  const age = nowMillis - lastLoggedMillis
  return age >= -Math.max(0, clockSkewMillis) && age <= presenceWindowMillis
}

/** The instant of a `PSU-Last-Logged-Time` value in epoch milliseconds (RFC 3339, surrounding blanks ignored). */
export const lastLoggedMillis = (text: string): number | undefined => {
  const parsed = Timestamp.parse(text.trim())
  return Result.isSuccess(parsed) ? Timestamp.toEpochMillis(parsed.success) : undefined
}
