/**
 * The PSU (customer) context of one call: the PSU-* request headers of section 4.2. A TPP serves many
 * customers, so this is given per call, never fixed at start-up. The customer counts as present when
 * PSU-Last-Logged-Time is no older than 1 hour (section 8).
 */
import { isIP } from "node:net"
import { DateTime as Rfc3339 } from "@tppkit/core"
import { DateTime, Duration, Result } from "effect"
import { InvalidRequest } from "./BankError.ts"

/** The PSU context of one call. */
export interface PsuContext {
  /** IPv4 or IPv6 address of the customer's connection to the TPP (PSU-IP-Address). */
  readonly ipAddress: string
  /** The customer's device and/or operating system (PSU-Device-OS). */
  readonly deviceOs: string
  /** The customer's browser or client identification (PSU-User-Agent). */
  readonly userAgent: string
  /** GPS coordinates "latitude, longitude" (PSU-GeoLocation, the name of the field table). */
  readonly geoLocation?: string
  /**
   * When the customer last logged in to the TPP application (PSU-Last-Logged-Time): an effect `DateTime`, or
   * RFC 3339 text (core's `DateTime`), which is sent as given.
   */
  readonly lastLoggedTime?: DateTime.DateTime | string
}

/** The header names of section 4.2, exactly as the document names them. */
export const HeaderNames = {
  ipAddress: "PSU-IP-Address",
  deviceOs: "PSU-Device-OS",
  userAgent: "PSU-User-Agent",
  geoLocation: "PSU-GeoLocation",
  lastLoggedTime: "PSU-Last-Logged-Time"
} as const

/** How long after the last log-in the customer still counts as present (section 8: 1 hour). */
export const presenceWindow: Duration.Duration = Duration.hours(1)

const clockSkewMillis = 60_000

const geo = /^[-+]?\d{1,2}(\.\d+)?,\s?[-+]?\d{1,3}(\.\d+)?$/
const printable = /^[\x20-\x7e]+$/

const invalid = (path: string, detail: string) => Result.fail(new InvalidRequest({ path, detail }))

/** Checks the context before anything is sent: a valid IP address, non-empty printable texts, "lat, lon". */
export const validate = (psu: PsuContext): Result.Result<PsuContext, InvalidRequest> => {
  if (isIP(psu.ipAddress) === 0) return invalid("psu.ipAddress", "not an IPv4 or IPv6 address")
  if (!printable.test(psu.deviceOs)) return invalid("psu.deviceOs", "must be non-empty printable ASCII")
  if (!printable.test(psu.userAgent)) return invalid("psu.userAgent", "must be non-empty printable ASCII")
  if (psu.geoLocation !== undefined) {
    const m = geo.exec(psu.geoLocation)
    const [lat, lon] = psu.geoLocation.split(",").map((s) => Number(s.trim()))
    if (m === null || lat === undefined || lon === undefined || Math.abs(lat) > 90 || Math.abs(lon) > 180) {
      return invalid("psu.geoLocation", 'must be "latitude, longitude"')
    }
  }
  if (typeof psu.lastLoggedTime === "string" && Result.isFailure(Rfc3339.parse(psu.lastLoggedTime))) {
    return invalid("psu.lastLoggedTime", "not an RFC 3339 date-time")
  }
  return Result.succeed(psu)
}

const lastLoggedText = (t: DateTime.DateTime | string): string =>
  typeof t === "string" ? t : DateTime.formatIso(DateTime.toUtc(t))

const lastLoggedMillis = (t: DateTime.DateTime | string): number | undefined => {
  if (typeof t !== "string") return DateTime.toEpochMillis(t)
  const parsed = Rfc3339.parse(t)
  return Result.isSuccess(parsed) ? Rfc3339.toEpochMillis(parsed.success) : undefined
}

/** The PSU headers of a request, named as in section 4.2 (optional ones only when given). */
export const headers = (psu: PsuContext): Record<string, string> => {
  const out: Record<string, string> = {
    [HeaderNames.ipAddress]: psu.ipAddress,
    [HeaderNames.deviceOs]: psu.deviceOs,
    [HeaderNames.userAgent]: psu.userAgent
  }
  if (psu.geoLocation !== undefined) out[HeaderNames.geoLocation] = psu.geoLocation
  if (psu.lastLoggedTime !== undefined) {
    out[HeaderNames.lastLoggedTime] = lastLoggedText(psu.lastLoggedTime)
  }
  return out
}

/**
 * Whether the customer is present at `now` (section 8): PSU-Last-Logged-Time given and no older than 1 hour.
 * A log-in time more than a minute in the future does not count (a wrong clock must not hide an unattended call).
 */
export const isPresent = (psu: PsuContext, now: DateTime.DateTime): boolean => {
  if (psu.lastLoggedTime === undefined) return false
  const last = lastLoggedMillis(psu.lastLoggedTime)
  if (last === undefined) return false
  const age = DateTime.toEpochMillis(now) - last
  return age >= -clockSkewMillis && age <= Duration.toMillis(presenceWindow)
}
