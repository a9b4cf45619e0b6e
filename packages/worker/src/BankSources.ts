/**
 * The worker's two bank operations over http's `BankClient`: the balance check of one payment (the funds check's
 * activity), whose failure is the bank client's `BankError` itself (kept as data with the check), and the unattended
 * standing-order listing of one consent (the sweep's), whose `BankError` the sweep's `ListingFailed` keeps as data.
 *
 * @since 0.1.0
 */
import { ErrorBody, Iban, LocalDate, Orders, Profile, type Standard, StandingOrder } from "@tppkit/core"
import {
  BankClient,
  BankConfig,
  BankError,
  BankTransport,
  Budget,
  Details,
  type PsuContext,
  TokenService
} from "@tppkit/http"
import type { Projection } from "@tppkit/schedule"
import { Clock, Context, Deferred, Duration, Effect, Exit, Layer, Option, Redacted, Schedule } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import * as CheckFailure from "./CheckFailure.ts"
import { ChecksError } from "./Checks.ts"
import * as Consents from "./Consents.ts"
import { BalanceChecker } from "./FundsCheckWorkflow.ts"
import * as Listings from "./Listings.ts"
import { type Consent, ConsentSource, InvalidIban, ListingFailed, NoGrant, OrderSource } from "./Sweep.ts"

/**
 * Whether a failure is the bank's token endpoint refusing this client's credentials (`invalid_client`,
 * `unauthorized_client`, RFC 6749 section 5.2): no request of this client can succeed until they are fixed.
 */
export const refusesCredentials = (failure: unknown): failure is BankError.BankError => {
  if (!(failure instanceof BankError.BankError) || failure.operation !== "token") return false
  const reason = failure.reason
  if (reason._tag !== "Unauthorized" && reason._tag !== "BadRequest") return false
  const code = ErrorBody.code(reason.body)
  return code === "invalid_client" || code === "unauthorized_client"
}

/**
 * A worker's knowledge that the bank refused its credentials: the first refusal of a balance check's or a listing's
 * token request is kept, after which the worker's bank operations send nothing more and fail with that refusal at
 * once; `refused` completes with it (a command says so and stops).
 */
export class Credentials extends Context.Service<
  Credentials,
  {
    /** The refusal, once there is one. */
    readonly current: () => BankError.BankError | undefined
    /** Keeps the first refusal. */
    readonly refuse: (failure: BankError.BankError) => Effect.Effect<void>
    /** Completes with the first refusal. */
    readonly refused: Effect.Effect<BankError.BankError>
  }
>()("@tppkit/worker/BankSources/Credentials") {
  /** A fresh latch of this worker. */
  static readonly layer: Layer.Layer<Credentials> = Layer.effect(
    Credentials,
    Effect.map(Deferred.make<BankError.BankError>(), (latch) => {
      let current: BankError.BankError | undefined
      return Credentials.of({
        current: () => current,
        refuse: (failure) =>
          Effect.suspend(() => {
            if (current === undefined) current = failure
            return Effect.asVoid(Deferred.succeed(latch, current))
          }),
        refused: Deferred.await(latch)
      })
    })
  )
}

/** A bank operation guarded by the worker's `Credentials` (when it has them): nothing sent after a refusal. */
const guarded = <A>(
  credentials: Option.Option<Credentials["Service"]>,
  call: Effect.Effect<A, BankError.BankError>
): Effect.Effect<A, BankError.BankError> => {
  if (Option.isNone(credentials)) return call
  const latch = credentials.value
  return Effect.suspend(() => {
    const refused = latch.current()
    if (refused !== undefined) return Effect.fail(refused)
    return Effect.tapError(call, (e) => (refusesCredentials(e) ? latch.refuse(e) : Effect.void))
  })
}

/** A bank of the fleet: a profile's client stack (the client, its configuration and its daily budget). */
export type Bank = Context.Context<BankClient.BankClient | BankConfig.BankConfig | Budget.Budget>

/**
 * The banks of the fleet's other profiles, by profile name (`sbas`, `cobs`, a profile file's `name`): a consent naming
 * one of them is listed, and its payments checked, through that bank (issue 37: one fleet serves Slovak and Czech
 * accounts); the worker's own bank (the `BankClient` in its context) serves the consents naming its profile or none.
 */
