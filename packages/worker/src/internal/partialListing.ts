/**
 * A consent's day from what is kept when its listing could not be read whole: the pages kept today and, for the pages
 * not read, the latest complete listing of an earlier day (each such check marked `listedOn` with its day).
 */
import { LocalDate } from "@tppkit/core"
import { Effect, Result, Schema } from "effect"
import { Checks, type Due } from "../Checks.ts"
import { ListingFailed } from "./listingFailure.ts"
import type { Consent } from "./sweepJournal.ts"
import { RecordWarnings, SkippedRecords, UnreadRecords, withRefused } from "./sweepJournal.ts"
import { keyed, planned } from "./sweepPlan.ts"
import type { OrderSource, Settings } from "./sweepTypes.ts"

/** What the sweep planned of a consent whose listing could not be read whole. */
export const PartialSchema = Schema.Struct({
  planned: Schema.Number,
  pagesKept: Schema.Number,
  pagesUnread: Schema.Union([Schema.Array(Schema.Number), Schema.Literal("unknown")]),
  plannedFrom: Schema.optionalKey(Schema.String),
  plannedFromEarlier: Schema.Number,
  unread: Schema.optionalKey(UnreadRecords),
  skipped: Schema.optionalKey(SkippedRecords),
  detailsPending: Schema.optionalKey(Schema.Array(Schema.String)),
  warnings: Schema.optionalKey(RecordWarnings)
})

/** What the sweep planned of a consent whose listing could not be read whole. */
export type Partial = typeof PartialSchema.Type

/** Whether every page not read today was planned from an earlier complete listing (or every page was kept). */
export const isCovered = (partial: Partial): boolean =>
  partial.pagesUnread !== "unknown" && (partial.pagesUnread.length === 0 || partial.plannedFrom !== undefined)

/**
 * Plans a consent's checks from what is kept of its listing: every order on the pages kept today, and the orders
 * of the pages not read today as the latest complete listing of an earlier day has them (each such check marked
 * with that listing's day, `listedOn`). Undefined when nothing is kept.
 */
export const planPartial = (
  source: OrderSource["Service"],
  consent: Consent,
  day: string,
  date: LocalDate.LocalDate,
  settings: Settings
): Effect.Effect<Partial | undefined, ListingFailed, Checks> =>
  Effect.gen(function* () {
    const checks = yield* Checks
    if (source.kept === undefined) return undefined
    const kept = yield* source.kept(consent, day)
    const earlierDay = kept.earlier === undefined ? undefined : LocalDate.parse(kept.earlier.day)
    const fromToday = planned(keyed(kept.orders).orders, consent.key, date, settings)
    const fromEarlier =
      kept.earlier === undefined ? undefined : planned(keyed(kept.earlier.orders).orders, consent.key, date, settings)
    const today = fromToday.due
    const earlier = (fromEarlier?.due ?? []).map(
      (d): Due =>
        earlierDay === undefined || Result.isFailure(earlierDay) ? d : { ...d, listedOn: earlierDay.success }
    )
    // what a whole listing names is named from what is kept too: the records unread, those that pay nothing (an
    // amount the rules refuse among them) and the orders whose details are pending (issue 34)
    const skipped = withRefused(
      withRefused(kept.skipped, fromToday.refused),
      fromEarlier?.refused ?? [],
      `the listing of ${kept.earlier?.day ?? ""}, `
    )
    const pending = kept.detailsPending ?? []
    yield* checks
      .plan([...today, ...earlier])
      .pipe(Effect.mapError((failure) => new ListingFailed({ consent: consent.key, failure })))
    return {
      planned: today.length + earlier.length,
      pagesKept: kept.pagesKept.length,
      pagesUnread: kept.pagesUnread ?? "unknown",
      ...(kept.earlier === undefined ? {} : { plannedFrom: kept.earlier.day }),
      plannedFromEarlier: earlier.length,
      // no record of what is kept could be read: the line says nothing was planned from it, not "the others"
      ...(kept.unread === undefined
        ? {}
        : {
            unread:
              kept.orders.length === 0 &&
              (kept.earlier?.orders.length ?? 0) === 0 &&
              pending.length === 0 &&
              skipped === undefined
                ? { ...kept.unread, nothingRead: true }
                : kept.unread
          }),
      ...(skipped === undefined ? {} : { skipped }),
      ...(pending.length === 0 ? {} : { detailsPending: [...pending] }),
      ...(kept.warnings === undefined || kept.warnings.length === 0 ? {} : { warnings: kept.warnings })
    }
  })
