/**
 * A listing of every page of standing orders as a stream, one element per page under one Process-ID: the options
 * checked, the pages asked for one after the other under the paging rules of `listing.ts` and one overall deadline,
 * and, when the customer is not present, the budget paid (the rest of the listing at once, once page 0 gives
 * `pageCount`) and the listing shared through the budget store's leases and snapshots (`Listing.coalesce`).
 */
import { Clock, DateTime, type Deferred, Duration, Effect, Exit, Option, Stream, type Tracer } from "effect"
import { BankError, type Identity, InvalidRequest, ListingIncomplete, withAttempts } from "../BankError.ts"
import type { Budget } from "../Budget.ts"
import type * as BudgetStore from "../BudgetStore.ts"
import { neverSent } from "./call.ts"
import type { AllPagesOptions, ListOptions, Reply, StandingOrdersPage } from "./clientTypes.ts"
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
  /** The hard page limit, the overall deadline and the age of a listing reused when the options give none. */
  readonly defaults: {
    readonly pageLimit: number
    readonly deadline: Duration.Duration
    readonly maxAge: Duration.Duration
  }
}

/** The listing of every page of one client (listings in flight are shared by its callers in this process). */
export const make = (
  deps: Deps
): ((options: AllPagesOptions) => Stream.Stream<Reply<StandingOrdersPage>, BankError>) => {
  const { budget, requestLine, budgetKeyUnlessPresent, page, defaults } = deps
  /** Listings in flight in this client, by listing key: callers in this process share one run. */
  const inFlight = new Map<string, Deferred.Deferred<unknown, unknown>>()
  /**
   * The partial records this client wrote (`resume`), by key: the store's copy may be out of reach when an attempt
   * ends (its database restarting), and the next attempt in this process still has the pages; the newer of the two
   * records is used.
   */
  const partials = new Map<string, BudgetStore.Snapshot>()
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
        const maxAgeMillis = Duration.toMillis(Duration.fromInputUnsafe(options.maxAge ?? defaults.maxAge))
        const listingKey = JSON.stringify([unattended, options.iban ?? null, pageSize, options.maxPages ?? null])
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
        let state = Listing.initial()
        /** Every page of the listing so far: kept from an earlier attempt (`resume`), then read by this one. */
        const kept: Array<Reply<StandingOrdersPage>> = []
        /** Pages 0 to `asked` - 1 were asked for (answered, or in flight: they may have reached the bank). */
        let asked = 0
        /** Pages 0 to `paidThrough` - 1 are paid for (a listing reserves its pages at once once it knows the count). */
        let paidThrough = 0
        /** The budget day the pages were paid on (given back on that day). */
        let paidDay = ""
        /** The partial record of this listing (`resume`): where the pages are kept on the budget day. */
        let partialKey: string | undefined
        /** When the complete listing replayed from an earlier attempt's record was taken (`resume`; no request). */
        let keptAt: number | undefined
        /** Earlier attempts of this listing that sent a request (`resume`), and the pages asked before this one. */
        let earlierTries = 0
        let askedBefore = 0
        /** The attempts of this listing that sent a request, this one included once it has sent one. */
        const tries = () => earlierTries + (asked > askedBefore ? 1 : 0)
        const writePartial = (pages: ReadonlyArray<Reply<StandingOrdersPage>>, complete = false) =>
          partialKey === undefined
            ? Effect.void
            : Effect.flatMap(Clock.currentTimeMillis, (takenAt) => {
                const key = partialKey as string
                const record = {
                  payload: Listing.encodePartial(
                    pages.map((r) => ({ page: r.body, identity: r.identity, echoed: r.echoed })),
                    { asked, paid: Math.max(asked, paidThrough), tries: complete ? 0 : tries() }
                  ),
                  takenAt
                }
                partials.set(key, record)
                // a record that cannot be written costs an attempt in another process these pages, not this one its
                // listing
                return Effect.ignore(budget.store.writeSnapshot(key, record))
              })
        /**
         * At the end of an attempt: pages paid for and never asked for are given back (after the record says so, so
         * that a crash in between counts them twice rather than never), and the record keeps the pages read for the
         * next attempt; a complete listing is kept whole, so that its owner's next attempt on the budget day (a
         * sweep tried again after its database was away for longer than `maxAge`) asks for nothing.
         */
        const settle = (complete: boolean) =>
          Effect.suspend(() => {
            const unsent = Math.max(0, paidThrough - asked)
            paidThrough = Math.min(paidThrough, asked)
            const refund =
              unattended === undefined || unsent <= 0 ? Effect.void : budget.refund(unattended, unsent, paidDay)
            // a complete listing replayed from its record is kept as it was (when it was taken)
            return Effect.andThen(keptAt === undefined ? writePartial(kept, complete) : Effect.void, refund)
          })
        /**
         * Pays for pages `from` to `total` - 1 at once (those an earlier attempt paid for and never asked for are
         * not paid again), before the first of them is asked for.
         */
        const reserve = (from: number, total: number, inherited: number) =>
          Effect.gen(function* () {
            if (unattended === undefined || total <= from) return
            const paid = yield* Effect.mapError(
              budget.spend(unattended, Math.max(0, total - from - inherited), total),
              refuse
            )
            paidThrough = total
            paidDay = paid.day
          })
        const pages = (first: number) =>
          Stream.paginate(first, (n: number) =>
            Effect.gen(function* () {
              // a page counts as sent from the moment it is asked for (cut off while in flight, it may have reached
              // the bank), unless it fails without reaching the bank; the record says so before it is sent
              asked = n + 1
              yield* writePartial(kept)
              const reply = yield* page(
                options,
                n,
                pageSize,
                correlationId,
                processId,
                unattended,
                undefined,
                n < paidThrough
              ).pipe(
                Effect.tapError((e) =>
                  Effect.sync(() => {
                    if (neverSent(e)) asked = n
                  })
                )
              )
              const { page: checked, step } = Listing.afterPage(state, reply.body, bounds)
              const one: Reply<StandingOrdersPage> = checked === reply.body ? reply : { ...reply, body: checked }
              read.push(checked)
              if (unattended !== undefined) kept.push(one)
              if (step._tag === "refuse") {
                return yield* refuse(new ListingIncomplete({ kind: step.kind, detail: step.detail, pages: [...read] }))
              }
              const known = checked.pageCount
              if (step._tag === "more" && n === 0 && known !== undefined) {
                // the rest of the listing is paid for at once, before page 1 is asked for
                yield* reserve(1, Math.min(known, bounds.maxPages), 0)
              }
              return [[one], step._tag === "more" ? Option.some(n + 1) : Option.none()] as const
            })
          )
        if (unattended === undefined)
          return Stream.interruptWhen(pages(0), Effect.andThen(Effect.sleep(deadline), overdue))
        /** Pages kept by an earlier attempt through the paging rules: undefined when they do not make a listing. */
        const replay = (stored: ReadonlyArray<Listing.SnapshotPage<Identity>>) => {
          const replayState = Listing.initial()
          const replies: Array<Reply<StandingOrdersPage>> = []
          for (const [i, p] of stored.entries()) {
            if (p.page.page !== i) return undefined
            const { page: checked, step } = Listing.afterPage(replayState, p.page, bounds)
            if (step._tag === "refuse") return undefined
            replies.push({ body: checked, identity: p.identity, echoed: p.echoed })
            if (step._tag === "done") return { state: replayState, replies, done: true }
          }
          return { state: replayState, replies, done: false }
        }
        /**
         * The listing under the lease: the pages an earlier attempt kept (`resume`) replayed through the paging
         * rules, then the pages it lacks, paid for at once when the count is known.
         */
        const listing = Effect.gen(function* () {
          let from = 0
          if (options.resume === true) {
            const { day } = yield* Effect.mapError(budget.usage(unattended), refuse)
            partialKey = JSON.stringify(["partial", listingKey, day])
            paidDay = day
            const stored = yield* Effect.mapError(budget.store.readSnapshot(partialKey), refuse)
            const local = partials.get(partialKey)
            const newest =
              local !== undefined && (Option.isNone(stored) || local.takenAt > stored.value.takenAt)
                ? local
                : Option.getOrUndefined(stored)
            const partial = newest === undefined ? undefined : Listing.decodePartial<Identity>(newest.payload)
            earlierTries = partial?.tries ?? 0
            if (partial !== undefined && partial.pages.length > 0) {
              const replayed = replay(partial.pages)
              if (replayed !== undefined) {
                state = replayed.state
                for (const r of replayed.replies) {
                  kept.push(r)
                  read.push(r.body)
                }
                if (replayed.done && newest !== undefined) {
                  keptAt = newest.takenAt
                  const at = DateTime.formatIso(DateTime.makeUnsafe(keptAt))
                  return kept.map((r) => ({ ...r, snapshotTakenAt: at }))
                }
                from = kept.length
                asked = from
                askedBefore = from
                const total = state.firstCount === undefined ? undefined : Math.min(state.firstCount, bounds.maxPages)
                if (total !== undefined) {
                  // pages the earlier attempt paid for and never asked for are this attempt's; pages it asked for
                  // and did not keep count as sent and are paid again
                  const inherited = Math.max(0, Math.min(partial.paid, total) - Math.max(partial.asked, from))
                  yield* reserve(from, total, inherited)
                }
              }
            }
          }
          // say before the first request when the pages asked for cannot fit the remaining budget
          if (from === 0) yield* ensure(Number.isFinite(bounds.maxPages) ? bounds.maxPages : 1)
          else if (paidThrough <= from) yield* ensure(1)
          yield* Stream.runDrain(pages(from))
          return kept
        }).pipe(
          Effect.onExit((exit) => settle(Exit.isSuccess(exit))),
          // a resumed listing's failure counts the attempts of the listing that reached the bank, this one included
          Effect.mapError((e) =>
            partialKey !== undefined && e.operation === "standingOrders" && tries() > 1 ? withAttempts(e, tries()) : e
          )
        )
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
          run: listing,
          takenAt: () => keptAt
        })
        const timed = Effect.timeoutOrElse(all, { duration: deadline, orElse: () => overdue })
        return Stream.fromIterableEffect(timed)
      })
    )
}
