/**
 * The events of `Webhook`, their bodies and their Standard Webhooks signature, pure: what the outbox
 * (`internal/webhookOutbox.ts`) makes from the fleet's records and signs, and what `Webhook` re-exports for
 * receivers. The scheme is the Standard Webhooks specification (v1): headers `webhook-id`, `webhook-timestamp` and
 * `webhook-signature` (`v1,` and the base64 HMAC-SHA256 of `<id>.<timestamp>.<body>`), secrets `whsec_` and the
 * base64 of the key's bytes.
 */
import { createHash, createHmac, randomBytes } from "node:crypto"
import { Backoff, LocalDate, Money } from "@tppkit/core"
import { type BigDecimal, Redacted, Result, Schema } from "effect"
import * as CheckFailure from "../CheckFailure.ts"
import type { Row } from "../Checks.ts"
import * as Liveness from "../Liveness.ts"
import type { Entry } from "../SweepLog.ts"

/**
 * The kinds of event: a DECL, a refused check, a check without an answer, a sweep that failed for a consent, a fleet
 * that stopped advancing; a payment at risk ahead (raised, cleared, confirmed or contradicted by its check), a
 * standing order created, removed, changed or its next date moved, a consent near its end or no longer valid.
 */
export const EventType = Schema.Literals([
  "check.declined",
  "check.refused",
  "check.unanswered",
  "sweep.failed",
  "fleet.stalled",
  "payment.at_risk",
  "payment.at_risk_cleared",
  "payment.at_risk_confirmed",
  "payment.at_risk_contradicted",
  "standing_order.created",
  "standing_order.removed",
  "standing_order.changed",
  "standing_order.next_date_moved",
  "consent.expiring",
  "consent.expired"
])

/** The kind of an event. */
export type EventType = typeof EventType.Type

/** An event's body (Standard Webhooks): its kind, when it happened (RFC 3339 UTC) and its data. */
export const Event = Schema.Struct({
  type: EventType,
  timestamp: Schema.String,
  data: Schema.Record(Schema.String, Schema.Unknown)
})

/** An event's body as a receiver reads it. */
export type Event = typeof Event.Type

/** An event with its stable id, the `webhook-id` of every attempt to deliver it. */
export interface Identified {
  readonly id: string
  readonly event: Event
}

/** The header that carries the event's stable id. */
export const idHeader = "webhook-id"

/** The header that carries the attempt's time, Unix seconds. */
export const timestampHeader = "webhook-timestamp"

/** The header that carries the signatures, space-separated `v1,<base64>`. */
export const signatureHeader = "webhook-signature"

/** The prefix of a secret. */
export const secretPrefix = "whsec_"

/** The fewest and most random bytes of a secret's key. */
export const secretBytes = { min: 24, max: 64 } as const

/** The largest body the fleet sends, bytes of UTF-8 (a longer list is cut; see {@link fit}). */
export const maxBodyBytes = 20_000

/**
 * An event's stable id: `evt_` and the MD5 of its kind and subject (a check's consent, orderId and nominal date,
 * or a sweep's day, consent and run), the same wherever and however often it is made (the database computes the
 * same with its `md5`). Not a secret and not a security measure: only a name.
 */
export const eventId = (type: EventType, subject: ReadonlyArray<string>): string =>
  `evt_${createHash("md5")
    .update([type, ...subject].join("\n"))
    .digest("hex")}`

/** An instant as an event's `timestamp`: RFC 3339 UTC to the second. */
export const timestampOf = (epochMillis: number): string =>
  new Date(epochMillis).toISOString().replace(/\.\d{3}Z$/, "Z")

/** A check's amount with its currency's minor unit digits (ISO 4217, core's `Money.formatMinor`), never rounded. */
const amountText = (amount: BigDecimal.BigDecimal, currency: string): string => Money.formatMinor(amount, currency)

/**
 * The event a recorded check makes, if any: `check.declined` for DECL, `check.refused` for a final failure (a
 * refusal, a payment that cannot be sent), `check.unanswered` for any other failure (`retrying` tells whether the
 * fleet still tries it: a transient failure before the payment's execution date has ended); none for APPR or a
 * pending check. The amount has its currency's minor unit digits (ISO 4217: EUR `2500.50`, JPY `1500`), never rounded.
 */