export class Banks extends Context.Service<Banks, ReadonlyMap<string, Bank>>()("@tppkit/worker/BankSources/Banks") {}

/** The bank of a consent's profile: the worker's own for its own profile or none, else one of `Banks`, if any. */
const bankOf = (own: Bank, others: ReadonlyMap<string, Bank>, profile: string | undefined): Bank | undefined =>
  profile === undefined || profile === Context.get(own, BankConfig.BankConfig).profile.name ? own : others.get(profile)

/**
 * Each consent's profile as the fleet's consents say (read again at most once a minute, and when a consent is not
 * among them): what a balance check of the consent's payment is sent with.
 */
const profiles = (source: Option.Option<ConsentSource["Service"]>) => {
  let known = new Map<string, string | undefined>()
  let readAt = Number.NEGATIVE_INFINITY
  const read = Effect.gen(function* () {
    if (Option.isNone(source)) return
    const list = yield* Effect.orElseSucceed(source.value.current, () => undefined)
    if (list === undefined) return
    known = new Map(list.map((c) => [c.key, c.profile]))
    readAt = yield* Clock.currentTimeMillis
  })
  return (consent: string): Effect.Effect<string | undefined> =>
    Effect.gen(function* () {
      const now = yield* Clock.currentTimeMillis
      if (!known.has(consent) || now - readAt > 60_000) yield* read
      return known.get(consent)
    })
}

/**
 * The balance checker over the bank client: the payment's amount on its debtor IBAN, with the given Correlation-ID,
 * through the bank of its consent's profile (the worker's own, or one of {@link Banks}), behind that bank's breaker
 * (`bankOf`: its profile's name).
 */
export const balanceChecker = (
  psu: PsuContext.PsuContext
): Layer.Layer<BalanceChecker, never, BankClient.BankClient | BankConfig.BankConfig | Budget.Budget> =>
  Layer.effect(
    BalanceChecker,
    Effect.map(
      Effect.all([
        Effect.context<BankClient.BankClient | BankConfig.BankConfig | Budget.Budget>(),
        Effect.serviceOption(Credentials),
        Effect.serviceOption(Banks),
        Effect.serviceOption(ConsentSource)
      ]),
      ([own, credentials, banks, source]) => {
        const others = Option.getOrElse(banks, () => new Map<string, Bank>())
        const profileOf = profiles(others.size === 0 ? Option.none() : source)
        const ownName = Context.get(own, BankConfig.BankConfig).profile.name
        return BalanceChecker.of({
          // the breaker of the bank the check goes to: its profile's name (a bank not served keeps its own)
          bankOf: (due) =>
            others.size === 0
              ? Effect.succeed(ownName)
              : Effect.map(profileOf(due.consent), (profile) => {
                  const bank = bankOf(own, others, profile)
                  return bank === undefined ? (profile ?? "") : Context.get(bank, BankConfig.BankConfig).profile.name
                }),
          check: (due, correlationId) =>
            Effect.gen(function* () {
              const profile = others.size === 0 ? undefined : yield* profileOf(due.consent)
              const bank = bankOf(own, others, profile)
              if (bank === undefined) {
                return yield* new CheckFailure.NoBank({ consent: due.consent, profile: profile ?? "" })
              }
              const client = Context.get(bank, BankClient.BankClient)
              const reply = yield* guarded(
                credentials,
                client.balanceCheck(
                  {
                    instructionIdentification: `${due.orderId}/${LocalDate.format(due.nominalDate)}`.slice(0, 35),
                    iban: due.debtorIban,
                    amount: { value: due.amount, currency: due.currency }
                  },
                  { psu, correlationId }
                )
              )
              return {
                answer: reply.body.response,
                requestId: reply.identity.requestId,
                responseId: reply.identity.responseId,
                ...(reply.requests === undefined ? {} : { requests: reply.requests })
              }
            })
        })
      }
    )
  )

/**
 * A consent's listing through a bank whose profile is not the seed bank's (COBS): where the profile lists with the
 * customer's token, the customer's access token renewed with the refresh token the fleet keeps for the consent
 * (`Consents.refreshToken`, sealed at rest with `Consents.RefreshTokenKey`; a new one the bank sends is kept in its
 * place); then every page and, within the daily
 * budget, the details the list lacks (http's `Details.list` with `resume`: the pages and details an earlier try of
 * the day kept in the budget store are not asked for again);
 * each record read by core's `Orders` on the sweep's day (a record whose details are pending projected from its list
 * item where its interval allows, else left out as core says and named in `detailsPending`).
 */
