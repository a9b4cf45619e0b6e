/**
 * The events of `Webhook` and their signature, pure: what the outbox (`internal/webhookOutbox.ts`) makes from the
 * fleet's records and signs, and what `Webhook` re-exports for receivers.
 */
import { createHash, createHmac } from "node:crypto"
import { Money } from "@tppkit/core"
import { BigDecimal, Option, Redacted, Schema } from "effect"
import * as CheckFailure from "../CheckFailure.ts"
import type { Row } from "../Checks.ts"
import type { Entry } from "../SweepLog.ts"

/** The kinds of event: a DECL, a refused check, a check without an answer, a sweep that failed for a consent. */
export const EventType = Schema.Literals(["check.declined", "check.refused", "check.unanswered", "sweep.failed"])

/** The kind of an event. */
export type EventType = typeof EventType.Type

/** What every event body carries: its stable id, its kind, when it happened (RFC 3339 UTC) and its data. */
export const Event = Schema.Struct({
  id: Schema.String,
  type: EventType,
  occurredAt: Schema.String,
  data: Schema.Record(Schema.String, Schema.Unknown)
})

/** An event as a receiver reads it. */
export type Event = typeof Event.Type

/** The header that carries the signature. */
export const signatureHeader = "tppkit-signature"

/** The header that carries the event id (the body has it too). */
export const eventIdHeader = "tppkit-event-id"

/**
 * An event's stable id: `evt_` and the MD5 of its kind and subject (a check's consent, orderId and nominal date,
 * or a sweep's day, consent and run), the same wherever and however often it is made (the database computes the
 * same with its `md5`). Not a secret and not a security measure: only a name.
 */
export const eventId = (type: EventType, subject: ReadonlyArray<string>): string =>
  `evt_${createHash("md5")
    .update([type, ...subject].join("\n"))
    .digest("hex")}`

const amountText = (amount: string): string =>
  Option.match(BigDecimal.fromString(amount), { onNone: () => amount, onSome: Money.formatFixed2 })

/**
 * The event a recorded check makes, if any: `check.declined` for DECL, `check.refused` for a final failure (a
 * refusal, a payment that cannot be sent), `check.unanswered` for any other failure (`retrying` tells whether the
 * fleet still tries it: a transient failure before the payment's execution date has ended); none for APPR or a
 * pending check. The amount has two decimals where it has at most two (never rounded).
 */
export const checkEvent = (row: Row, options: { readonly retrying: boolean }): Event | undefined => {
  if (row.outcome !== "DECL" && row.outcome !== "failed") return undefined
  const type: EventType =
    row.outcome === "DECL" ? "check.declined" : CheckFailure.isFinal(row.failure) ? "check.refused" : "check.unanswered"
  const failure = row.failure
  return {
    id: eventId(type, [row.consent, row.orderId, row.nominalDate]),
    type,
    occurredAt: row.checkedAt ?? new Date(0).toISOString(),
    data: {
      consent: row.consent,
      orderId: row.orderId,
      nominalDate: row.nominalDate,
      executionDate: row.executionDate,
      amount: amountText(row.amount),
      currency: row.currency,
      debtorIban: row.debtorIban,
      sweepDay: row.sweepDay,
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

/** The event of a consent's failed sweep run (none for one that did not fail). */
export const sweepEvent = (entry: Entry): Event | undefined =>
  entry.state !== "failed"
    ? undefined
    : {
        id: eventId("sweep.failed", [entry.day, entry.consent, String(entry.run)]),
        type: "sweep.failed",
        occurredAt: new Date(entry.finishedAt ?? entry.startedAt).toISOString().replace(/\.\d{3}Z$/, "Z"),
        data: {
          day: entry.day,
          consent: entry.consent,
          run: entry.run,
          tries: entry.tries,
          reason: entry.reason ?? null,
          message: entry.cause ?? null
        }
      }

/** The hex HMAC-SHA256 of `<timestamp>.<body>` with a secret. */
export const hmac = (secret: Redacted.Redacted<string>, timestamp: number, body: string): string =>
  createHmac("sha256", Redacted.value(secret)).update(`${timestamp}.${body}`).digest("hex")

/** The signature header of a body sent at `timestamp` (unix seconds): `t=<timestamp>,v1=<hex HMAC-SHA256>`. */
export const sign = (secret: Redacted.Redacted<string>, timestamp: number, body: string): string =>
  `t=${timestamp},v1=${hmac(secret, timestamp, body)}`

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
