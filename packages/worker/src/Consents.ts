/**
 * The fleet's consents as data: one row per consent in the fleet's database (`tppkit_consents`), with the account
 * its listing is filtered to, its bank profile (the sweep lists it, and its payments are checked, with that profile's
 * bank), the last day it is valid (a consent past it is said and not swept; without one, the day it was added plus
 * its profile's `consent.electronicValidityDays`) and, for a profile whose listing needs the customer's own token
 * (COBS), the customer's refresh token, which the sweep renews and keeps, sealed at rest with the fleet's key
 * ({@link RefreshTokenKey}: AES-256-GCM of node:crypto). Workers read the rows at the start of each sweep run, so a
 * consent added or removed is swept from the next run on, without a restart. A worker's `--consents` seeds the
 * table (a consent already there is left as it is); a database made by a version that kept the consents only in
 * the plan settings gets them copied into the table when the table is made.
 *
 * @since 0.1.0
 */
import { LocalDate } from "@tppkit/core"
import { Clock, Context, Effect, Layer, Option, Redacted, Result, Schema } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import { ChecksError } from "./Checks.ts"
import * as SealedToken from "./internal/sealedToken.ts"
import { ConsentSource, type Consent as SweepConsent } from "./Sweep.ts"

/** One consent of the fleet: its key, and optionally its account (IBAN), bank profile and last valid day. */
export const Consent = Schema.Struct({
  key: Schema.String,
  iban: Schema.optionalKey(Schema.String),
  profile: Schema.optionalKey(Schema.String),
  validUntil: Schema.optionalKey(Schema.String)
})

/** One consent of the fleet. */
export type Consent = typeof Consent.Type

/** The DDL of the consents table (idempotent). */
export const ddl: ReadonlyArray<string> = [
  `CREATE TABLE IF NOT EXISTS tppkit_consents (
    consent_key text PRIMARY KEY, iban text, profile text, valid_until text, added_at bigint NOT NULL)`,
  // the customer's refresh token of a profile whose listing needs the customer's token (issue 37)
  `ALTER TABLE tppkit_consents ADD COLUMN IF NOT EXISTS refresh_token text`
]

const StoredConsents = Schema.fromJsonString(
  Schema.Struct({
    consents: Schema.Array(Schema.Struct({ key: Schema.String, iban: Schema.optionalKey(Schema.String) }))
  })
)

/**
 * Makes the consents table; when it is new and the plan settings of an earlier version hold consents, copies them
 * in (run by `Database.migrate`, under its lock).
 */
export const migrate: Effect.Effect<void, SqlError, SqlClient.SqlClient> = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const existed = yield* sql<{ r: string | null }>`SELECT to_regclass('tppkit_consents')::text AS r`
  for (const statement of ddl) yield* sql.unsafe(statement)
  if (existed[0]?.r !== null && existed[0]?.r !== undefined) return
  const plan = yield* sql<{ r: string | null }>`SELECT to_regclass('tppkit_plan_settings')::text AS r`
  if (plan[0]?.r === null || plan[0]?.r === undefined) return
  const rows = yield* sql<{ settings: string }>`SELECT settings FROM tppkit_plan_settings WHERE id = 1`
  const stored = rows[0] === undefined ? Option.none() : Schema.decodeUnknownOption(StoredConsents)(rows[0].settings)
  if (Option.isSome(stored))
    yield* insertMissing(
      stored.value.consents.map((c) => ({ ...c, sealed: null })),
      undefined
    )
})

/** A row of `tppkit_consents` as the fleet reads a consent from it. */
interface ConsentRow {
  readonly consent_key: string
  readonly iban: string | null
  readonly profile: string | null
  readonly valid_until: string | null
}

const rowOf = (r: ConsentRow): Consent => ({
  key: r.consent_key,
  ...(r.iban === null ? {} : { iban: r.iban }),
  ...(r.profile === null ? {} : { profile: r.profile }),
  ...(r.valid_until === null ? {} : { validUntil: r.valid_until })
})

/** The fleet's consents, by key. */
export const list: Effect.Effect<ReadonlyArray<Consent>, SqlError, SqlClient.SqlClient> = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<ConsentRow>`
    SELECT consent_key, iban, profile, valid_until FROM tppkit_consents ORDER BY consent_key`
  return rows.map(rowOf)
})

/**
 * The fleet's secret that seals the customers' refresh tokens in its database (`TPPKIT_REFRESH_TOKEN_KEY`, at least
 * 32 characters, e.g. `openssl rand -base64 32`; every worker of a fleet has the same): a refresh token is kept only
 * sealed, so keeping or reading one without it fails, saying so. Never printed.
 */
export const RefreshTokenKey = Context.Reference<Option.Option<Redacted.Redacted<string>>>(
  "@tppkit/worker/Consents/RefreshTokenKey",
  { defaultValue: () => Option.none() }
)