export const detailedListing = (
  bank: Bank,
  psu: PsuContext.PsuContext,
  consent: Consent,
  day: string,
  sql: Option.Option<SqlClient.SqlClient>,
  pageSize?: number
): Effect.Effect<
  {
    readonly orders: ReadonlyArray<Projection.ProjectableOrder>
    readonly pages: number
    readonly detailsPending?: ReadonlyArray<string>
  },
  ListingFailed
> =>
  Effect.gen(function* () {
    const config = Context.get(bank, BankConfig.BankConfig)
    const profile = config.profile
    const failed = (failure: typeof ListingFailed.fields.failure.Type) =>
      new ListingFailed({ consent: consent.key, failure })
    const database = (e: SqlError | ChecksError) =>
      failed(
        e._tag === "ChecksError"
          ? e
          : new ChecksError({ message: `consents: cannot read or keep the refresh token: ${e.message}` })
      )
    let token: TokenService.Token | undefined
    if (profile.operations.standingOrders.auth.includes("customerToken")) {
      const refresh = Option.isNone(sql)
        ? undefined
        : yield* Consents.refreshToken(consent.key).pipe(
            Effect.provideService(SqlClient.SqlClient, sql.value),
            Effect.mapError(database)
          )
      if (refresh === undefined) return yield* failed(new NoGrant({ consent: consent.key, profile: profile.name }))
      const grant = yield* TokenService.refreshGrant(refresh).pipe(
        Effect.provideService(BankConfig.BankConfig, config),
        Effect.provide(
          BankTransport.BankTransport.layerUndici({ tls: config.tls, maxHeaderBytes: config.limits.maxHeaderBytes })
        ),
        Effect.mapError(failed)
      )
      if (Option.isSome(sql) && Redacted.value(grant.refreshToken) !== Redacted.value(refresh)) {
        yield* Consents.keepRefreshToken(consent.key, grant.refreshToken).pipe(
          Effect.provideService(SqlClient.SqlClient, sql.value),
          Effect.mapError(database)
        )
      }
      token = TokenService.fromSca(config.environment, grant.accessToken)
    }
    const iban = consent.iban === undefined ? undefined : Iban.parse(consent.iban)
    if (iban !== undefined && iban._tag === "Failure")
      return yield* failed(new InvalidIban({ iban: consent.iban ?? "" }))
    const listing = yield* Details.list({
      psu,
      consentKey: consent.key,
      resume: true,
      ...(pageSize === undefined ? {} : { pageSize }),
      ...(token === undefined ? {} : { token }),
      ...(iban === undefined ? {} : { iban: iban.success })
    }).pipe(Effect.provide(bank), Effect.mapError(failed))
    // core reads each record (its detail when read, else its list item) on the sweep's day
    const decoder = Orders.decoder({
      standard: BankConfig.recordStandard(config),
      listedOn: LocalDate.parseUnsafe(day)
    })
    const items = decoder.push(JSON.stringify(listing.orders.map((o) => o.detail ?? o.item)))
    decoder.end()
    const orders = items.filter((i): i is Orders.Order => i._tag === "Order")
    // an order whose details are pending that core cannot plan from its list item is reported, never dropped silently
    const pending = new Set(listing.pending)
    const detailsPending = items
      .filter((i) => i._tag !== "Order" && pending.has(i.orderId ?? ""))
      .map((i) => i.orderId ?? "")
    return { orders, pages: listing.pages, ...(detailsPending.length === 0 ? {} : { detailsPending }) }
  })

/**
 * The seed bank's records read again by core's `Orders` in `standard` on `day`: a bank whose settings name another
 * standard than its profile's (`BankConfig.Settings.standard`, the CLI's `--standard`) has its records read in it; the
 * orders as listed when none is named.
 */
