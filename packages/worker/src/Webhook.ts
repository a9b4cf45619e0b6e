/**
 * Outcomes that reach someone: a payment at risk (DECL), a refused or unanswered check and a failed sweep, posted
 * as signed JSON to the fleet's webhook endpoints from a durable outbox in its database. Events are made from what
 * the fleet has recorded (the checks table and the sweep record), so a worker that dies never loses one: the next
 * worker to look finds it. Each event has a stable id (the same event is never given two ids), each endpoint gets
 * each event at least once, and a delivery that fails is tried again on Standard Webhooks' schedule; receivers
 * de-duplicate by id.
 *
 * The deliveries follow the Standard Webhooks specification (v1), so that any receiver's library for it verifies
 * them: the headers `webhook-id` (the event's id), `webhook-timestamp` (the attempt's Unix seconds) and
 * `webhook-signature` (`v1,` and the base64 HMAC-SHA256 of `<id>.<timestamp>.<body>`; one per secret during a
 * rotation, space-separated), secrets `whsec_` and the base64 of 24 to 64 random bytes, and the body
 * `{"type", "timestamp", "data"}`. {@link verify} checks a request in constant time and refuses a timestamp outside
 * the tolerance (a replayed request). Secrets are `Redacted` and never printed.
 *
 * @since 0.1.0
 */