/** The name of the setting that holds {@link RefreshTokenKey}. */
export const refreshTokenKeySetting = "TPPKIT_REFRESH_TOKEN_KEY"

/** The AES key of {@link RefreshTokenKey}, or why there is none. */
const sealingKey: Effect.Effect<Uint8Array, ChecksError> = Effect.gen(function* () {
  const secret = yield* RefreshTokenKey
  if (Option.isNone(secret)) {
    return yield* new ChecksError({
      message: `a refresh token is kept only sealed: set ${refreshTokenKeySetting} (at least ${SealedToken.minSecretLength} characters, e.g. openssl rand -base64 32; the same for every worker)`
    })
  }
  const key = SealedToken.keyOf(secret.value)
  if (key === undefined) {
    return yield* new ChecksError({
      message: `${refreshTokenKeySetting} is too short: at least ${SealedToken.minSecretLength} characters (e.g. openssl rand -base64 32)`
    })
  }
  return key
})

/** The stored text of a refresh token given for a consent: sealed, or null when none is given. */
const sealed = (
  consent: string,
  token: Redacted.Redacted<string> | undefined
): Effect.Effect<string | null, ChecksError> =>
  token === undefined
    ? Effect.succeed(null)
    : Effect.map(sealingKey, (key) => SealedToken.seal(key, Redacted.value(token), consent))

/** A consent as given (`--consents`, `consents add`): its key and what else is known of it. */
export interface Given {
  readonly key: string
  readonly iban?: string | undefined
  readonly profile?: string | undefined
  readonly validUntil?: string | undefined
  /** The customer's refresh token, for a profile whose listing needs the customer's token (COBS); never printed. */
  readonly refreshToken?: Redacted.Redacted<string> | undefined
}

/**
 * Adds a consent, or replaces the consent of that key (a refresh token already kept stays when none is given); true
 * when it is new.
 */
export const add = (consent: Given): Effect.Effect<boolean, SqlError | ChecksError, SqlClient.SqlClient> =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const now = yield* Clock.currentTimeMillis
    const refresh = yield* sealed(consent.key, consent.refreshToken)
    const rows = yield* sql<{ inserted: boolean }>`
      INSERT INTO tppkit_consents (consent_key, iban, profile, valid_until, added_at, refresh_token)
      VALUES (${consent.key}, ${consent.iban ?? null}, ${consent.profile ?? null}, ${consent.validUntil ?? null}, ${now},
        ${refresh})
      ON CONFLICT (consent_key) DO UPDATE SET iban = EXCLUDED.iban, profile = EXCLUDED.profile,
        valid_until = EXCLUDED.valid_until,
        refresh_token = COALESCE(EXCLUDED.refresh_token, tppkit_consents.refresh_token)
      RETURNING (xmax = 0) AS inserted`
    return rows[0]?.inserted === true
  })

/**
 * The customer's refresh token kept for a consent, if any, opened with {@link RefreshTokenKey}; one an earlier
 * version kept plain is sealed in its place on the way.
 */
export const refreshToken = (
  key: string
): Effect.Effect<Redacted.Redacted<string> | undefined, SqlError | ChecksError, SqlClient.SqlClient> =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ refresh_token: string | null }>`
      SELECT refresh_token FROM tppkit_consents WHERE consent_key = ${key}`
    const stored = rows[0]?.refresh_token
    if (stored === null || stored === undefined) return undefined
    const aes = yield* sealingKey
    if (!SealedToken.isSealed(stored)) {
      yield* sql`UPDATE tppkit_consents SET refresh_token = ${SealedToken.seal(aes, stored, key)}
        WHERE consent_key = ${key} AND refresh_token = ${stored}`
      return Redacted.make(stored, { label: "refresh_token" })
    }
    const opened = SealedToken.open(aes, stored, key)
    if (Result.isFailure(opened)) {
      return yield* new ChecksError({
        message: `the refresh token of consent ${key} does not open with ${refreshTokenKeySetting} (sealed with another key): give the fleet's key, or add the consent again with a new refresh token`
      })
    }
    return Redacted.make(opened.success, { label: "refresh_token" })
  })

/**
 * Seals every refresh token an earlier version kept plain (run when a worker starts with {@link RefreshTokenKey});
 * how many were sealed. Without the key, nothing is done.
 */
