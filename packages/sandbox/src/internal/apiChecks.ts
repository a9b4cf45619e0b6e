/**
 * The checks every API path makes before its operation (docs/bank-interface.md, "Headers"): the IDs echoed in the
 * answer, the content type, the mandatory headers with core's header rules, and the bearer token.
 */
import { randomUUID } from "node:crypto"
import { Headers, Json, Money } from "@tppkit/core"
import { Result } from "effect"
import { badRequest, type Failure } from "./errors.ts"
import { first, type Incoming } from "./exchange.ts"

/** The identity headers of the answer: `Response-ID` (the Request-ID, or a new UUID) and the echoed IDs. */
export const responseIds = (req: Incoming): Record<string, string> => {
  const requestId = first(req.headers["request-id"])
  const ids: Record<string, string> = { "response-id": requestId?.trim() ? requestId : randomUUID() }
  const correlation = first(req.headers["correlation-id"])
  if (correlation !== undefined) ids["correlation-id"] = correlation
  const process = first(req.headers["process-id"])
  if (process !== undefined) ids["process-id"] = process
  return ids
}

const mandatory = [
  ["request-id", "Request-ID"],
  ["psu-ip-address", "PSU-IP-Address"],
  ["psu-device-os", "PSU-Device-OS"],
  ["psu-user-agent", "PSU-User-Agent"]
] as const

const jsonType = /^application\/json\s*(;|$)/

/** The first problem of an API request's content type and headers (415 or 400), or undefined. */
export const check = (req: Incoming): Failure | undefined => {
  const type = first(req.headers["content-type"])?.toLowerCase() ?? ""
  if (!jsonType.test(type)) {
    return {
      status: 415,
      code: "UNSUPPORTED_MEDIA_TYPE",
      title: "Unsupported Media Type",
      detail: "content type must be application/json",
      field: "Content-Type"
    }
  }
  for (const [key, name] of mandatory) {
    const v = first(req.headers[key])
    if (v === undefined || v.trim() === "") return badRequest(`missing mandatory header ${name}`, name)
  }
  const ip = first(req.headers["psu-ip-address"]) ?? ""
  if (!Headers.isIpAddress(ip.trim()))
    return badRequest("header PSU-IP-Address is not an IPv4 or IPv6 address", "PSU-IP-Address")
  for (const [key, name] of [
    ["psu-geolocation", "PSU-GeoLocation"],
    ["psu-geo-location", "PSU-Geo-Location"]
  ] as const) {
    const v = first(req.headers[key])
    if (v !== undefined && !Headers.isGeoLocation(v))
      return badRequest(`header ${name} must be "latitude, longitude"`, name)
  }
  const last = first(req.headers["psu-last-logged-time"])
  if (last !== undefined && Headers.lastLoggedMillis(last) === undefined) {
    return badRequest("header PSU-Last-Logged-Time is not an RFC 3339 date-time", "PSU-Last-Logged-Time")
  }
  return undefined
}

/**
 * Parses a JSON object body as a strict bank reads it, or the 400 that says why it is not one: every number kept as
 * its text (core's `Json.parse`: an amount is read digit for digit), a repeated key refused, nesting bounded.
 */
export const parseJsonObject = (body: string): { readonly value: object } | Failure => {
  const read = Json.parse(body, { duplicateKeys: "fail" })
  if (Result.isFailure(read)) {
    const failure = read.failure
    return failure._tag === "DuplicateKey"
      ? badRequest(`the body repeats the key ${failure.path}`)
      : failure._tag === "TooDeep"
        ? badRequest("the body is nested too deeply")
        : badRequest("the body is not valid JSON")
  }
  const value = read.success.value
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return badRequest("the body must be a JSON object")
  }
  return { value }
}

/**
 * The value with each number a float holds exactly as that float, for schemas of plain numbers (the list request's
 * page numbers, the admin endpoints); any other number stays its text, which such a schema refuses, never rounds.
 */
export const withFloats = (value: unknown): unknown => {
  if (Json.isNumberText(value)) {
    const n = Number(value.text)
    const exact = Money.fromNumberText(value.text)
    const back = Money.fromJsonNumber(n)
    return Result.isSuccess(exact) && back !== undefined && Money.equals(exact.success, back) ? n : value
  }
  if (Array.isArray(value)) return value.map(withFloats)
  if (typeof value === "object" && value !== null) {
    const out: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(value)) {
      Object.defineProperty(out, k, { value: withFloats(v), enumerable: true, writable: true, configurable: true })
    }
    return out
  }
  return value
}
