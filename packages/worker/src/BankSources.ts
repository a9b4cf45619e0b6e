/**
 * The worker's two bank operations over http's `BankClient`: the balance check of one payment (the funds check's
 * activity), whose failure is the bank client's `BankError` itself (kept as data with the check), and the unattended
 * standing-order listing of one consent (the sweep's), whose `BankError` the sweep's `ListingFailed` keeps as data.
 *
 * @since 0.1.0
 */
import { createHash } from "node:crypto"
import { ErrorBody, LocalDate, Profile } from "@tppkit/core"
import { BankClient, BankConfig, BankError, type Budget, type PsuContext } from "@tppkit/http"
import { Clock, Context, Deferred, Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import * as CheckFailure from "./CheckFailure.ts"
import * as Consents from "./Consents.ts"
import { BalanceChecker } from "./FundsCheckWorkflow.ts"
import type { Bank } from "./internal/bankStack.ts"
import * as DetailedListing from "./internal/detailedListing.ts"
import * as SbasListing from "./internal/sbasListing.ts"
import { skippedSummary, unreadSummary, warningsSummary } from "./internal/sweepJournal.ts"
import * as Listings from "./Listings.ts"
import { type Consent, ConsentSource, ListingFailed, OrderSource } from "./Sweep.ts"

export type { Bank } from "./internal/bankStack.ts"

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

/** COBS's `exchangeIdentification`: at most 18 SWIFT characters, no `/` first or last, no `//` (rule book v2.0 §3.3.1). */
const cobsId = /^(?!\/)(?!.*\/\/)[a-zA-Z0-9/\-?:().,'+ ]{1,18}(?<!\/)$/

/**
 * The id of a payment's balance check: `ORDER/DATE` (the seed bank's takes 35 characters); under a profile whose id
 * holds fewer (COBS: 18 SWIFT characters) the same text when it fits, else 18 hex digits of its SHA-256, the same
 * for every try of the payment's check (an order id of the bank's own 35 characters made the client refuse the check).
 * It is the payment's key; under COBS the client sends it on a call's first request only and asks again under a fresh
 * `exchangeIdentification` (http's README, "Bank profiles": COBS refuses an id it has seen with `RF01`).
 */
export const checkId = (profile: Profile.Profile, text: string): string => {
  if (Profile.isSbas(profile)) return text.slice(0, 35)
  return cobsId.test(text) ? text : createHash("sha256").update(text).digest("hex").slice(0, 18)
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
                    instructionIdentification: checkId(
                      Context.get(bank, BankConfig.BankConfig).profile,
                      `${due.orderId}/${LocalDate.format(due.nominalDate)}`
                    ),
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
 * place); then every page and, within the daily budget, the details the list lacks (http's `Details.list` with
 * `resume`: the pages and details an earlier try of the day kept in the budget store are not asked for again); each
 * record read by core's `Orders` on the sweep's day (a record whose details are pending projected from its list item
 * where its interval allows, else left out as core says and named in `detailsPending`). Its engine is
 * `internal/detailedListing.ts`.
 */
export const detailedListing: typeof DetailedListing.detailedListing = DetailedListing.detailedListing

/** How the sweep lists: the page size (default 100, the fewest requests). */
export interface ListingOptions {
  readonly pageSize?: number | undefined
}

/**
 * The orders an earlier complete listing stands in with for the pages not read today: each of its orders that no
 * page kept today has, matched by orderId, never by page (an order moves to another page when orders before it come
 * or go). An order of the earlier listing that was removed since and would have been on a page read today is
 * planned too (marked with the earlier day): an extra balance check costs less than a payment left unchecked.
 */
export const standIns: typeof SbasListing.standIns = SbasListing.standIns

/**
 * The order source over the bank client: the consent's standing orders, unattended, page by page, each page kept in
 * the fleet's database (`Listings`) the moment it is read, before the next is asked for. The sweep owns the listing,
 * so it resumes: a try asks the bank only for the pages not kept (by an earlier try, an earlier run of the day, or a
 * worker that was paused or died), each request paid from the daily budget when it is sent
 * (docs/bank-interface.md, "Daily limit"). One worker reads a consent's listing at a time (a lease in the budget
 * store, renewed before a page once a second of it has passed): a worker woken from a pause after another took the
 * listing over asks nothing.
 * `kept` says what is kept when the listing could not be completed: today's pages, and the latest complete listing
 * of an earlier day for the pages not read today (for a consent of a profile whose list lacks details, COBS, the
 * pages its attempts kept in the budget store and its complete listings kept there too, `internal/detailedListing.ts`).
 *
 * A consent naming another profile than the seed bank's is listed through its bank ({@link Banks}) as that profile
 * says ({@link detailedListing}). The page-by-page engine is `internal/sbasListing.ts`.
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
      const sbas = SbasListing.make({
        psu,
        listings: yield* Listings.Listings,
        pageSize: options.pageSize ?? 100,
        guarded: (bank, call) => guarded(bank === own ? credentials : Option.none(), call)
      })
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
          const { unread: pageUnread, skipped: pageSkipped, warned, ...listed } = yield* sbas.list(bank, consent, day)
          const standard = Context.get(bank, BankConfig.BankConfig).standard
          const read = SbasListing.readAs(listed.orders, standard, day)
          // every record that could not be read is said (the sweep's summary, record and log, exit 7 of --once)
          const unread = [...pageUnread, ...read.unread]
          // every record read that pays nothing is said (the summary, record and log; the exit is unchanged): the bank's
          // list decoder names them in its own standard, core's reading in another (they are among its records)
          const skipped = standard === undefined || standard === "sbas" ? pageSkipped : read.skipped
          return {
            ...listed,
            orders: read.orders,
            ...unreadSummary(unread),
            ...skippedSummary(skipped),
            // the warnings of the reading (the bank's decoder in its own standard, core's in another), grouped
            ...warningsSummary(standard === undefined || standard === "sbas" ? warned : read.warnings),
            ...(listed.previous === undefined
              ? {}
              : {
                  previous: {
                    ...listed.previous,
                    orders: SbasListing.readAs(listed.previous.orders, standard, listed.previous.day).orders
                  }
                })
          }
        })
      const kept = (consent: Consent, day: string) => {
        const bank = bankOf(own, others, consent.profile) ?? own
        // a bank whose list lacks details (COBS) keeps its pages and complete listings in the budget store
        return Profile.isSbas(Context.get(bank, BankConfig.BankConfig).profile)
          ? sbas.kept(bank, consent, day)
          : DetailedListing.detailedKept(bank, consent, day, options.pageSize)
      }
      return OrderSource.of({ list, kept })
    })
  )
