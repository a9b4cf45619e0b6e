/**
 * The engine of `BankSources.orderSource` for a bank of the seed bank's profile: the consent's listing read page by
 * page, unattended, each page kept in the fleet's database (`Listings`) the moment it is read, under a lease in the
 * budget store so that one worker reads a consent's listing at a time; what is kept of a listing that could not be
 * completed; and the seed bank's records read again by core in another standard when the bank's settings name one.
 */
import { Iban, LocalDate, Orders, type Standard, StandingOrder } from "@tppkit/core"
import { BankClient, BankConfig, type BankError, Budget, type PsuContext } from "@tppkit/http"
import type { Projection } from "@tppkit/schedule"
import { Clock, Context, Effect, Exit, Option, Result } from "effect"
import { ChecksError } from "../Checks.ts"
import * as Listings from "../Listings.ts"
import type { Bank } from "./bankStack.ts"
import * as DatabaseRetry from "./databaseRetry.ts"
import { InvalidIban, ListingFailed } from "./listingFailure.ts"
import type { Consent } from "./sweepJournal.ts"
import {
  itemWarnings,
  pageWarnings,
  type RecordWarning,
  skippedItems,
  skippedSummary,
  type UnreadRecord,
  unreadItems,
  unreadSummary,
  warningsSummary
} from "./sweepJournal.ts"

/**
 * The seed bank's records read again by core's `Orders` in `standard` on `day`: a bank whose settings name another
 * standard than its profile's (`BankConfig.Settings.standard`, the CLI's `--standard`) has its records read in it; the
 * orders as listed when none is named. A record the standard cannot read is `unread` with its position in the listing
 * (from 1) and core's reason, never dropped silently; one it reads but that pays nothing is `skipped` with its reason
 * (the bank's own records that pay nothing are named by its list's decoder, see {@link skippedOf}).
 */
export const readAs = (
  orders: ReadonlyArray<StandingOrder.StandingOrder>,
  standard: Standard.Standard | undefined,
  day: string
): {
  readonly orders: ReadonlyArray<Projection.ProjectableOrder>
  readonly unread: ReadonlyArray<UnreadRecord>
  readonly skipped: ReadonlyArray<UnreadRecord>
  readonly warnings: ReadonlyArray<RecordWarning>
} => {
  if (standard === undefined || standard === "sbas") return { orders, unread: [], skipped: [], warnings: [] }
  const decoder = Orders.decoder({ standard, listedOn: LocalDate.parseUnsafe(day) })
  const items = [...decoder.push(JSON.stringify(orders.map((o) => StandingOrder.encodeReceived(o))))]
  const end = decoder.end()
  if (end._tag === "Success") items.push(...end.success.items)
  // the text stops being a list where a record passes the reader's limits: the records read are kept, and the stop
  // is said as an unread part of the listing, never left out without a word
  else
    items.push({
      _tag: "Unread",
      kind: "list",
      position: undefined,
      orderId: undefined,
      path: "",
      reason: `${end.failure.reason}; the records from there on were not read`,
      standard: undefined
    })
  return {
    orders: items.filter((i): i is Orders.Order => i._tag === "Order"),
    unread: unreadItems(items, standard),
    skipped: skippedItems(items, standard),
    warnings: itemWarnings(items)
  }
}

/**
 * The records of a page the bank's list decoder read whole but that pay nothing (`skipped`: an end before the start,
 * no anchor), with their position (page, record from 1) and core's reason.
 */
const skippedOf = (page: number, skipped: ReadonlyArray<StandingOrder.RecordError>): Array<UnreadRecord> =>
  skipped.map((e) => ({
    position: `page ${page}, record ${e.index + 1}${e.orderId === undefined ? "" : ` (${e.orderId})`}`,
    reason: e.message
  }))

/**
 * The records of a page kept by an earlier try that pay nothing, read again by core's list decoder (a kept page holds
 * its orders only: their record numbers are the page's when it had no malformed record, else the orderId names them).
 */
const keptSkipped = (page: Listings.Page): Array<UnreadRecord> => {
  const whole = page.records === page.orders.length
  return skippedAmong(page.orders, (i) => `page ${page.page}${whole ? `, record ${i + 1}` : ""}`)
}

/** The warnings of a kept page's orders read again by core's list decoder (an amount out of the bank's format). */
const keptWarnings = (page: Listings.Page): Array<RecordWarning> => ordersWarnings(page.orders)

/** The warnings of kept orders read again by core's list decoder (an amount out of the bank's format). */
const ordersWarnings = (orders: ReadonlyArray<StandingOrder.StandingOrder>): Array<RecordWarning> => {
  const read = Orders.decodeBankList(Listings.encodeOrders(orders))
  return Result.isFailure(read) ? [] : pageWarnings(read.success.warnings)
}

