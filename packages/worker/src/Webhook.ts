/**
 * Outcomes that reach someone: a payment at risk (DECL), a refused or unanswered check and a failed sweep, posted
 * as signed JSON to the fleet's webhook endpoints from a durable outbox in its database. Events are made from what
 * the fleet has recorded (the checks table and the sweep record), so a worker that dies never loses one: the next
 * worker to look finds it. Each event has a stable id (the same event is never given two ids), each endpoint gets
 * each event at least once, and a delivery that fails is tried again with back-off; receivers de-duplicate by id.
 *
 * The signature: header `tppkit-signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">` with the
 * endpoint's secret, the scheme of several well-known webhook senders; {@link verify} checks it in constant time
 * and refuses a timestamp outside the tolerance (a replayed request). Secrets are `Redacted` and never printed.
 *
 * @since 0.1.0
 */
import { timingSafeEqual } from "node:crypto"
import { Context, Effect, Layer, Redacted, Result, Schema } from "effect"
import type { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import * as Events from "./internal/webhookEvents.ts"
import * as WebhookOutbox from "./internal/webhookOutbox.ts"

/** The kinds of event: a DECL, a refused check, a check without an answer, a sweep that failed for a consent. */
export const EventType = Events.EventType

/** The kind of an event. */
export type EventType = Events.EventType

/** What every event body carries: its stable id, its kind, when it happened (RFC 3339 UTC) and its data. */
export const Event = Events.Event

/** An event as a receiver reads it. */
export type Event = Events.Event

/** The header that carries the signature. */
export const signatureHeader = Events.signatureHeader

/** The header that carries the event id (the body has it too). */
export const eventIdHeader = Events.eventIdHeader

/** How far a signature's timestamp may be from the receiver's clock by default, seconds. */
export const defaultToleranceSeconds = 300

/** A webhook endpoint of the fleet: where events are posted, and the secret they are signed with. */
export interface Endpoint {
  readonly url: string
  readonly secret: Redacted.Redacted<string>
}

/** A webhook request that does not verify, or an endpoint that cannot be used; the message names why. */
export class WebhookError extends Schema.TaggedError<WebhookError>()("WebhookError", {
  reason: Schema.Literals([
    "missingSignature",
    "malformedSignature",
    "signatureMismatch",
    "timestampOutOfTolerance",
    "invalidBody",
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

/** The signature header of a body sent at `timestamp` (unix seconds): `t=<timestamp>,v1=<hex HMAC-SHA256>`. */
export const sign = Events.sign

/** An endpoint's URL as logs and the status show it: scheme, host, port and path, never credentials or a query. */
export const displayUrl = Events.displayUrl

const invalid = (reason: WebhookError["reason"], message: string) => Result.fail(new WebhookError({ reason, message }))

/**
 * Checks a webhook request as a receiver gets it: the raw body (exactly the bytes received, as text), the
 * `tppkit-signature` header and the endpoint's secret (several during a rotation: any may match). The signature is
 * compared in constant time; a timestamp more than `toleranceSeconds` (default 300) from `now` (epoch milliseconds,
 * default the clock) is refused, so a request recorded and replayed later does not verify. Returns the event.
 */
export const verify = (request: {
  readonly body: string
  readonly signature: string | undefined
  readonly secret: Redacted.Redacted<string> | ReadonlyArray<Redacted.Redacted<string>>
  readonly now?: number | undefined
  readonly toleranceSeconds?: number | undefined
}): Result.Result<Event, WebhookError> => {
  const header = request.signature?.trim()
  if (header === undefined || header.length === 0) {
    return invalid("missingSignature", `no ${signatureHeader} header`)
  }
  let timestamp: number | undefined
  const signatures: Array<string> = []
  for (const part of header.split(",")) {
    const eq = part.indexOf("=")
    const key = part.slice(0, eq).trim()
    const value = part.slice(eq + 1).trim()
    if (key === "t" && /^\d{1,12}$/.test(value)) timestamp = Number(value)
    else if (key === "v1" && /^[0-9a-f]{64}$/i.test(value)) signatures.push(value.toLowerCase())
  }
  if (timestamp === undefined || signatures.length === 0) {
    return invalid("malformedSignature", `${signatureHeader} is not t=<unix seconds>,v1=<64 hex digits>`)
  }
  const secrets = Redacted.isRedacted(request.secret) ? [request.secret] : request.secret
  let matched = false
  for (const secret of secrets) {
    const expected = Buffer.from(Events.hmac(secret, timestamp, request.body), "hex")
    for (const s of signatures) {
      // each comparison takes the same time whatever the bytes; every pair is compared
      if (timingSafeEqual(expected, Buffer.from(s, "hex"))) matched = true
    }
  }
  if (!matched) {
    return invalid("signatureMismatch", "the signature does not match the body and the secret")
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
    ? Result.succeed(event.success)
    : invalid("invalidBody", "the body is not a tppkit event (id, type, occurredAt, data)")
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
export type Settings = WebhookOutbox.Settings

/** A delivery that failed and is tried again. */
export type Retry = WebhookOutbox.Retry

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
): Layer.Layer<Outbox, SqlError, SqlClient.SqlClient> =>
  Layer.effect(
    Outbox,
    Effect.map(WebhookOutbox.start(endpoints, settings), (outbox) => Outbox.of(outbox))
  )

/** One delivery of the outbox as `tppkit worker status` shows it. */
export type Delivery = WebhookOutbox.Delivery

/** The deliveries of the outbox not yet made (most recent events first, at most `limit`). */
export const outstanding: (limit?: number) => Effect.Effect<ReadonlyArray<Delivery>, SqlError, SqlClient.SqlClient> =
  WebhookOutbox.outstanding