export const sealRefreshTokens: Effect.Effect<number, SqlError | ChecksError, SqlClient.SqlClient> = Effect.gen(
  function* () {
    if (Option.isNone(yield* RefreshTokenKey)) return 0
    const aes = yield* sealingKey
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ consent_key: string; refresh_token: string }>`
      SELECT consent_key, refresh_token FROM tppkit_consents
      WHERE refresh_token IS NOT NULL AND refresh_token NOT LIKE 'v1:%'`
    for (const r of rows) {
      yield* sql`UPDATE tppkit_consents SET refresh_token = ${SealedToken.seal(aes, r.refresh_token, r.consent_key)}
        WHERE consent_key = ${r.consent_key} AND refresh_token = ${r.refresh_token}`
    }
    return rows.length
  }
)

/** Keeps the refresh token a renewal gave for a consent (the bank may rotate it); false when the consent is gone. */
export const keepRefreshToken = (
  key: string,
  token: Redacted.Redacted<string>
): Effect.Effect<boolean, SqlError | ChecksError, SqlClient.SqlClient> =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const refresh = yield* sealed(key, token)
    const rows = yield* sql<{ consent_key: string }>`
      UPDATE tppkit_consents SET refresh_token = ${refresh} WHERE consent_key = ${key}
      RETURNING consent_key`
    return rows.length > 0
  })

/** Removes a consent; true when there was one. */
export const remove = (key: string): Effect.Effect<boolean, SqlError, SqlClient.SqlClient> =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ consent_key: string }>`
      DELETE FROM tppkit_consents WHERE consent_key = ${key} RETURNING consent_key`
    return rows.length > 0
  })

/**
 * Adds the consents the table lacks (those already there are left as they are); the keys added. `addedAt` (epoch
 * milliseconds, default the clock's now) is the instant a consent without its own `validUntil` counts its profile's
 * validity from: a worker sweeping a day given with `--today` seeds its consents on that day.
 */
export const seed = (
  consents: ReadonlyArray<Given>,
  options: { readonly addedAt?: number | undefined } = {}
): Effect.Effect<ReadonlyArray<string>, SqlError | ChecksError, SqlClient.SqlClient> =>
  Effect.gen(function* () {
    const rows: Array<Given & { readonly sealed: string | null }> = []
    for (const c of consents) rows.push({ ...c, sealed: yield* sealed(c.key, c.refreshToken) })
    return yield* insertMissing(rows, options.addedAt)
  })

/** Inserts the consents the table lacks, each with its refresh token's stored text; the keys added. */
const insertMissing = (
  consents: ReadonlyArray<Given & { readonly sealed: string | null }>,
  addedAt: number | undefined
): Effect.Effect<ReadonlyArray<string>, SqlError, SqlClient.SqlClient> =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const now = addedAt ?? (yield* Clock.currentTimeMillis)
    const added: Array<string> = []
    for (const c of consents) {
      const rows = yield* sql<{ consent_key: string }>`
        INSERT INTO tppkit_consents (consent_key, iban, profile, valid_until, added_at, refresh_token)
        VALUES (${c.key}, ${c.iban ?? null}, ${c.profile ?? null}, ${c.validUntil ?? null}, ${now}, ${c.sealed})
        ON CONFLICT (consent_key) DO NOTHING RETURNING consent_key`
      if (rows.length > 0) added.push(c.key)
    }
    return added
  })

/**
 * The consents the sweep lists, with the last day each is valid: its own `validUntil`, else the day it was added
 * (UTC) plus `validityDays(profile)` when that gives a number (a profile's `consent.electronicValidityDays`), else
 * none.
 */
export const sweepable = (
  validityDays: (profile: string | undefined) => number | undefined = () => undefined
): Effect.Effect<ReadonlyArray<SweepConsent>, SqlError, SqlClient.SqlClient> =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<
      ConsentRow & { readonly added_at: string | number }
    >`SELECT consent_key, iban, profile, valid_until, added_at FROM tppkit_consents ORDER BY consent_key`
    return rows.map((r): SweepConsent => {
      const days = r.valid_until === null ? validityDays(r.profile ?? undefined) : undefined
      const validUntil =
        r.valid_until ??
        (days === undefined
          ? undefined
          : LocalDate.format(LocalDate.addDays(LocalDate.ofInstant(Number(r.added_at), "UTC"), days)))
      return {
        key: r.consent_key,
        ...(r.iban === null ? {} : { iban: r.iban }),
        ...(r.profile === null ? {} : { profile: r.profile }),
        ...(validUntil === undefined ? {} : { validUntil })
      }
    })
  })

/**
 * The sweep's consents read from the table at the start of each run (`Sweep.ConsentSource`), each with its profile
 * and the last day it is valid ({@link sweepable}).
 */
export const layerSource = (
  validityDays?: (profile: string | undefined) => number | undefined
): Layer.Layer<ConsentSource, never, SqlClient.SqlClient> =>
  Layer.effect(
    ConsentSource,
    Effect.map(Effect.context<SqlClient.SqlClient>(), (context) =>
      ConsentSource.of({ current: Effect.provide(sweepable(validityDays), context) })
    )
  )
