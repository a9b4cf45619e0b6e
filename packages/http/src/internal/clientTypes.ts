/**
 * The types of `BankClient`'s calls, declared beside its engines (`call.ts`, `allPages.ts`, `profiled.ts`): the public
 * module re-exports each and documents it.
 */
import type { Iban, SourceRecord, StandingOrder } from "@tppkit/core"
import type { Duration } from "effect"
import type { Identity } from "../BankError.ts"
import type * as PsuContext from "../PsuContext.ts"
import type { Token } from "../TokenService.ts"

/**
 * A record as the bank sent it (a profile's own standard), with the order's id when it carries one, and core's
 * reading of it (`SourceRecord.read`; a COBS list item names no start: it counts from the listing day, and one of a
 * longer interval is skipped until its detail is read).
 */
export interface RawRecord {
  /** The bank's id of the order (COBS `standingOrderIdentification.transactionIdentification`). */
  readonly id: string | undefined
  readonly json: unknown
  readonly read: SourceRecord.Read | undefined
}

/** One page of standing orders: the good records, the malformed ones (core's lenient decoding), the page count. */
export interface StandingOrdersPage extends StandingOrder.LenientList {
  /** The zero-based page number. */
  readonly page: number
  /**
   * Under a profile whose records are not the seed bank's (COBS): the page's records as the bank sent them, each with
   * its `transactionIdentification` (then `orders` is empty; core's decoder of the profile's standard reads them).
   */
  readonly records?: ReadonlyArray<RawRecord>
}

/** What every call needs: the customer's context, and optionally a Correlation-ID and a token to use. */
export interface CallOptions {
  /** The PSU headers of this customer (docs/bank-interface.md, "Headers"), given per call. */
  readonly psu: PsuContext.PsuContext
  /** Correlation-ID of this logical call, kept across its retries; a UUID v4 is generated when absent. */
  readonly correlationId?: string
  /** A token to use instead of the `TokenProvider`'s, e.g. from strong customer authentication; never renewed. */
  readonly token?: Token
}

/** Options of a standing-order listing. */
export interface ListOptions extends CallOptions {
  /** Only the standing orders of this account (docs/bank-interface.md, "Standing-order list": a filter). */
  readonly iban?: Iban.Iban
  /** Process-ID shared by all pages of the listing; a UUID v4 is generated when absent. */
  readonly processId?: string
  /**
   * The consent whose daily budget unattended calls spend (docs/bank-interface.md, "Daily limit"); defaults to the
   * client id.
   */
  readonly consentKey?: string
}

/** One page: zero-based page number (default 0) and page size (multiple of 10, at most 100; bank default 50). */
export interface PageOptions extends ListOptions {
  readonly page?: number
  readonly pageSize?: number
}

/**
 * All pages: page size 100 unless given (fewest calls), and optionally at most `maxPages` pages. A listing is
 * bounded: it stops at an empty page (or a short one when the bank gives no `pageCount`), refuses more than `pageLimit` pages (announced by `pageCount` or
 * met as full pages without one) and a `pageCount` that changes between pages, and has one overall `deadline`;
 * each of these ends it with `ListingIncomplete` holding every page read. An orderId seen on an earlier page is
 * reported in the later page's `errors`, not merged.
 *
 * Unattended listings (the customer not present) spend the daily budget, so they are never wasted: one listing of
 * a consent (and filter) runs at a time across every caller sharing the budget store, and the others get its
 * result; the complete listing is kept in the store, and a caller that accepts one up to `maxAge` old gets it
 * without spending anything. Once page 0 gives `pageCount`, the rest of the listing is paid for at once, or
 * refused with `BudgetExhausted` saying how many pages it needed, before page 1 is asked for.
 */
export interface AllPagesOptions extends ListOptions {
  readonly pageSize?: number
  readonly maxPages?: number
  /** The hard page limit (default 100 pages, 10,000 orders at page size 100). */
  readonly pageLimit?: number
  /** One deadline for the whole listing, waiting for another caller's included (default 60 seconds). */
  readonly deadline?: Duration.Input
  /**
   * Accept a complete unattended listing of the same consent and filter up to this old, costing nothing (default
   * {@link DEFAULT_MAX_AGE}, so that listings started moments apart share one; 0: only a listing that completes
   * after this call started, e.g. the one in flight).
   */
  readonly maxAge?: Duration.Input
  /**
   * Unattended only: keep the pages read by an attempt that stops early (a failure, the deadline, an interruption,
   * a process killed) in the budget store, and start from the pages kept by an earlier attempt of the same consent
   * and filter on the same budget day, asking the bank only for the pages it lacks; pages the earlier attempt paid
   * for and never asked for are not paid again (README.md, "Bounded listings": the owner of a listing, such as a
   * fleet's daily sweep, may try it again later asking only for the pages it lacks). A complete listing is kept
   * too: the owner's next attempt on the same budget day gets it, however old, without a request (its replies carry
   * `snapshotTakenAt`). Default false: every listing starts at page 0.
   */
  readonly resume?: boolean
}

/** A decoded body with the identifiers of the request that produced it and those the bank echoed. */
export interface Reply<A> {
  readonly body: A
  /** Request-ID, Correlation-ID and Process-ID as sent, and the bank's Response-ID. */
  readonly identity: Identity
  /** Correlation-ID and Process-ID as the bank echoed them, when it did. */
  readonly echoed: { readonly correlationId?: string; readonly processId?: string }
  /** When the reply comes from a stored complete listing rather than a request: when that listing completed. */
  readonly snapshotTakenAt?: string
  /**
   * How many requests the call sent when more than one: a request answered 401 and sent again with a new token
   * (README.md, "Tokens") is 2; absent: one.
   */
  readonly requests?: number
}