const readAs = (
  orders: ReadonlyArray<StandingOrder.StandingOrder>,
  standard: Standard.Standard | undefined,
  day: string
): ReadonlyArray<Projection.ProjectableOrder> => {
  if (standard === undefined || standard === "sbas") return orders
  const decoder = Orders.decoder({ standard, listedOn: LocalDate.parseUnsafe(day) })
  const items = [...decoder.push(JSON.stringify(orders.map((o) => StandingOrder.encodeReceived(o))))]
  const end = decoder.end()
  if (end._tag === "Success") items.push(...end.success.items)
  return items.filter((i): i is Orders.Order => i._tag === "Order")
}

/** How the sweep lists: the page size (default 100, the fewest requests). */
export interface ListingOptions {
  readonly pageSize?: number | undefined
}

/** The most pages a listing may have (http's default hard page limit). */
const pageLimit = BankClient.DEFAULT_PAGE_LIMIT

/** How long a worker holds a consent's listing between two pages; a paused or dead worker frees it within this time. */
const leaseMillis = 15_000

/** How a kept page is written again while the database is away (a restart): 100 ms doubled up to 5 s, 5 minutes. */
const databaseRetry = Schedule.exponential("100 millis").pipe(
  Schedule.modifyDelay((m) => Effect.succeed(Duration.min(m.duration, Duration.seconds(5)))),
  Schedule.upTo({ duration: "5 minutes" })
)

/** How a page just read is kept before the listing may be interrupted: 100 ms doubled up to 5 s, for 20 s. */
const firstKeeping = Schedule.exponential("100 millis").pipe(
  Schedule.modifyDelay((m) => Effect.succeed(Duration.min(m.duration, Duration.seconds(5)))),
  Schedule.upTo({ duration: "20 seconds" })
)

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

/**
 * The order source over the bank client: the consent's standing orders, unattended, page by page, each page kept in
 * the fleet's database (`Listings`) the moment it is read, before the next is asked for. The sweep owns the listing,
 * so it resumes: a try asks the bank only for the pages not kept (by an earlier try, an earlier run of the day, or a
 * worker that was paused or died), each request paid from the daily budget when it is sent
 * (docs/bank-interface.md, "Daily limit"). One worker reads a consent's listing at a time (a lease in the budget
 * store, renewed before each page): a worker woken from a pause after another took the listing over asks nothing.
 * `kept` says what is kept when the listing could not be completed: today's pages, and the latest complete listing
 * of an earlier day for the pages not read today.
 *
 * A consent naming another profile than the seed bank's is listed through its bank ({@link Banks}) as that profile
 * says ({@link detailedListing}).
 */
