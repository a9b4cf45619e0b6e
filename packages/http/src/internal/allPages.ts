/**
 * A listing of every page of standing orders as a stream, one element per page under one Process-ID: the options
 * checked, the pages asked for one after the other under the paging rules of `listing.ts` and one overall deadline,
 * and, when the customer is not present, the budget paid (the rest of the listing at once, once page 0 gives
 * `pageCount`) and the listing shared through the budget store's leases and snapshots (`Listing.coalesce`).
 */
import { DateTime, type Deferred, Duration, Effect, Option, Stream, type Tracer } from "effect"
import type { AllPagesOptions, ListOptions, Reply, StandingOrdersPage } from "../BankClient.ts"
import { BankError, type Identity, InvalidRequest, ListingIncomplete } from "../BankError.ts"
import type { Budget } from "../Budget.ts"
import { neverSent } from "./call.ts"
import * as Listing from "./listing.ts"

/** How long a listing's lease lasts between renewals: a runner that dies frees its listing within this time. */
const leaseMillis = 10_000

/**
 * One page's call: the page (undefined: the bank's default) and page size under the listing's Correlation-ID and
 * Process-ID, spending the budget key `unattended` when the customer is not present (`prepaid`: paid for already).
 */
export type PageCall = (
  options: ListOptions,
  page: number | undefined,
  pageSize: number | undefined,
  correlationId: string,
  processId: string,
  unattended: string | undefined,
  span?: Tracer.AnySpan | undefined,
  prepaid?: boolean
) => Effect.Effect<Reply<StandingOrdersPage>, BankError>

/** What a listing of every page is made of: one page's request, the budget, and the defaults of its options. */
export interface Deps {
  /** The budget unattended listings spend, and its store (leases and snapshots). */
  readonly budget: Budget["Service"]
  /** "POST /path" of the standing-order list, as messages name it. */
  readonly requestLine: string
  /** The budget key when the customer is not present, or undefined when they are. */
  readonly budgetKeyUnlessPresent: (options: ListOptions) => Effect.Effect<string | undefined>
  /** One page's request. */
  readonly page: PageCall
  /** The hard page limit and the overall deadline when the options give none. */
  readonly defaults: { readonly pageLimit: number; readonly deadline: Duration.Duration }
}