export const checkEvent = (row: Row, options: { readonly retrying: boolean }): Identified | undefined => {
  if (row.outcome !== "DECL" && row.outcome !== "failed") return undefined
  const type: EventType =
    row.outcome === "DECL" ? "check.declined" : CheckFailure.isFinal(row.failure) ? "check.refused" : "check.unanswered"
  const failure = row.failure
  return {
    id: eventId(type, [row.consent, row.orderId, LocalDate.format(row.nominalDate)]),
    event: {
      type,
      timestamp: row.checkedAt ?? new Date(0).toISOString(),
      data: {
        consent: row.consent,
        orderId: row.orderId,
        nominalDate: LocalDate.format(row.nominalDate),
        executionDate: LocalDate.format(row.executionDate),
        amount: amountText(row.amount, row.currency),
        currency: row.currency,
        debtorIban: row.debtorIban,
        sweepDay: LocalDate.format(row.sweepDay),
        // planned from an earlier day's listing (its page could not be read on the sweep's day): that day
        ...(row.listedOn === undefined ? {} : { listedOn: LocalDate.format(row.listedOn) }),
        outcome: row.outcome,
        attempts: row.attempts,
        requestId: row.requestId ?? null,
        ...(failure === undefined
          ? {}
          : {
              failureClass: CheckFailure.classify(failure),
              reason: CheckFailure.reasonTag(failure),
              message: CheckFailure.describe(failure)
            }),
        ...(type === "check.unanswered" ? { retrying: options.retrying } : {})
      }
    }
  }
}

/** The event of a consent's failed sweep run (none for one that did not fail). */
export const sweepEvent = (entry: Entry): Identified | undefined =>
  entry.state !== "failed"
    ? undefined
    : {
        id: eventId("sweep.failed", [entry.day, entry.consent, String(entry.run)]),
        event: {
          type: "sweep.failed",
          timestamp: new Date(entry.finishedAt ?? entry.startedAt).toISOString().replace(/\.\d{3}Z$/, "Z"),
          data: {
            day: entry.day,
            consent: entry.consent,
            run: entry.run,
            tries: entry.tries,
            reason: entry.reason ?? null,
            message: entry.cause ?? null
          }
        }
      }

/**
 * The event of a fleet that stopped advancing (none for a live or stopped one): `fleet.stalled`, once per stall
 * (its id is made of what stopped and since when, the same whichever worker sees it), at the moment the stall
 * passed its limit; `data` says what stopped, since when, why, and the queue and runners as read.
 */
export const stalledEvent = (
  reading: Liveness.Reading,
  limits: Liveness.Limits = Liveness.defaults
): Identified | undefined => {
  const v = Liveness.verdict(reading, limits)
  if (v.state !== "stalled") return undefined
  const limit = v.what === "queue" ? limits.queue : limits.sweep
  return {
    id: eventId("fleet.stalled", [v.what, String(v.since)]),
    event: {
      type: "fleet.stalled",
      timestamp: new Date(v.since + limit).toISOString(),
      data: {
        what: v.what,
        since: new Date(v.since).toISOString(),
        reason: v.reason,
        unread: reading.unread,
        runners: reading.runners,
        lastSweepAt: reading.lastSweepAt === undefined ? null : new Date(reading.lastSweepAt).toISOString()
      }
    }
  }
}

const byteLength = (text: string): number => Buffer.byteLength(text, "utf8")

/**
 * An event's body as the fleet sends it: the JSON of the event, at most {@link maxBodyBytes} bytes. A body that
 * would be longer keeps as many items of the data's longest list (top-level array) as fit, in order, and says
 * what it left out: `omitted` (`{ "<list>": <items left out> }`) and `more` (a sentence: how many, that the
 * fleet's records keep them all, and the `tppkit webhook replay` that sends the event again). A body too long
 * with no list to cut is sent whole (no event of the fleet has one).
 */
export const fit = (event: Event): string => {
  const whole = JSON.stringify(event)
  if (byteLength(whole) <= maxBodyBytes) return whole
  let longest: string | undefined
  let longestBytes = -1
  for (const [key, value] of Object.entries(event.data)) {
    if (!Array.isArray(value)) continue
    const bytes = byteLength(JSON.stringify(value))
    if (bytes > longestBytes) {
      longest = key
      longestBytes = bytes
    }
  }
  if (longest === undefined) return whole
  const list = event.data[longest] as ReadonlyArray<unknown>
  const cut = (kept: number): string => {
    const left = list.length - kept
    return JSON.stringify({
      ...event,
      data: {
        ...event.data,
        [longest]: list.slice(0, kept),
        omitted: { [longest]: left },
        more: `${left} of ${list.length} ${longest} left out to keep the body under ${maxBodyBytes / 1000} KB; the fleet's records keep them all (tppkit worker status), and tppkit webhook replay --since ${event.timestamp} --type ${event.type} sends this event again`
      }
    })
  }
  // the most items that fit: the body's length grows with the items kept
  let low = 0
  let high = list.length - 1
  while (low < high) {
    const mid = Math.ceil((low + high) / 2)
    if (byteLength(cut(mid)) <= maxBodyBytes) low = mid
    else high = mid - 1
  }
  return cut(low)
}

