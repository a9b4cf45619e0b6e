/**
 * The consents of a sweep run as its journal keeps them: only the fields given, so that a run resumed elsewhere reads
 * the same consents; and the records of a listing that could not be read or pay nothing, as a consent's plan keeps them.
 */
import type { Orders } from "@tppkit/core"
import { Schema } from "effect"
import type { Consent } from "../Sweep.ts"

/** A consent as the sweep's journal keeps it. */
export const ConsentSchema = Schema.Struct({
  key: Schema.String,
  iban: Schema.optionalKey(Schema.String),
  profile: Schema.optionalKey(Schema.String),
  validUntil: Schema.optionalKey(Schema.String)
})

/** A consent without its absent fields (what the journal keeps, so that a run resumed reads the same). */
export const journaled = (c: Consent): typeof ConsentSchema.Type => ({
  key: c.key,
  ...(c.iban === undefined ? {} : { iban: c.iban }),
  ...(c.profile === undefined ? {} : { profile: c.profile }),
  ...(c.validUntil === undefined ? {} : { validUntil: c.validUntil })
})

/** The consents of a run as journaled. */
export const JournaledConsents = Schema.Array(ConsentSchema)

/**
 * A listing's records that could not be read: how many, and the first few with their 1-based position and reason;
 * `nothingRead` when no record of the listing could be read (nothing was planned from it).
 */
export const UnreadRecords = Schema.Struct({
  count: Schema.Number,
  first: Schema.Array(Schema.Struct({ position: Schema.String, reason: Schema.String })),
  nothingRead: Schema.optionalKey(Schema.Boolean)
})

/** The records of a listing that could not be read. */
export type UnreadRecords = typeof UnreadRecords.Type

/** How many unread records are named with their position and reason; the rest are counted. */
export const unreadNamed = 5

/** A record of a listing that could not be read: its 1-based position and why. */
export type UnreadRecord = UnreadRecords["first"][number]

/**
 * The records core's `Orders` could not read among `items`, each with its position in the listing (from 1, and its
 * orderId when known) and core's reason, `as` the standard they were read in when it is not the bank's own.
 */
export const unreadItems = (items: ReadonlyArray<Orders.Item>, as?: string): Array<UnreadRecord> =>
  items
    .filter((i): i is Orders.Unread => i._tag === "Unread")
    .map((u) => ({
      position: `${u.position === undefined ? "listing" : `record ${u.position}`}${u.orderId === undefined ? "" : ` (${u.orderId})`}`,
      reason: `${as === undefined ? "" : `not read as ${as}: `}${u.path === "" ? "" : `${u.path}: `}${u.reason}`
    }))

/** The records of a listing that could not be read, as the sweep keeps them (`uncounted`: known by count only). */
export const unreadSummary = (
  unread: ReadonlyArray<UnreadRecord>,
  uncounted = 0
): { readonly unread?: UnreadRecords } =>
  unread.length + uncounted === 0
    ? {}
    : { unread: { count: unread.length + uncounted, first: unread.slice(0, unreadNamed) } }

/**
 * A listing's records read whole that yield no payment (core's `Skipped`: an end before the start, no anchor, inactive,
 * no date the rule reaches): how many, and the first few with their 1-based position and
 * reason. The same shape as {@link UnreadRecords}.
 */
export const SkippedRecords = UnreadRecords

/** The records of a listing that pay nothing. */
export type SkippedRecords = typeof SkippedRecords.Type

/**
 * The records core's `Orders` read but skipped among `items` (they pay nothing), each with its position in the listing
 * (from 1) and orderId, and core's reason, `as` the standard they were read in when it is not the bank's own.
 */
export const skippedItems = (items: ReadonlyArray<Orders.Item>, as?: string): Array<UnreadRecord> =>
  items
    .filter((i): i is Orders.Skipped => i._tag === "Skipped")
    .map((s) => ({
      position: `record ${s.position} (${s.orderId})`,
      reason: `${as === undefined ? "" : `read as ${as}: `}${s.reason}`
    }))

/** The records of a listing that pay nothing, as the sweep keeps them (`uncounted`: known by count only). */
export const skippedSummary = (
  skipped: ReadonlyArray<UnreadRecord>,
  uncounted = 0
): { readonly skipped?: SkippedRecords } => {
  const summary = unreadSummary(skipped, uncounted).unread
  return summary === undefined ? {} : { skipped: summary }
}

/**
 * The records of a listing that pay nothing with the orders the projection refused for their amount added (`refused`,
 * each `record N (ID)` after `where`, e.g. the listing of an earlier day, with the projection's reason), so that they
 * are named with the others, never dropped.
 */
export const withRefused = (
  skipped: SkippedRecords | undefined,
  refused: ReadonlyArray<{ readonly position: number; readonly orderId: string; readonly reason: string }>,
  where = ""
): SkippedRecords | undefined => {
  if (refused.length === 0) return skipped
  const named = refused.map((r) => ({ position: `${where}record ${r.position} (${r.orderId})`, reason: r.reason }))
  const first = skipped?.first ?? []
  return {
    count: (skipped?.count ?? 0) + refused.length,
    first: [...first, ...named].slice(0, Math.max(unreadNamed, first.length))
  }
}
