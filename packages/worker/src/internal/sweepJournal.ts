/**
 * The consents of a sweep run as its journal keeps them: only the fields given, so that a run resumed elsewhere reads
 * the same consents; and the records of a listing that could not be read or pay nothing, as a consent's plan keeps them.
 */
import { Orders, type StandingOrder } from "@tppkit/core"
import { Schema } from "effect"

/**
 * A consent whose standing orders the sweep lists: its budget key, and optionally one account (IBAN filter), the bank
 * profile it is listed and checked with (absent: the worker's own) and the last day it is valid (absent: no end known).
 */
export interface Consent {
  readonly key: string
  readonly iban?: string | undefined
  readonly profile?: string | undefined
  readonly validUntil?: string | undefined
}

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

/**
 * The warnings of a listing's reading, grouped: one entry per field and reason (a tolerance, e.g. a code in lower
 * case; an amount kept out of the bank's format; a loss or a default of another standard's reading), how many records
 * raised it and the first few orderIds. The records are planned as read.
 */
export const RecordWarnings = Schema.Array(
  Schema.Struct({
    field: Schema.String,
    reason: Schema.String,
    count: Schema.Number,
    orderIds: Schema.Array(Schema.String)
  })
)

/** The grouped warnings of a listing's reading. */
export type RecordWarnings = typeof RecordWarnings.Type

/** One record's warning before grouping: the group it falls in (standard, field, reason), and its words. */
export interface RecordWarning {
  readonly group: string
  readonly field: string
  readonly reason: string
  readonly orderId: string | undefined
}

/** How many orderIds a group of warnings names; the rest are counted. */
export const warnedNamed = 3

/**
 * The warnings the bank's list decoder raised for a page (`StandingOrder.RecordError`: a tolerance, an amount kept out
 * of the bank's format), grouped by field and reason: a tolerance (`"mnth" is read as "MNTH", because …`) by its field
 * and why, whatever the value received (the words are the first one's); any other by its field and words.
 */
export const pageWarnings = (warnings: ReadonlyArray<StandingOrder.RecordError>): Array<RecordWarning> =>
  warnings.map((w) => {
    const why =
      /^"(?:[^"\\]|\\.)*" is read (?:as "(?:[^"\\]|\\.)*"|as absent|as given), (?:because|although) (.*)$/s.exec(
        w.message
      )?.[1]
    return {
      group: `${w.path}\u0000${why === undefined ? w.message : `tolerated\u0000${why}`}`,
      field: w.path,
      reason: w.message,
      orderId: w.orderId
    }
  })

/**
 * The warnings core's `Orders` raised reading `items` in another standard (a tolerance, a loss, a default the
 * standard does not state), grouped by standard, field and reason; the words are the first one's.
 */
export const itemWarnings = (items: ReadonlyArray<Orders.Item>): Array<RecordWarning> =>
  items.flatMap((i) =>
    i._tag !== "Order"
      ? []
      : i.warnings.map((w) => ({
          group: Orders.warningGroup(w),
          field: w.field,
          reason: Orders.describeWarning(w),
          orderId: i.orderId
        }))
  )

/** Warnings grouped (in the order first raised), as the sweep keeps them; absent when there are none. */
export const warningsSummary = (warnings: ReadonlyArray<RecordWarning>): { readonly warnings?: RecordWarnings } => {
  if (warnings.length === 0) return {}
  const groups = new Map<string, { field: string; reason: string; count: number; orderIds: Array<string> }>()
  for (const w of warnings) {
    const g = groups.get(w.group) ?? { field: w.field, reason: w.reason, count: 0, orderIds: [] }
    g.count++
    if (w.orderId !== undefined && g.orderIds.length < warnedNamed) g.orderIds.push(w.orderId)
    groups.set(w.group, g)
  }
  return { warnings: [...groups.values()] }
}