/** The listing of every page of one client (listings in flight are shared by its callers in this process). */
export const make = (
  deps: Deps
): ((options: AllPagesOptions) => Stream.Stream<Reply<StandingOrdersPage>, BankError>) => {
  const { budget, requestLine, budgetKeyUnlessPresent, page, defaults } = deps
  /** Listings in flight in this client, by listing key: callers in this process share one run. */
  const inFlight = new Map<string, Deferred.Deferred<unknown, unknown>>()
  return (options) =>
    Stream.unwrap(
      Effect.gen(function* () {
        const correlationId = options.correlationId ?? crypto.randomUUID()
        const processId = options.processId ?? crypto.randomUUID()
        const identity = { correlationId, processId }
        const refuse = (reason: BankError["reason"]) =>
          new BankError({ operation: "standingOrders", identity, reason, request: requestLine })
        const pageSize = options.pageSize ?? 100
        const invalid = Listing.validatePaging(0, pageSize)
        if (invalid !== undefined) return yield* refuse(invalid)
        const positive = (value: number | undefined, path: string) =>
          value !== undefined && (!Number.isInteger(value) || value < 1)
            ? new InvalidRequest({ path, detail: "must be a positive integer" })
            : undefined
        const wrong = positive(options.maxPages, "maxPages") ?? positive(options.pageLimit, "pageLimit")
        if (wrong !== undefined) return yield* refuse(wrong)
        const bounds: Listing.Bounds = {
          pageSize,
          maxPages: options.maxPages ?? Number.POSITIVE_INFINITY,
          pageLimit: options.pageLimit ?? defaults.pageLimit
        }
        const deadline = Duration.fromInputUnsafe(options.deadline ?? defaults.deadline)
        const unattended = yield* budgetKeyUnlessPresent(options)
        /** Every page read so far, for the error that ends a listing early. */
        const read: Array<StandingOrdersPage> = []
        const overdue = Effect.suspend(() =>
          Effect.fail(
            refuse(
              new ListingIncomplete({
                kind: "deadline",
                detail: `no complete listing within ${Duration.format(deadline)}`,
                pages: [...read]
              })
            )
          )
        )
        const ensure = (n: number) =>
          unattended === undefined || n <= 0 ? Effect.void : Effect.mapError(budget.ensure(unattended, n), refuse)
        const state = Listing.initial()
        let prepaid = false
        /** Pages paid for at once and not sent yet, and the day they were counted on (given back at the end). */
        let unsent = 0
        let paidDay = ""
        const refundUnsent = Effect.suspend(() => {
          const n = unsent
          unsent = 0
          return unattended === undefined || n <= 0 ? Effect.void : budget.refund(unattended, n, paidDay)
        })
        const pages = Stream.paginate(0, (n: number) =>
          Effect.gen(function* () {
            // a prepaid page counts as sent from the moment it is asked for (cut off while in flight, it may have
            // reached the bank), unless it fails without reaching the bank
            if (prepaid) unsent--
            const reply = yield* page(
              options,
              n,
              pageSize,
              correlationId,
              processId,
              unattended,
              undefined,
              prepaid
            ).pipe(
              Effect.tapError((e) =>
                Effect.sync(() => {
                  if (prepaid && neverSent(e)) unsent++
                })
              )
            )
            const { page: checked, step } = Listing.afterPage(state, reply.body, bounds)
            const kept: Reply<StandingOrdersPage> = checked === reply.body ? reply : { ...reply, body: checked }
            read.push(checked)
            if (step._tag === "refuse") {
              return yield* refuse(new ListingIncomplete({ kind: step.kind, detail: step.detail, pages: [...read] }))
            }
            const known = checked.pageCount
            if (step._tag === "more" && n === 0 && unattended !== undefined && known !== undefined) {
              // the rest of the listing is paid for at once, before page 1 is asked for
              const total = Math.min(known, bounds.maxPages)
              const paid = yield* Effect.mapError(budget.spend(unattended, total - 1, total), refuse)
              prepaid = true
              unsent = total - 1
              paidDay = paid.day
            }
            return [[kept], step._tag === "more" ? Option.some(n + 1) : Option.none()] as const
          })
        )
        if (unattended === undefined)
          return Stream.interruptWhen(pages, Effect.andThen(Effect.sleep(deadline), overdue))
        const maxAgeMillis =
          options.maxAge === undefined ? 0 : Duration.toMillis(Duration.fromInputUnsafe(options.maxAge))
        const listingKey = JSON.stringify([unattended, options.iban ?? null, pageSize, options.maxPages ?? null])
        const all = Listing.coalesce(budget.store, inFlight, {
          key: listingKey,
          maxAgeMillis,
          leaseMillis: leaseMillis,
          pollMillis: 100,
          encode: (replies: ReadonlyArray<Reply<StandingOrdersPage>>) =>
            Listing.encodeSnapshot(replies.map((r) => ({ page: r.body, identity: r.identity, echoed: r.echoed }))),
          decode: (payload, takenAt) => {
            const stored = Listing.decodeSnapshot<Identity>(payload)
            const at = DateTime.formatIso(DateTime.makeUnsafe(takenAt))
            return stored?.map((p) => ({ body: p.page, identity: p.identity, echoed: p.echoed, snapshotTakenAt: at }))
          },
          storeError: refuse,
          // say before the first request when the pages asked for cannot fit the remaining budget
          // pages paid for and never sent (the listing failed or stopped before them) are given back
          run: Effect.andThen(
            ensure(Number.isFinite(bounds.maxPages) ? bounds.maxPages : 1),
            Effect.ensuring(Stream.runCollect(pages), refundUnsent)
          )
        })
        const timed = Effect.timeoutOrElse(all, { duration: deadline, orElse: () => overdue })
        return Stream.fromIterableEffect(timed)
      })
    )
}
