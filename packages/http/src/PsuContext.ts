/**
 * The PSU (customer) context of one call: the PSU-* request headers (docs/bank-interface.md, "Headers"). A TPP serves
 * many customers, so this is given per call, never fixed at start-up. The customer counts as present when
 * PSU-Last-Logged-Time is no older than 1 hour ("Daily limit" in the same document).
 */
import { Headers, DateTime as Rfc3339 } from "@tppkit/core"
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

/**
 * How long after the last log-in the customer still counts as present (bank interface, "Daily limit": 1 hour; core's
 * rule).
 */
export const presenceWindow: Duration.Duration = Duration.millis(Headers.presenceWindowMillis)

const printable = /^[\x20-\x7e]+$/

const invalid = (path: string, detail: string) => Result.fail(new InvalidRequest({ path, detail }))

/**
 * Checks the context before anything is sent, with core's header rules (`Headers.isIpAddress`,
 * `Headers.isGeoLocation`): a valid IP address, non-empty printable texts, "latitude, longitude".
 */
export const validate = (psu: PsuContext): Result.Result<PsuContext, InvalidRequest> => {
  if (!Headers.isIpAddress(psu.ipAddress)) return invalid("psu.ipAddress", "not an IPv4 or IPv6 address")
  if (!printable.test(psu.deviceOs)) return invalid("psu.deviceOs", "must be non-empty printable ASCII")
  if (!printable.test(psu.userAgent)) return invalid("psu.userAgent", "must be non-empty printable ASCII")
  if (psu.geoLocation !== undefined && !Headers.isGeoLocation(psu.geoLocation)) {
    return invalid("psu.geoLocation", 'must be "latitude, longitude"')
  }
  if (typeof psu.lastLoggedTime === "string" && Result.isFailure(Rfc3339.parse(psu.lastLoggedTime))) {
    return invalid("psu.lastLoggedTime", "not an RFC 3339 date-time")
  }
  return Result.succeed(psu)
}

// a string was checked by `validate` before anything is sent; it is sent as given
const lastLoggedText = (t: DateTime.DateTime | string): Rfc3339.DateTime =>
  (typeof t === "string" ? t : DateTime.formatIso(DateTime.toUtc(t))) as Rfc3339.DateTime

const lastLoggedMillis = (t: DateTime.DateTime | string): number | undefined => {
  if (typeof t !== "string") return DateTime.toEpochMillis(t)
  const parsed = Rfc3339.parse(t)
  return Result.isSuccess(parsed) ? Rfc3339.toEpochMillis(parsed.success) : undefined
}

/** The context in core's terms, for `Headers.request` (the log-in time as RFC 3339 text). */
export const toHeaders = (psu: PsuContext): Headers.Psu => ({
  ipAddress: psu.ipAddress,
  deviceOs: psu.deviceOs,
  userAgent: psu.userAgent,
  ...(psu.geoLocation === undefined ? {} : { geoLocation: psu.geoLocation }),
  ...(psu.lastLoggedTime === undefined ? {} : { lastLoggedTime: lastLoggedText(psu.lastLoggedTime) })
})

/**
 * Whether the customer is present at `now`, by core's rule `Headers.isAttended`: PSU-Last-Logged-Time
 * given, no older than 1 hour and not in the future beyond a minute of clock skew (a wrong clock must not hide an
 * unattended call).
 */
export const isPresent = (psu: PsuContext, now: DateTime.DateTime): boolean =>
  Headers.isAttended(
    psu.lastLoggedTime === undefined ? undefined : lastLoggedMillis(psu.lastLoggedTime),
    DateTime.toEpochMillis(now)
  )
