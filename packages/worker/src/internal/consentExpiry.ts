/**
 * The consent lifecycle in the fleet's database: the consents a run lists (those the bank said are no longer valid
 * left out) with `consent.expiring` raised 14 and 3 days before a consent's end, a consent marked expired once with
 * `consent.expired`, and each consent's state as `tppkit worker status` shows it.
 */
import { Clock, Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import * as ConsentLifecycle from "../ConsentLifecycle.ts"
import { type Kept, record } from "./fleetEvents.ts"
import type { Consent } from "./sweepJournal.ts"
import { eventId } from "./webhookEvents.ts"

/**
 * The consents of a run of `day` without those the bank said are no longer valid; the `consent.expiring` notice of
 * each consent near its end (its own end, its profile's validity counted in, else the table's) kept.
 */
export const sweepable = (
  sql: SqlClient.SqlClient,
  day: string,
  consents: ReadonlyArray<Consent>
): Effect.Effect<ReadonlyArray<Consent>, SqlError> =>
  Effect.gen(function* () {
    const now = yield* Clock.currentTimeMillis
    const rows = yield* sql<{ consent_key: string; valid_until: string | null; expired_at: unknown }>`
      SELECT consent_key, valid_until, expired_at FROM tppkit_consents`
    const byKey = new Map(rows.map((r) => [r.consent_key, r]))
    const notices: Array<Kept> = []
    const kept = consents.filter((c) => {
      const row = byKey.get(c.key)
      if (row !== undefined && row.expired_at !== null && row.expired_at !== undefined) return false
      // the run's own end of the consent (its profile's validity counted in), else the table's
      const validUntil = c.validUntil ?? row?.valid_until ?? undefined
      const notice = ConsentLifecycle.expiring({ key: c.key, validUntil }, day)
      if (notice !== undefined) {
        notices.push({
          id: eventId("consent.expiring", [c.key, notice.validUntil, String(notice.notice)]),
          type: "consent.expiring",
          day,
          consent: c.key,
          occurredAt: now,
          data: { ...notice, day }
        })
      }
      return true
    })
    yield* record(sql, notices)
    return kept
  })

/**
 * Marks a consent no longer valid (once) and raises `consent.expired`; whether it was news. A consent given only in
 * the settings (not in `tppkit_consents`) gets its row there, with its end, so that it is treated as any other.
 */
export const markExpired = (
  sql: SqlClient.SqlClient,
  consent: string,
  day: string,
  code: string,
  via: "listing" | "check",
  message: string
) =>
  Effect.gen(function* () {
    const now = yield* Clock.currentTimeMillis
    const rows = yield* sql<{ consent_key: string }>`INSERT INTO tppkit_consents
        (consent_key, added_at, expired_at, expired_code, expired_day)
      VALUES (${consent}, ${now}, ${now}, ${code}, ${day})
      ON CONFLICT (consent_key) DO UPDATE
        SET expired_at = EXCLUDED.expired_at, expired_code = EXCLUDED.expired_code, expired_day = EXCLUDED.expired_day
        WHERE tppkit_consents.expired_at IS NULL
      RETURNING consent_key`
    if (rows.length === 0) return false
    yield* record(sql, [
      {
        id: eventId("consent.expired", [consent, String(now)]),
        type: "consent.expired",
        day,
        consent,
        occurredAt: now,
        data: {
          consent,
          day,
          code,
          via,
          message,
          next: "the fleet lists it no more and spends no budget on it; add a new consent (tppkit consents add) to sweep the account again"
        }
      }
    ])
    return true
  })

/** A consent's life as `tppkit worker status` shows it: its last valid day and whether the bank said it is over. */
export interface ConsentState {
  readonly key: string
  readonly validUntil: string | undefined
  readonly expired: { readonly day: string; readonly code: string } | undefined
}

/** The fleet's consents with their validity and whether the bank said they are no longer valid. */
export const consentStates: Effect.Effect<ReadonlyArray<ConsentState>, SqlError, SqlClient.SqlClient> = Effect.gen(
  function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{
      consent_key: string
      valid_until: string | null
      expired_day: string | null
      expired_code: string | null
    }>`SELECT consent_key, valid_until, expired_day, expired_code FROM tppkit_consents ORDER BY consent_key`
    return rows.map((r) => ({
      key: r.consent_key,
      validUntil: r.valid_until ?? undefined,
      expired: r.expired_day === null ? undefined : { day: r.expired_day, code: r.expired_code ?? "" }
    }))
  }
)