/** The orders kept that pay nothing, read again by core's list decoder, each where `at` its index says. */
const skippedAmong = (
  orders: ReadonlyArray<StandingOrder.StandingOrder>,
  at: (index: number) => string
): Array<UnreadRecord> => {
  const read = Orders.decodeBankList(Listings.encodeOrders(orders))
  if (Result.isFailure(read)) return []
  return (read.success.skipped ?? []).map((e) => ({
    position: `${at(e.index)}${e.orderId === undefined ? "" : ` (${e.orderId})`}`,
    reason: e.message
  }))
}

/**
 * The records of a page kept by an earlier try (or the day's failed listing) that the bank's decoder could not read:
 * one per record, named by its page (a kept page holds its orders and its count of records, not their errors).
 */
const keptUnread = (page: Listings.Page, where = ""): Array<UnreadRecord> =>
  Array.from({ length: Math.max(0, page.records - page.orders.length) }, () => ({
    position: `${where}page ${page.page}`,
    reason: "a record the bank's list decoder could not read when the page was kept (the page keeps no errors)"
  }))

/** The records of a page the bank's decoder could not read, with their position (page, record from 1) and reason. */
const unreadOf = (page: number, errors: ReadonlyArray<StandingOrder.RecordError>): Array<UnreadRecord> =>
  errors.map((e) => ({
    position: `page ${page}${e.index < 0 ? "" : `, record ${e.index + 1}`}${e.orderId === undefined ? "" : ` (${e.orderId})`}`,
    reason: `${e.path === "" ? "" : `${e.path}: `}${e.message}`
  }))

/** The most pages a listing may have (http's default hard page limit). */
const pageLimit = BankClient.DEFAULT_PAGE_LIMIT

/** How long a worker holds a consent's listing between two pages; a paused or dead worker frees it within this time. */
const leaseMillis = 15_000

/** How long the listing's lease is held before a page renews it. */
const renewAfterMillis = 1_000

/** How a kept page is written again while the database is away (a restart): 100 ms doubled up to 5 s, 5 minutes. */
const databaseRetry = DatabaseRetry.within(DatabaseRetry.restart, "5 minutes")

/** How a page just read is kept before the listing may be interrupted: 100 ms doubled up to 5 s, for 20 s. */
const firstKeeping = DatabaseRetry.within(DatabaseRetry.restart, "20 seconds")

/** Whether a page is the last of its listing: the count of page 0, or a short page when the bank gives none. */
const isLast = (page: Listings.Page, first: number | undefined, pageSize: number): boolean =>
  first !== undefined ? page.page >= first - 1 : page.records < pageSize

/**
 * The orders of pages: a record that an earlier page has already, the same record again (the pages moved while they
 * were read), is left out; a different record with an orderId seen before, or one repeated within a page, is kept
 * (the sweep keys such records `ID#N`, `Sweep.keyed`).
 */
const ordersOf = (pages: ReadonlyArray<Listings.Page>): Array<StandingOrder.StandingOrder> => {
  const seen = new Map<string, { readonly page: number; readonly records: Array<StandingOrder.StandingOrder> }>()
  const orders: Array<StandingOrder.StandingOrder> = []
  for (const p of pages) {
    for (const o of p.orders) {
      const earlier = seen.get(o.orderId)
      if (earlier === undefined) seen.set(o.orderId, { page: p.page, records: [o] })
      else if (earlier.page !== p.page && earlier.records.some((r) => sameRecord(r, o))) continue
      else earlier.records.push(o)
      orders.push(o)
    }
  }
  return orders
}

/** Whether two records are the same order as received (every field). */
const sameRecord = (a: StandingOrder.StandingOrder, b: StandingOrder.StandingOrder): boolean =>
  JSON.stringify(StandingOrder.encodeReceived(a)) === JSON.stringify(StandingOrder.encodeReceived(b))

/**
 * The orders an earlier complete listing stands in with for the pages not read today: each of its orders that no
 * page kept today has, matched by orderId, never by page (an order moves to another page when orders before it come
 * or go). An order of the earlier listing that was removed since and would have been on a page read today is
 * planned too (marked with the earlier day): an extra balance check costs less than a payment left unchecked.
 */
export const standIns = (
  today: ReadonlyArray<Listings.Page>,
  earlier: ReadonlyArray<Listings.Page>
): Array<StandingOrder.StandingOrder> => {
  const seen = new Set(today.flatMap((p) => p.orders.map((o) => o.orderId)))
  return ordersOf(earlier).filter((o) => !seen.has(o.orderId))
}