import { timingSafeEqual } from "node:crypto"
import type { Backoff } from "@tppkit/core"
import { Context, Effect, Layer, Redacted, Result, Schema } from "effect"
import type { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import * as Events from "./internal/webhookEvents.ts"
import * as WebhookOutbox from "./internal/webhookOutbox.ts"

/** The kinds of event: a DECL, a refused check, a check without an answer, a sweep that failed for a consent. */
export const EventType = Events.EventType

/** The kind of an event. */
export type EventType = Events.EventType

/** An event's body (Standard Webhooks): its kind, when it happened (RFC 3339 UTC) and its data. */
export const Event = Events.Event

/** An event's body as a receiver reads it. */
export type Event = Events.Event

/** An event with its stable id, the `webhook-id` of every attempt to deliver it. */
export type Identified = Events.Identified

/** The header that carries the event's stable id. */
export const idHeader = Events.idHeader

/** The header that carries the attempt's time, Unix seconds. */
export const timestampHeader = Events.timestampHeader

/** The header that carries the signatures, space-separated `v1,<base64>`. */
export const signatureHeader = Events.signatureHeader

/** The prefix of a secret, `whsec_`. */
export const secretPrefix = Events.secretPrefix

/** The fewest and most random bytes of a secret's key (24 and 64). */
export const secretBytes = Events.secretBytes

/** The largest body the fleet sends, bytes (a longer list is cut and says what it left out). */
export const maxBodyBytes = Events.maxBodyBytes

/** How far a signature's timestamp may be from the receiver's clock by default, seconds. */
export const defaultToleranceSeconds = 300

/**
 * A webhook endpoint of the fleet: where events are posted, and the secret they are signed with (several during a
 * rotation: each signs, and a receiver that knows any of them verifies).
 */
export interface Endpoint extends WebhookOutbox.Endpoint {}

/** A webhook request that does not verify, or an endpoint that cannot be used; the message names why. */
export class WebhookError extends Schema.TaggedError<WebhookError>()("WebhookError", {
  reason: Schema.Literals([
    "missingHeader",
    "malformedSignature",
    "signatureMismatch",
    "timestampOutOfTolerance",
    "invalidBody",
    "invalidSecret",
    "invalidEndpoint"
  ]),
  message: Schema.String
}) {}

/** An event's stable id: `evt_` and the MD5 of its kind and subject; only a name, not a security measure. */
export const eventId = Events.eventId

/**
 * The event a recorded check makes, if any: `check.declined` for DECL, `check.refused` for a final failure,
 * `check.unanswered` for any other failure (with `retrying`); none for APPR or a pending check.
 */
export const checkEvent = Events.checkEvent

/** The event of a consent's failed sweep run (none for one that did not fail). */
export const sweepEvent = Events.sweepEvent

/** An event's body as sent: its JSON, under {@link maxBodyBytes} (a longer list is cut, saying what it left out). */
export const body = Events.fit

/** A new secret, `whsec_` and the base64 of `bytes` (default 32, from 24 to 64) random bytes. */
export const makeSecret = Events.makeSecret

/** A secret's key (the bytes after `whsec_`), or a `WebhookError` saying why the text is not a secret. */
export const keyOf = (secret: Redacted.Redacted<string>): Result.Result<Uint8Array, WebhookError> =>
  Result.mapError(Events.keyOf(secret), (message) => new WebhookError({ reason: "invalidSecret", message }))

/**
 * The `webhook-signature` header of a body sent under `id` at `timestamp` (Unix seconds): `v1,<base64>` per
 * secret, space-separated; a `WebhookError` when a secret is not one.
 */
export const sign = (
  secret: Redacted.Redacted<string> | ReadonlyArray<Redacted.Redacted<string>>,
  id: string,
  timestamp: number,
  body: string
): Result.Result<string, WebhookError> => {
  const keys: Array<Uint8Array> = []
  for (const s of Redacted.isRedacted(secret) ? [secret] : secret) {
    const key = keyOf(s)
    if (Result.isFailure(key)) return Result.fail(key.failure)
    keys.push(key.success)
  }
  return Result.succeed(Events.sign(keys, id, timestamp, body))
}

/** An endpoint's URL as logs and the status show it: scheme, host, port and path, never credentials or a query. */
export const displayUrl = Events.displayUrl

/**
 * Standard Webhooks' retry schedule as a plain table: the wait before each attempt, milliseconds (at once, 5 s,
 * 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h), each moved by up to a tenth either way (`jitter`).
 */
export const retrySchedule = Events.retrySchedule

/** The wait after `attempts` failed attempts on a schedule, with `random` (0 to 1) for the jitter; none: give up. */
export const retryDelay = Events.retryDelay

/** A retry schedule: core's `Backoff` (a table of waits after each failed attempt, and their jitter). */
export type RetrySchedule = Backoff.Backoff

const invalid = (reason: WebhookError["reason"], message: string) => Result.fail(new WebhookError({ reason, message }))

/** A request's headers: a fetch `Headers`, or an object of names (any case) to values, as Node's `req.headers`. */
export type Headers = globalThis.Headers | { readonly [name: string]: string | ReadonlyArray<string> | undefined }

const headerOf = (headers: Headers, name: string): string | undefined => {
  if (headers instanceof globalThis.Headers) return headers.get(name) ?? undefined
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== name) continue
    return typeof value === "string" ? value : value?.join(", ")
  }
  return undefined
}

/** A verified request: the event's stable id (`webhook-id`, for de-duplication) and its body. */
export interface Verified {
  readonly id: string
  /** The attempt's time, Unix seconds (`webhook-timestamp`). */
  readonly timestamp: number
  readonly event: Event
}

/**
 * Checks a webhook request as a receiver gets it, as the Standard Webhooks specification says: the raw body
 * (exactly the bytes received, as text), the three headers (`headers`, or `id`, `timestamp` and `signature`
 * given one by one) and the endpoint's secret (several during a rotation: any may match any of the request's
 * signatures). Signatures are compared in constant time; a timestamp more than `toleranceSeconds` (default 300)
 * from `now` (epoch milliseconds, default the clock) is refused, so a request recorded and replayed later does
 * not verify. Returns the event with its id.
 */
