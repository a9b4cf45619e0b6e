/**
 * What a worker run once (`tppkit worker --once`) says of its day, pure: from the day's sweep summary the consents
 * whose orders could not be listed, those planned in part from an earlier day's listing, the orders whose details are
 * pending and the records of the listings not read, read that pay nothing or read with warnings; from the day's checks
 * those still waiting for an answer, those asked more than once and those planned from an earlier day's listing. The
 * CLI prints them (the `--once` report's JSON and its exit).
 *
 * @since 0.1.0
 */
import { LocalDate } from "@tppkit/core"
import * as CheckFailure from "./CheckFailure.ts"
import type { Row } from "./Checks.ts"
import type { ConsentSummary, Summary } from "./Sweep.ts"

/** The consents whose standing orders could not be listed on the day (their payments are not planned). */
export const unlisted = (summary: Summary): Array<ConsentSummary> =>
  summary.consents.filter((c) => c.failure !== undefined)

/** The consents planned in part from an earlier day's listing (some of their pages could not be read on the day). */
export const partial = (summary: Summary): Array<ConsentSummary> =>
  summary.consents.filter((c) => c.pagesUnread !== undefined)

/**
 * The checks of the day still without an answer: failed on a transient fault, which their workflows try again (a
 * final failure, a refusal or a payment that cannot be sent, is an answer).
 */
export const unanswered = (rows: ReadonlyArray<Row>): number =>
  rows.filter((r) => r.outcome === "failed" && !CheckFailure.isFinal(r.failure)).length

/** How many checks the consents planned in part planned from an earlier day's listing. */
export const standIns = (summary: Summary): number =>
  partial(summary).reduce((n, c) => n + (c.plannedFromEarlier ?? 0), 0)

/** A consent's orders listed but not planned while their details are pending (read within a later day's budget). */
export interface DetailsPending {
  readonly consent: string
  readonly orders: ReadonlyArray<string>
}

/** A consent's records that could not be read as standing orders: how many, the first, and whether none could be. */
export interface Unread {
  readonly consent: string
  readonly count: number
  readonly first: NonNullable<ConsentSummary["unread"]>["first"]
  readonly nothingRead?: true
}

/** A consent's records read whole that pay nothing: how many and the first, with their reasons. */
export interface Skipped {
  readonly consent: string
  readonly count: number
  readonly first: NonNullable<ConsentSummary["skipped"]>["first"]
}

/** What the listings of the day said besides their orders, consent by consent, each only where there is something. */
export interface Records {
  readonly detailsPending: Array<DetailsPending>
  readonly unread: Array<Unread>
  readonly skipped: Array<Skipped>
  /** The warnings of the listings' reading, one per consent, field and reason (the records planned as read). */
  readonly warnings: Array<{ readonly consent: string } & NonNullable<ConsentSummary["warnings"]>[number]>
}

/** The records of the day's listings {@link Records} names, from the sweep's summary. */
export const records = (summary: Summary): Records => ({
  detailsPending: summary.consents
    .filter((c) => (c.detailsPending ?? []).length > 0)
    .map((c) => ({ consent: c.consent, orders: c.detailsPending ?? [] })),
  unread: summary.consents.flatMap((c) =>
    c.unread === undefined
      ? []
      : [
          {
            consent: c.consent,
            count: c.unread.count,
            first: c.unread.first,
            ...(c.unread.nothingRead === true ? { nothingRead: true as const } : {})
          }
        ]
  ),
  skipped: summary.consents.flatMap((c) =>
    c.skipped === undefined ? [] : [{ consent: c.consent, count: c.skipped.count, first: c.skipped.first }]
  ),
  warnings: summary.consents.flatMap((c) => (c.warnings ?? []).map((w) => ({ consent: c.consent, ...w })))
})

/** A check asked more than once: its order and day, how many requests and whether an answer is unconfirmed. */
export interface Repeat {
  readonly consent: string
  readonly orderId: string
  readonly nominalDate: string
  readonly attempts: number
  readonly unconfirmed: Row["unconfirmed"]
}

/** A check planned from an earlier day's listing, with that day and its outcome (`null`: none yet). */
export interface StandIn {
  readonly consent: string
  readonly orderId: string
  readonly nominalDate: string
  readonly listedOn: string | undefined
  readonly outcome: NonNullable<Row["outcome"]> | null
}

/** The day's checks asked more than once, and those planned from an earlier day's listing. */
export const checks = (
  rows: ReadonlyArray<Row>
): { readonly repeats: Array<Repeat>; readonly listedOn: Array<StandIn> } => ({
  repeats: rows
    .filter((r) => r.attempts > 1)
    .map((r) => ({
      consent: r.consent,
      orderId: r.orderId,
      nominalDate: LocalDate.format(r.nominalDate),
      attempts: r.attempts,
      unconfirmed: r.unconfirmed
    })),
  listedOn: rows
    .filter((r) => r.listedOn !== undefined)
    .map((r) => ({
      consent: r.consent,
      orderId: r.orderId,
      nominalDate: LocalDate.format(r.nominalDate),
      listedOn: r.listedOn === undefined ? undefined : LocalDate.format(r.listedOn),
      outcome: r.outcome ?? null
    }))
})
