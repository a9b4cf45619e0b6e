/**
 * The PSU (customer) context of one call: the PSU-* request headers (docs/bank-interface.md, "Headers"). A TPP serves
 * many customers, so this is given per call, never fixed at start-up. The customer counts as present when
 * PSU-Last-Logged-Time is no older than 1 hour ("Daily limit" in the same document).
 */
import { Headers, Timestamp } from "@tppkit/core"
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
   * RFC 3339 text (core's `Timestamp`), which is sent as given.
   */
  readonly lastLoggedTime?: DateTime.DateTime | string
}

/**
 * How long after the last log-in the customer still counts as present (docs/bank-interface.md, "Daily limit": 1 hour;
 * core's rule).
 */
export const presenceWindow: Duration.Duration = Duration.millis(Headers.presenceWindowMillis)

const printable = /^[\x20-\x7e]+$/

/**
 * What is wrong with the context, or `undefined` when nothing is, by core's header rules (`Headers.isIpAddress`,
 * `Headers.isGeoLocation`): a valid IP address, non-empty printable texts, "latitude, longitude", an RFC 3339
 * log-in time when it is text.
 */
export const problem = (psu: PsuContext): InvalidRequest | undefined => {
  if (!Headers.isIpAddress(psu.ipAddress))
    return new InvalidRequest({ path: "psu.ipAddress", detail: "not an IPv4 or IPv6 address" })
  if (!printable.test(psu.deviceOs))
    return new InvalidRequest({ path: "psu.deviceOs", detail: "must be non-empty printable ASCII" })
  if (!printable.test(psu.userAgent))
    return new InvalidRequest({ path: "psu.userAgent", detail: "must be non-empty printable ASCII" })
  if (psu.geoLocation !== undefined && !Headers.isGeoLocation(psu.geoLocation)) {
    return new InvalidRequest({ path: "psu.geoLocation", detail: 'must be "latitude, longitude"' })
  }
  if (typeof psu.lastLoggedTime === "string" && Result.isFailure(Timestamp.parse(psu.lastLoggedTime))) {
    return new InvalidRequest({ path: "psu.lastLoggedTime", detail: "not an RFC 3339 date-time" })
  }
  return undefined
}

/** Checks the context before anything is sent (see {@link problem}). */
export const validate = (psu: PsuContext): Result.Result<PsuContext, InvalidRequest> => {
  const invalid = problem(psu)
  return invalid === undefined ? Result.succeed(psu) : Result.fail(invalid)
}

// a string was checked by `validate` before anything is sent; it is sent as given
const lastLoggedText = (t: DateTime.DateTime | string): Timestamp.Timestamp =>
  (typeof t === "string" ? t : DateTime.formatIso(DateTime.toUtc(t))) as Timestamp.Timestamp

const lastLoggedMillis = (t: DateTime.DateTime | string): number | undefined => {
  if (typeof t !== "string") return DateTime.toEpochMillis(t)
  const parsed = Timestamp.parse(t)
  return Result.isSuccess(parsed) ? Timestamp.toEpochMillis(parsed.success) : undefined
}

/**
 * The context in core's terms, for `Headers.request` (the log-in time as RFC 3339 text). A context without a log-in
 * time, or with one given as text, already is one and is handed over as it is (no copy on every request).
 */
export const toHeaders = (psu: PsuContext): Headers.Psu => {
  const last = psu.lastLoggedTime
  if (last === undefined || typeof last === "string") return psu as Headers.Psu
  const out: { -readonly [K in keyof Headers.Psu]: Headers.Psu[K] } = {
    ipAddress: psu.ipAddress,
    deviceOs: psu.deviceOs,
    userAgent: psu.userAgent
  }
  if (psu.geoLocation !== undefined) out.geoLocation = psu.geoLocation
  out.lastLoggedTime = lastLoggedText(last)
  return out
}

/**
 * Whether the customer is present at `now`, by core's rule `Headers.isPresent`: PSU-Last-Logged-Time
 * given, no older than 1 hour and not in the future beyond a minute of clock skew (a wrong clock must not hide an
 * unattended call).
 */
export const isPresent = (psu: PsuContext, now: DateTime.DateTime): boolean =>
  Headers.isPresent(
    psu.lastLoggedTime === undefined ? undefined : lastLoggedMillis(psu.lastLoggedTime),
    DateTime.toEpochMillis(now)
  )