export const verify = (
  request: {
    readonly body: string
    readonly secret: Redacted.Redacted<string> | ReadonlyArray<Redacted.Redacted<string>>
    readonly now?: number | undefined
    readonly toleranceSeconds?: number | undefined
  } & (
    | { readonly headers: Headers }
    | {
        readonly id: string | undefined
        readonly timestamp: string | undefined
        readonly signature: string | undefined
      }
  )
): Result.Result<Verified, WebhookError> => {
  const given =
    "headers" in request
      ? {
          id: headerOf(request.headers, idHeader),
          timestamp: headerOf(request.headers, timestampHeader),
          signature: headerOf(request.headers, signatureHeader)
        }
      : { id: request.id, timestamp: request.timestamp, signature: request.signature }
  const id = given.id?.trim()
  const timestampText = given.timestamp?.trim()
  const header = given.signature?.trim()
  const missing = [
    ...(id === undefined || id.length === 0 ? [idHeader] : []),
    ...(timestampText === undefined || timestampText.length === 0 ? [timestampHeader] : []),
    ...(header === undefined || header.length === 0 ? [signatureHeader] : [])
  ]
  if (id === undefined || timestampText === undefined || header === undefined || missing.length > 0) {
    return invalid("missingHeader", `no ${missing.join(", no ")} header`)
  }
  if (!/^\d{1,12}$/.test(timestampText)) {
    return invalid("malformedSignature", `${timestampHeader} is not Unix seconds`)
  }
  const timestamp = Number(timestampText)
  const signatures: Array<Buffer> = []
  for (const part of header.split(" ")) {
    const comma = part.indexOf(",")
    if (comma < 0 || part.slice(0, comma) !== "v1") continue
    const value = part.slice(comma + 1)
    if (/^[A-Za-z0-9+/]{43}=$/.test(value)) signatures.push(Buffer.from(value, "base64"))
  }
  if (signatures.length === 0) {
    return invalid("malformedSignature", `${signatureHeader} has no v1,<base64 HMAC-SHA256> signature`)
  }
  const keys: Array<Uint8Array> = []
  for (const s of Redacted.isRedacted(request.secret) ? [request.secret] : request.secret) {
    const key = keyOf(s)
    if (Result.isFailure(key)) return Result.fail(key.failure)
    keys.push(key.success)
  }
  let matched = false
  for (const key of keys) {
    const expected = Buffer.from(Events.hmac(key, id, timestamp, request.body), "base64")
    for (const s of signatures) {
      // each comparison takes the same time whatever the bytes; every pair is compared
      if (timingSafeEqual(expected, s)) matched = true
    }
  }
  if (!matched) {
    return invalid("signatureMismatch", "the signature does not match the id, the timestamp, the body and the secret")
  }
  const tolerance = request.toleranceSeconds ?? defaultToleranceSeconds
  const now = Math.floor((request.now ?? Date.now()) / 1000)
  if (Math.abs(now - timestamp) > tolerance) {
    return invalid(
      "timestampOutOfTolerance",
      `signed at ${new Date(timestamp * 1000).toISOString()}, ${Math.abs(now - timestamp)} s from now (tolerance ${tolerance} s): a late or replayed request`
    )
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(request.body)
  } catch {
    return invalid("invalidBody", "the body is not JSON")
  }
  const event = Schema.decodeUnknownResult(Event)(parsed)
  return Result.isSuccess(event)
    ? Result.succeed({ id, timestamp, event: event.success })
    : invalid("invalidBody", "the body is not a tppkit event (type, timestamp, data)")
}

/** Checks an endpoint's URL: http or https, with a host. */
export const checkUrl = (url: string): Result.Result<string, WebhookError> => {
  try {
    const u = new URL(url)
    if ((u.protocol === "http:" || u.protocol === "https:") && u.hostname.length > 0) return Result.succeed(u.href)
  } catch {}
  return invalid("invalidEndpoint", `--webhook ${displayUrl(url)}: expected an http:// or https:// URL`)
}

/** How the outbox delivers: its timing, and who is told of each failed delivery. */
export interface Settings extends WebhookOutbox.Settings {}

/** A delivery that failed and is tried again. */
export type Retry = WebhookOutbox.Retry

/** A delivery given up: its schedule used up, or its endpoint answered 410 Gone (and is disabled now). */
export type Failed = WebhookOutbox.Failed

/** This worker's outbox: `flush` delivers what is due now and waits for it, at most `timeout` milliseconds. */
export class Outbox extends Context.Service<
  Outbox,
  {
    /** Looks for new events and delivers every due one; returns how many deliveries are still outstanding. */
    readonly flush: (timeout: number) => Effect.Effect<number>
  }