export const orderSource = (
  psu: PsuContext.PsuContext,
  options: ListingOptions = {}
): Layer.Layer<OrderSource, never, BankClient.BankClient | BankConfig.BankConfig | Budget.Budget | Listings.Listings> =>
  Layer.effect(
    OrderSource,
    Effect.gen(function* () {
      const own = yield* Effect.context<BankClient.BankClient | BankConfig.BankConfig | Budget.Budget>()
      const others = Option.getOrElse(yield* Effect.serviceOption(Banks), () => new Map<string, Bank>())
      const credentials = yield* Effect.serviceOption(Credentials)
      const sql = yield* Effect.serviceOption(SqlClient.SqlClient)
      const tokenKey = yield* Consents.RefreshTokenKey
      const listings = yield* Listings.Listings
      const pageSize = options.pageSize ?? 100
      const idOf = (consent: Consent) => Listings.listingId(consent.key, consent.iban, pageSize)
      const stored = (consent: Consent) => (e: ChecksError) => new ListingFailed({ consent: consent.key, failure: e })
      const list = (consent: Consent, day: string) =>
        Effect.gen(function* () {
          const bank = bankOf(own, others, consent.profile)
          if (bank === undefined) {
            return yield* new ListingFailed({
              consent: consent.key,
              failure: new CheckFailure.NoBank({ consent: consent.key, profile: consent.profile ?? "" })
            })
          }
          if (!Profile.isSbas(Context.get(bank, BankConfig.BankConfig).profile)) {
            return yield* detailedListing(bank, psu, consent, day, sql, options.pageSize).pipe(
              Effect.provideService(Consents.RefreshTokenKey, tokenKey)
            )
          }
          const listed = yield* sbasListing(bank, bank === own ? credentials : Option.none(), consent, day)
          const standard = Context.get(bank, BankConfig.BankConfig).standard
          return {
            ...listed,
            orders: readAs(listed.orders, standard, day),
            ...(listed.previous === undefined
              ? {}
              : {
                  previous: {
                    ...listed.previous,
                    orders: readAs(listed.previous.orders, standard, listed.previous.day)
                  }
                })
          }
        })
      const sbasListing = (
        bank: Bank,
        credentials: Option.Option<Credentials["Service"]>,
        consent: Consent,
        day: string
      ) =>
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
          /** Takes or renews the listing's lease; fails when another worker holds it. */
          const hold = Effect.gen(function* () {
            const now = yield* Clock.currentTimeMillis
            const lease = yield* store
              .tryAcquireLease(leaseKey, holder, now, now + leaseMillis)
              .pipe(Effect.mapError((e) => busy(e.message)))
            if (!lease.acquired) return yield* busy("another worker is reading it")
          })
          const release = Effect.ignore(store.releaseLease(leaseKey, holder))
          return yield* Effect.gen(function* () {
            yield* hold
            const pages = new Map(
              (yield* listings.pages(id, day).pipe(Effect.mapError(stored(consent)))).map((p) => [p.page, p])
            )
            const processId = crypto.randomUUID()
            const read: Array<Listings.Page> = []
            for (let n = 0; ; n++) {
              let page = pages.get(n)
              if (page === undefined) {
                yield* hold
                // a page asked for is kept before the listing can be interrupted (its shard moved to a worker that
                // joined, the worker stopping): the request and its keeping are one step, bounded by the request's
                // deadline and the first tries of the keeping; only then may the listing stop, and no page is asked
                // for twice
                const [asked, kept] = yield* Effect.uninterruptible(
                  Effect.gen(function* () {
                    const reply = yield* guarded(
                      credentials,
                      client.standingOrdersPage({
                        psu,
                        consentKey: consent.key,
                        page: n,
                        pageSize,
                        processId,
                        ...(iban === undefined ? {} : { iban: iban.success })
                      })
                    ).pipe(Effect.mapError((failure) => new ListingFailed({ consent: consent.key, failure })))
                    const asked: Listings.Page = {
                      page: n,
                      pageCount: reply.body.pageCount,
                      records: reply.body.orders.length + reply.body.errors.filter((e) => e.index >= 0).length,
                      orders: reply.body.orders
                    }
                    const kept = yield* Effect.exit(Effect.retry(listings.keep(id, day, asked), firstKeeping))
                    return [asked, kept] as const
                  })
                )
                page = asked
                // kept before the next page is asked for: a worker that stops now costs no page again
                if (Exit.isFailure(kept)) {
                  yield* Effect.retry(listings.keep(id, day, page), databaseRetry).pipe(
                    Effect.mapError(stored(consent))
                  )
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
              ...(Option.isSome(previous)
                ? { previous: { day: previous.value.day, orders: ordersOf(previous.value.pages) } }
                : {})
            }
          }).pipe(Effect.ensuring(release))
        })
      const kept = (consent: Consent, day: string) =>
        Effect.gen(function* () {
          const id = idOf(consent)
          const today = yield* listings.pages(id, day)
          const first = today.find((p) => p.page === 0)
          const count = first?.pageCount
          const keptPages = new Set(today.map((p) => p.page))
          // the pages not read today: every page up to the count when page 0 gives one; otherwise unknown
          const unread =
            count === undefined
              ? undefined
              : Array.from({ length: count }, (_, i) => i).filter((i) => !keptPages.has(i))
          const complete =
            unread?.length === 0 ||
            (first !== undefined && count === undefined && today.some((p) => p.records < pageSize))
          const earlier = complete ? Option.none() : yield* listings.latestComplete(id, day)
          const standard = Context.get(bankOf(own, others, consent.profile) ?? own, BankConfig.BankConfig).standard
          return {
            orders: readAs(ordersOf(today), standard, day),
            pagesKept: today.map((p) => p.page),
            pagesUnread: complete ? [] : unread,
            earlier: Option.match(earlier, {
              onNone: () => undefined,
              onSome: (e) => ({ day: e.day, orders: readAs(standIns(today, e.pages), standard, e.day) })
            })
          }
        }).pipe(Effect.mapError(stored(consent)))
      return OrderSource.of({ list, kept })
    })
  )