/** A secret's key: the bytes the HMAC is keyed with (the base64 after `whsec_`). */
export type Key = Uint8Array

/**
 * A secret's key from its text, `whsec_` and the base64 of 24 to 64 bytes; the reason it is not one otherwise
 * (never the secret's text).
 */
export const keyOf = (secret: Redacted.Redacted<string>): Result.Result<Key, string> => {
  const text = Redacted.value(secret).trim()
  if (!text.startsWith(secretPrefix)) {
    return Result.fail(
      `a webhook secret starts with ${secretPrefix} (Standard Webhooks); make one with tppkit webhook secret and give it to the receiver too`
    )
  }
  const encoded = text.slice(secretPrefix.length)
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded) || encoded.length % 4 !== 0) {
    return Result.fail(`a webhook secret is ${secretPrefix} and base64; make one with tppkit webhook secret`)
  }
  const key = Buffer.from(encoded, "base64")
  if (key.length < secretBytes.min || key.length > secretBytes.max) {
    return Result.fail(
      `a webhook secret's key is ${secretBytes.min} to ${secretBytes.max} bytes, this one ${key.length}; make one with tppkit webhook secret`
    )
  }
  return Result.succeed(new Uint8Array(key))
}

/** A new secret: `whsec_` and the base64 of `bytes` (default 32) random bytes from the system's CSPRNG. */
export const makeSecret = (bytes = 32): Redacted.Redacted<string> => {
  const n = Math.min(secretBytes.max, Math.max(secretBytes.min, Math.floor(bytes)))
  return Redacted.make(`${secretPrefix}${randomBytes(n).toString("base64")}`)
}

/** The base64 HMAC-SHA256 of `<id>.<timestamp>.<body>` with a key. */
export const hmac = (key: Key, id: string, timestamp: number, body: string): string =>
  createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest("base64")

/**
 * The `webhook-signature` header of a body sent under `id` at `timestamp` (Unix seconds): `v1,<base64>` per key,
 * space-separated (several during a secret's rotation, so that a receiver with either verifies).
 */
export const sign = (keys: ReadonlyArray<Key>, id: string, timestamp: number, body: string): string =>
  keys.map((key) => `v1,${hmac(key, id, timestamp, body)}`).join(" ")

/**
 * An endpoint's URL as logs and the status show it: scheme, host, port and path, never a user, password or query
 * (they may hold a token).
 */
export const displayUrl = (url: string): string => {
  try {
    const u = new URL(url)
    return `${u.protocol}//${u.host}${u.pathname}`
  } catch {
    return "(invalid URL)"
  }
}

/**
 * The Standard Webhooks retry schedule as a back-off given as a table: the first attempt at once, then after `n`
 * failed attempts `delays[n - 1]` from the previous attempt's end (5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h and
 * 24 h), each moved by up to a tenth of itself either way (`jitter` 0.9 to 1.1) so that deliveries failed together
 * do not come back together. A delivery whose last attempt fails is given up.
 */
export const retrySchedule: Backoff.Backoff = Backoff.table(
  [5, 300, 1800, 7200, 18_000, 36_000, 50_400, 72_000, 86_400].map((s) => s * 1000),
  [0.9, 1.1]
)

/**
 * The wait after `attempts` attempts failed, milliseconds (`undefined`: the schedule is used up, give up): the
 * schedule's delay moved by `random` (0 to 1) within its jitter.
 */
export const retryDelay = (
  attempts: number,
  random: number,
  schedule: Backoff.Backoff = retrySchedule
): number | undefined => {
  const delay = Backoff.delayMillis(schedule, attempts, random)
  return delay === undefined ? undefined : Math.max(0, Math.round(delay))
}

/**
 * The wait a `Retry-After` header asks for, milliseconds, at most the schedule's longest delay: whole seconds or an
 * HTTP date (RFC 9110, "Retry-After"); `undefined` for anything else.
 */
export const retryAfterMillis = (header: string | null | undefined, now: number): number | undefined => {
  const text = header?.trim()
  if (text === undefined || text.length === 0) return undefined
  const longest = Backoff.longestMillis(retrySchedule)
  if (/^\d{1,10}$/.test(text)) return Math.min(longest, Number(text) * 1000)
  const at = Date.parse(text)
  return Number.isNaN(at) ? undefined : Math.min(longest, Math.max(0, at - now))
}