>()("@tppkit/worker/Webhook/Outbox") {}

/** The DDL of the outbox and the fleet's endpoints (idempotent). */
export const ddl: ReadonlyArray<string> = WebhookOutbox.ddl

/**
 * The outbox for the layer's lifetime: the endpoints are added to the fleet's (`replace`: the fleet's become
 * exactly these), then every `poll` new events are put into the outbox for every endpoint of the fleet and the due
 * deliveries to this worker's endpoints are posted; a worker that dies holding a delivery leaves it to be taken
 * over when its lease ends.
 */
export const layer = (
  endpoints: ReadonlyArray<Endpoint>,
  settings: Settings & { readonly replace?: boolean | undefined } = {}
): Layer.Layer<Outbox, SqlError | WebhookError, SqlClient.SqlClient> =>
  Layer.effect(
    Outbox,
    Effect.gen(function* () {
      const keyed: Array<{ url: string; keys: Array<Uint8Array> }> = []
      for (const e of endpoints) {
        const keys: Array<Uint8Array> = []
        for (const secret of Redacted.isRedacted(e.secret) ? [e.secret] : e.secret) {
          const key = keyOf(secret)
          if (Result.isFailure(key)) {
            return yield* new WebhookError({
              reason: "invalidSecret",
              message: `${displayUrl(e.url)}: ${key.failure.message}`
            })
          }
          keys.push(key.success)
        }
        if (keys.length === 0) {
          return yield* new WebhookError({ reason: "invalidSecret", message: `${displayUrl(e.url)}: no secret` })
        }
        keyed.push({ url: e.url, keys })
      }
      return Outbox.of(yield* WebhookOutbox.start(keyed, settings))
    })
  )

/** One delivery of the outbox as `tppkit worker status` shows it. */
export type Delivery = WebhookOutbox.Delivery

/** The deliveries of the outbox not yet made (most recent events first, at most `limit`). */
export const outstanding: (limit?: number) => Effect.Effect<ReadonlyArray<Delivery>, SqlError, SqlClient.SqlClient> =
  WebhookOutbox.outstanding

/** One endpoint of the fleet as `tppkit worker status` shows it: disabled since when and why, if it is. */
export type EndpointState = WebhookOutbox.EndpointState

/** The fleet's endpoints, each with when and why it was disabled (410 Gone), if it is, and its deliveries given up. */
export const endpoints: Effect.Effect<
  ReadonlyArray<EndpointState>,
  SqlError,
  SqlClient.SqlClient
> = WebhookOutbox.endpointStates

/**
 * The fleet's endpoint that `url` names (the same URL, or the only one with the same scheme, host, port and path)
 * and whether it is disabled; `undefined` when none does.
 */
export const findEndpoint: (
  url: string
) => Effect.Effect<{ readonly url: string; readonly disabled: boolean } | undefined, SqlError, SqlClient.SqlClient> =
  WebhookOutbox.findEndpoint

/** Turns a disabled endpoint (as stored) back on, so that its new events are delivered; whether it was disabled. */
export const enable: (url: string) => Effect.Effect<boolean, SqlError, SqlClient.SqlClient> = WebhookOutbox.enable

/** What {@link replay} sends again: the events since `since` (epoch milliseconds), of one kind, to some endpoints. */
export type ReplayFilter = WebhookOutbox.ReplayFilter

/**
 * Sends again what endpoints missed: every event of the outbox since `since` (of `type`, if given) is due at once
 * for each endpoint (as stored), a new attempt under the same `webhook-id` with the same body, whether it was
 * delivered, given up, or never queued for that endpoint; a worker with the endpoint's `--webhook` posts them.
 * Returns how many deliveries each endpoint has due.
 */
export const replay: (
  filter: ReplayFilter
) => Effect.Effect<ReadonlyMap<string, number>, SqlError, SqlClient.SqlClient> = WebhookOutbox.replay