/** What the engine needs: the customer's context, the kept listings, the page size, and the bank's guard. */
export interface Deps {
  readonly psu: PsuContext.PsuContext
  readonly listings: Listings.Listings["Service"]
  readonly pageSize: number
  /** A bank's call as the worker sends it (nothing after the bank refused its credentials). */
  readonly guarded: <A>(
    bank: Bank,
    call: Effect.Effect<A, BankError.BankError>
  ) => Effect.Effect<A, BankError.BankError>
}

/** The listing of a consent at a bank of the seed bank's profile, and what is kept of it. */
export const make = (deps: Deps) => {
  const { psu, listings, pageSize } = deps
  const idOf = (consent: Consent) => Listings.listingId(consent.key, consent.iban, pageSize)
  const stored = (consent: Consent) => (e: ChecksError) => new ListingFailed({ consent: consent.key, failure: e })
  const list = (bank: Bank, consent: Consent, day: string) =>
    Effect.gen(function* () {
      const client = Context.get(bank, BankClient.BankClient)
      const store = Context.get(bank, Budget.Budget).store
      const iban = consent.iban === undefined ? undefined : Iban.parse(consent.iban)
      if (iban !== undefined && iban._tag === "Failure") {
        return yield* new ListingFailed({
          consent: consent.key,
          failure: new InvalidIban({ iban: consent.iban ?? "" })
        })
      }
      const id = idOf(consent)
      const leaseKey = JSON.stringify(["sweep listing", id, day])
      const holder = crypto.randomUUID()
      const busy = (what: string) =>
        new ListingFailed({
          consent: consent.key,
          failure: new ChecksError({ message: `listing of ${consent.key} on ${day}: ${what}` })
        })
      /** When the lease this listing holds expires (0: not taken yet). */
      let heldUntil = 0
      /**
       * Takes or renews the listing's lease; fails when another worker holds it. Renewed only once a second of it has
       * passed: a page is asked for with at least 14 s of the lease left, and the pages of a quick bank (50 ms each)
       * cost one statement for the listing instead of one each.
       */
      const hold = Effect.gen(function* () {
        const now = yield* Clock.currentTimeMillis
        if (heldUntil - now > leaseMillis - renewAfterMillis) return
        const lease = yield* store
          .tryAcquireLease(leaseKey, holder, now, now + leaseMillis)
          .pipe(Effect.mapError((e) => busy(e.message)))
        if (!lease.acquired) return yield* busy("another worker is reading it")
        heldUntil = now + leaseMillis
      })
      const release = Effect.ignore(store.releaseLease(leaseKey, holder))
      return yield* Effect.gen(function* () {
        yield* hold
        const pages = new Map(
          (yield* listings.pages(id, day).pipe(Effect.mapError(stored(consent)))).map((p) => [p.page, p])
        )
        const processId = crypto.randomUUID()
        const read: Array<Listings.Page> = []
        // the records the bank's decoder could not read: named for the pages asked for now, by their page for those
        // kept by an earlier try of the day (a kept page holds its orders and its count of records, not the errors)
        const unread: Array<UnreadRecord> = []
        // the records read whole that pay nothing (core's list decoder names them), those of kept pages read again
        const skipped: Array<UnreadRecord> = []
        // the warnings of the bank's list decoder (a tolerance, an amount out of its format), those of kept pages read
        // again (a kept page holds its orders as read: the amounts' warnings come back, a code's tolerance does not)
        const warned: Array<RecordWarning> = []
        for (let n = 0; ; n++) {
          let page = pages.get(n)
          if (page !== undefined) {
            unread.push(...keptUnread(page))
            skipped.push(...keptSkipped(page))
            warned.push(...keptWarnings(page))
          }
          if (page === undefined) {
            yield* hold
            // a page asked for is kept before the listing can be interrupted (its shard moved to a worker that
            // joined, the worker stopping): the request and its keeping are one step, bounded by the request's
            // deadline and the first tries of the keeping; only then may the listing stop, and no page is asked
            // for twice
            const [asked, kept] = yield* Effect.uninterruptible(
              Effect.gen(function* () {
                const reply = yield* deps
                  .guarded(
                    bank,
                    client.standingOrdersPage({
                      psu,
                      consentKey: consent.key,
                      page: n,
                      pageSize,
                      processId,
                      ...(iban === undefined ? {} : { iban: iban.success })
                    })
                  )
                  .pipe(Effect.mapError((failure) => new ListingFailed({ consent: consent.key, failure })))
                const asked: Listings.Page = {
                  page: n,
                  pageCount: reply.body.pageCount,
                  records: reply.body.orders.length + reply.body.errors.filter((e) => e.index >= 0).length,
                  orders: reply.body.orders
                }
                const kept = yield* Effect.exit(Effect.retry(listings.keep(id, day, asked), firstKeeping))
                unread.push(...unreadOf(n, reply.body.errors))
                skipped.push(...skippedOf(n, reply.body.skipped ?? []))
                warned.push(...pageWarnings(reply.body.warnings))
                return [asked, kept] as const
              })
            )
            page = asked
            // kept before the next page is asked for: a worker that stops now costs no page again
            if (Exit.isFailure(kept)) {
              yield* Effect.retry(listings.keep(id, day, page), databaseRetry).pipe(Effect.mapError(stored(consent)))
            }
          }
          read.push(page)
          const first = read[0]?.pageCount
          if (n > 0 && page.pageCount !== first) {
            return yield* new ListingFailed({
              consent: consent.key,
              failure: new ChecksError({
                message: `listing of ${consent.key}: page ${n} gives pageCount ${page.pageCount ?? "none"}, page 0 gave ${first ?? "none"}`
              })
            })
          }
          if (isLast(page, first, pageSize)) break
          if (n >= pageLimit - 1) {
            return yield* busy(`more than the limit of ${pageLimit} pages`)
          }
        }
        yield* Effect.retry(listings.complete(id, day), databaseRetry).pipe(Effect.mapError(stored(consent)))
        // the last complete listing before the day's, kept for the change feed (none: nothing to compare)
        const previous = yield* listings
          .latestComplete(id, day)
          .pipe(Effect.retry(databaseRetry), Effect.mapError(stored(consent)))
        return {
          orders: ordersOf(read),
          pages: read.length,
          unread,
          skipped,
          warned,
          ...(Option.isSome(previous)
            ? { previous: { day: previous.value.day, orders: ordersOf(previous.value.pages) } }
            : {})
        }
      }).pipe(Effect.ensuring(release))
    })
  const kept = (bank: Bank, consent: Consent, day: string) =>
    Effect.gen(function* () {
      const id = idOf(consent)
      const today = yield* listings.pages(id, day)
      const first = today.find((p) => p.page === 0)
      const count = first?.pageCount
      const keptPages = new Set(today.map((p) => p.page))
      // the pages not read today: every page up to the count when page 0 gives one; otherwise unknown
      const unread =
        count === undefined ? undefined : Array.from({ length: count }, (_, i) => i).filter((i) => !keptPages.has(i))
      const complete =
        unread?.length === 0 || (first !== undefined && count === undefined && today.some((p) => p.records < pageSize))
      const earlier = complete ? Option.none() : yield* listings.latestComplete(id, day)
      const standard = Context.get(bank, BankConfig.BankConfig).standard
      const own = standard === undefined || standard === "sbas"
      const read = readAs(ordersOf(today), standard, day)
      const before = Option.map(earlier, (e) => {
        const orders = standIns(today, e.pages)
        return { day: e.day, pages: e.pages, orders, read: readAs(orders, standard, e.day) }
      })
      // the records kept that could not be read or pay nothing are said as a whole listing says them (issue 34): a
      // kept page holds its count of records, not their errors, so its unread ones are named by their page; those of
      // the earlier listing's pages that stand in for the pages not read today the same
      const notReadToday = new Set(unread ?? [])
      const keptUnreadOf = [
        ...today.flatMap((p) => keptUnread(p)),
        ...Option.match(before, {
          onNone: () => [],
          onSome: (e) =>
            e.pages.filter((p) => notReadToday.has(p.page)).flatMap((p) => keptUnread(p, `the listing of ${e.day}, `))
        })
      ]
      const earlierWhere = (e: { readonly day: string }) => (r: UnreadRecord) => ({
        ...r,
        position: `the listing of ${e.day}, ${r.position}`
      })
      const earlierSkipped = Option.match(before, {
        onNone: () => [],
        onSome: (e) =>
          own ? skippedAmong(e.orders, () => `the listing of ${e.day}`) : e.read.skipped.map(earlierWhere(e))
      })
      return {
        orders: read.orders,
        pagesKept: today.map((p) => p.page),
        pagesUnread: complete ? [] : unread,
        earlier: Option.match(before, {
          onNone: () => undefined,
          onSome: (e) => ({ day: e.day, orders: e.read.orders })
        }),
        ...unreadSummary([
          ...keptUnreadOf,
          ...read.unread,
          ...Option.match(before, { onNone: () => [], onSome: (e) => e.read.unread.map(earlierWhere(e)) })
        ]),
        ...skippedSummary([...(own ? today.flatMap(keptSkipped) : read.skipped), ...earlierSkipped]),
        // the reading's warnings, grouped: the kept orders read again (their amounts' warnings) or core's in another
        // standard, today's and the earlier listing's
        ...warningsSummary([
          ...(own ? today.flatMap(keptWarnings) : read.warnings),
          ...Option.match(before, {
            onNone: () => [],
            onSome: (e) => (own ? ordersWarnings(e.orders) : e.read.warnings)
          })
        ])
      }
    }).pipe(Effect.mapError(stored(consent)))
  return { list, kept }
}
