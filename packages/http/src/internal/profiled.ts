/**
 * The list and the detail of a profile other than the seed bank's (packages/http/README.md, "Bank profiles"): the
 * page and size in the query (pages from the profile's first page), the envelope read with `cobsWire.ts`, every
 * page of a listing asked for one after the other, stopping at `pageNumber + 1 >= pageCount` (never on `nextPage`
 * alone: COBS's example sends `nextPage: 0` on the last page), at an empty page, or, past the first page, at the
 * bank's "no such page" (404, or 400 `PAGE_NOT_FOUND`). An unattended listing is paid for request by request and
 * refused before page 1 when the rest cannot fit; with `resume`, the pages an earlier attempt of the budget day kept in
 * the budget store are not asked for again (a complete listing kept is returned without a request); the detail of one order (`{transactionIdentification}` in its
 * path) spends the budget too where the profile counts it, and is never retried when unattended.
 */
import { LocalDate, SourceRecord } from "@tppkit/core"
import { Clock, DateTime, type Deferred, Duration, Effect, Option, Result, Stream, type Tracer } from "effect"
import { recordStandard, type Settings } from "../BankConfig.ts"
import {
  type BankError,
  type BudgetExhausted,
  type BudgetStoreError,
  type Identity,
  InvalidRequest,
  ListingIncomplete
} from "../BankError.ts"
import { type Budget, dayOf } from "../Budget.ts"
import type * as Call from "./call.ts"
import type { AllPagesOptions, ListOptions, PageOptions, Reply, StandingOrdersPage } from "./clientTypes.ts"
import * as CobsWire from "./cobsWire.ts"
import * as Listing from "./listing.ts"
import * as Wire from "./wire.ts"

/** What the profiled operations are made of. */
export interface Deps {
  readonly config: Settings
  readonly pipeline: Call.Pipeline
  readonly budget: Budget["Service"]
  readonly budgetKeyUnlessPresent: (options: ListOptions) => Effect.Effect<string | undefined>
  readonly pageLimit: number
  /** How old a complete unattended listing may be and still be given again when the options say nothing. */
  readonly maxAge: Duration.Input
}

/** The detail of one order, as the bank sent it, and core's reading of it. */
export interface Detail {
  readonly id: string
  readonly json: unknown
  readonly read: SourceRecord.Read | undefined
}

/** A page of a listing kept for the next attempt of the same budget day (`resume`): its envelope and records. */
export interface KeptPage {
  readonly page: number
  readonly pageNumber: number | undefined
  readonly pageCount: number | undefined
  readonly nextPage: number | undefined | null
  /** The page's records as the bank sent them (the account's own when the listing is filtered). */
  readonly records: ReadonlyArray<CobsWire.RawRecord>
  readonly identity: Identity
  readonly echoed: { readonly correlationId?: string; readonly processId?: string }
}

/** What a listing keeps in the budget store between its attempts of one budget day. */
export interface Kept {
  readonly version: 1
  readonly pages: ReadonlyArray<KeptPage>
}

/**
 * The budget store's key of the pages a listing keeps between its attempts of one budget day (`resume`): the
 * profile, the consent's budget key, the IBAN filter, the page size and the budget day.
 */
export const partialListingKey = (
  profile: string,
  unattended: string,
  iban: string | undefined,
  size: number,
  day: string
): string => JSON.stringify(["partial", profile, unattended, iban ?? null, size, day])

/** A kept listing's payload, or undefined when it is not one (then it is ignored and the listing starts at page 0). */
export const decodeKept = (payload: string): Kept | undefined => {
  try {
    const parsed = JSON.parse(payload) as Kept
    if (parsed?.version !== 1 || !Array.isArray(parsed.pages)) return undefined
    const whole = (n: unknown) => n === undefined || n === null || (typeof n === "number" && Number.isInteger(n))
    const good = parsed.pages.every(
      (p) =>
        typeof p === "object" &&
        p !== null &&
        typeof p.page === "number" &&
        whole(p.pageCount) &&
        whole(p.pageNumber) &&
        whole(p.nextPage) &&
        Array.isArray(p.records) &&
        typeof p.identity === "object" &&
        p.identity !== null
    )
    return good
      ? {
          version: 1,
          pages: parsed.pages.map((p) => ({
            ...p,
            pageCount: p.pageCount ?? undefined,
            pageNumber: p.pageNumber ?? undefined,
            echoed: p.echoed ?? {}
          }))
        }
      : undefined
  } catch {
    return undefined
  }
}

/** The profiled operations. */
export const make = (deps: Deps) => {
  const { config, pipeline, budget, budgetKeyUnlessPresent } = deps
  const { fail, call, urls } = pipeline
  const profile = config.profile
  const paging = profile.paging
  const counts = new Set<string>(profile.unattended.counts)
  const standard = recordStandard(config)
  /** The listing day in the profile's time zone: a COBS list item counts from it. */
  const listingDay = Effect.map(DateTime.now, (now) =>
    LocalDate.parseUnsafe(dayOf(now, profile.unattended.timeZone).day)
  )
  /** core's reading of a record of the profile's standard. */
  const readRecord = (json: unknown, listedOn: LocalDate.LocalDate) =>
    SourceRecord.isSource(standard) ? SourceRecord.read(json, { standard, listedOn }) : undefined

  /** A kept page as the reply it was, its records read again by core as listed on `listedOn`. */
  const keptReply = (k: KeptPage, listedOn: LocalDate.LocalDate): Reply<StandingOrdersPage> => ({
    body: {
      page: k.page,
      pageCount: k.pageCount,
      orders: [],
      errors: [],
      warnings: [],
      records: k.records.map((r) => ({ id: r.id, json: r.json, read: readRecord(r.json, listedOn) }))
    },
    identity: k.identity,
    echoed: k.echoed
  })

  const checkSize = (size: number | undefined): InvalidRequest | undefined =>
    size !== undefined && (!Number.isInteger(size) || size < 1 || size > paging.maxSize || size % paging.sizeStep !== 0)
      ? new InvalidRequest({
          path: "pageSize",
          detail: `must be a multiple of ${paging.sizeStep} from ${paging.sizeStep} to ${paging.maxSize} (the ${profile.name} profile)`
        })
      : undefined

  const ownIban = (record: unknown): string | undefined => {
    const account = (record as { debtorAccount?: { identification?: { iban?: unknown } } } | null)?.debtorAccount
    const iban = account?.identification?.iban
    return typeof iban === "string" ? iban : undefined
  }

  /** One page of the list: the page's number counted from 0 (sent as the profile counts), the size always sent. */
  const pageCall = (
    options: ListOptions,
    page: number,
    size: number,
    correlationId: string,
    processId: string,
    unattended: string | undefined,
    span: Tracer.AnySpan | undefined
  ): Effect.Effect<Reply<StandingOrdersPage & { readonly raw: CobsWire.RawPage }>, BankError> =>
    Effect.flatMap(listingDay, (listedOn) =>
      call({
        operation: "standingOrders",
        method: profile.operations.standingOrders.method,
        url: `${urls.standingOrders}${CobsWire.listQuery(paging, page + paging.firstPage, size)}`,
        body: "",
        options,
        correlationId,
        processId,
        unattended: counts.has("standingOrders") ? unattended : undefined,
        decode: (json) =>
          Result.map(CobsWire.decodePage(json, paging), (raw) => {
            // the list has no filter: an account's own orders are picked here (the rest are another account's)
            const own =
              options.iban === undefined ? raw.records : raw.records.filter((r) => ownIban(r.json) === options.iban)
            const records = own.map((r) => ({ id: r.id, json: r.json, read: readRecord(r.json, listedOn) }))
            return {
              page,
              pageCount: raw.pageCount,
              orders: [],
              errors: [],
              warnings: [],
              records,
              raw
            }
          }),
        span
      })
    )

  const standingOrdersPage = (
    options: PageOptions,
    span: Tracer.AnySpan | undefined
  ): Effect.Effect<Reply<StandingOrdersPage>, BankError> =>
    Effect.gen(function* () {
      const correlationId = options.correlationId ?? crypto.randomUUID()
      const invalid =
        checkSize(options.pageSize) ??
        (options.page !== undefined && (!Number.isInteger(options.page) || options.page < 0)
          ? new InvalidRequest({ path: "page", detail: "must be a non-negative integer" })
          : undefined)
      if (invalid !== undefined) return yield* fail("standingOrders", { correlationId }, invalid)
      const unattended = yield* budgetKeyUnlessPresent(options)
      return yield* pageCall(
        options,
        options.page ?? 0,
        options.pageSize ?? paging.maxSize,
        correlationId,
        options.processId ?? crypto.randomUUID(),
        unattended,
        span
      )
    })

  /** Whether a failure past the first page is the bank's "no such page": the end of the list. */
  const noSuchPage = (error: BankError): boolean => {
    const reason = error.reason
    if (reason._tag === "NotFound") return true
    if (reason._tag !== "BadRequest" || reason.body._tag !== "Errors") return false
    return reason.body.body.errors.some((e) => e.error === "PAGE_NOT_FOUND")
  }

  /**
   * What follows a page of a listing: the next page, the end, or a refusal (more pages than the limit). The end is
   * `pageNumber + 1 >= pageCount`, an empty page, or, without a count, no `nextPage`.
   */
  const stepAfter = (
    n: number,
    raw: Pick<CobsWire.RawPage, "pageNumber" | "pageCount" | "nextPage"> & { readonly records: number },
    maxPages: number,
    pageLimit: number
  ): { readonly _tag: "more" | "done" } | { readonly _tag: "refuse"; readonly detail: string } => {
    const count = raw.pageCount
    if (n === 0 && count !== undefined && count > pageLimit)
      return { _tag: "refuse", detail: `the bank announces ${count} pages, more than the limit of ${pageLimit}` }
    const number = raw.pageNumber ?? n
    if (raw.records === 0) return { _tag: "done" }
    if (count !== undefined && number + 1 >= count) return { _tag: "done" }
    if (count === undefined && (raw.nextPage === undefined || raw.nextPage === null)) return { _tag: "done" }
    if (n + 1 >= maxPages) return { _tag: "done" }
    if (n + 1 >= pageLimit) return { _tag: "refuse", detail: `more than the limit of ${pageLimit} pages` }
    return { _tag: "more" }
  }

  /** Every page of a listing (the pages kept today first, when resumed), as one run. */
  const listAll = (options: AllPagesOptions): Effect.Effect<ReadonlyArray<Reply<StandingOrdersPage>>, BankError> =>
    Effect.gen(function* () {
      const correlationId = options.correlationId ?? crypto.randomUUID()
      const processId = options.processId ?? crypto.randomUUID()
      const size = options.pageSize ?? paging.maxSize
      const invalid = checkSize(size)
      if (invalid !== undefined) return yield* fail("standingOrders", { correlationId, processId }, invalid)
      const unattended = yield* budgetKeyUnlessPresent(options)
      const charged = unattended !== undefined && counts.has("standingOrders")
      const maxPages = options.maxPages ?? Number.POSITIVE_INFINITY
      const pageLimit = options.pageLimit ?? deps.pageLimit
      const pages: Array<Reply<StandingOrdersPage>> = []
      /** The envelope of each page in `pages` (what the paging rules read), kept with it when resumed. */
      const envelopes: Array<KeptPage> = []
      const incomplete = (detail: string) =>
        fail(
          "standingOrders",
          { correlationId, processId },
          new ListingIncomplete({ kind: "pageLimit", detail, pages: pages.map((p) => p.body) })
        )
      const budgetError = (reason: BudgetExhausted | BudgetStoreError) =>
        pipeline.budgetError("standingOrders", correlationId, processId, reason)
      // an unattended listing that may be resumed (`resume`): the pages an earlier attempt of the same budget day
      // kept in the budget store are not asked for again, and each page read is kept the moment it is read
      let partialKey: string | undefined
      let from = 0
      if (options.resume === true && unattended !== undefined) {
        const { day } = yield* Effect.mapError(budget.usage(unattended), budgetError)
        partialKey = partialListingKey(profile.name, unattended, options.iban, size, day)
        const stored = yield* Effect.orElseSucceed(budget.store.readSnapshot(partialKey), () => Option.none())
        const kept = Option.isSome(stored) ? decodeKept(stored.value.payload) : undefined
        if (kept !== undefined) {
          const listedOn = yield* listingDay
          let done = false
          for (const [n, k] of kept.pages.entries()) {
            if (k.page !== n || n >= maxPages) break
            const step = stepAfter(n, { ...k, records: k.records.length }, maxPages, pageLimit)
            if (step._tag === "refuse") break
            pages.push(keptReply(k, listedOn))
            envelopes.push(k)
            if (step._tag === "done") {
              done = true
              break
            }
          }
          if (done && Option.isSome(stored)) {
            const at = DateTime.formatIso(DateTime.makeUnsafe(stored.value.takenAt))
            return pages.map((p) => ({ ...p, snapshotTakenAt: at }))
          }
          from = pages.length
        }
      }
      /** Keeps the pages read so far (`resume`); a record that cannot be written costs a later attempt its pages. */
      const keep = Effect.suspend(() =>
        partialKey === undefined
          ? Effect.void
          : Effect.flatMap(Clock.currentTimeMillis, (takenAt) =>
              Effect.ignore(
                budget.store.writeSnapshot(partialKey as string, {
                  payload: JSON.stringify({ version: 1, pages: envelopes } satisfies Kept),
                  takenAt
                })
              )
            )
      )
      const count0 = envelopes[0]?.pageCount
      // resumed with the count known: the rest must fit today's budget before the next page is asked for
      if (from > 0 && charged && count0 !== undefined && Math.min(count0, maxPages) > from)
        yield* Effect.mapError(budget.ensure(unattended, Math.min(count0, maxPages) - from), budgetError)
      for (let n = from; ; n++) {
        const reply = yield* Effect.catch(
          pageCall(options, n, size, correlationId, processId, unattended, undefined),
          (e) => (n > 0 && noSuchPage(e) ? Effect.succeed(undefined) : Effect.fail(e))
        )
        if (reply === undefined) break
        const { raw, ...body } = reply.body
        pages.push({ ...reply, body })
        envelopes.push({
          page: n,
          pageNumber: raw.pageNumber,
          pageCount: raw.pageCount,
          nextPage: raw.nextPage,
          records: (body.records ?? []).map((r) => ({ id: r.id, json: r.json })),
          identity: reply.identity,
          echoed: reply.echoed
        })
        yield* keep
        const count = raw.pageCount
        // the rest of an unattended listing must fit today's budget before page 1 is asked for
        if (n === 0 && charged && count !== undefined && count <= pageLimit && Math.min(count, maxPages) > 1)
          yield* Effect.mapError(budget.ensure(unattended, Math.min(count, maxPages) - 1), budgetError)
        const step = stepAfter(n, { ...raw, records: raw.records.length }, maxPages, pageLimit)
        if (step._tag === "refuse") return yield* incomplete(step.detail)
        if (step._tag === "done") break
      }
      return pages
    })

  /** Listings in flight in this client, by listing key: callers in this process share one run. */
  const inFlight = new Map<string, Deferred.Deferred<unknown, unknown>>()

  /** A listing's pages as a snapshot in the budget store: each page's envelope and records as the bank sent them. */
  const encodeListing = (replies: ReadonlyArray<Reply<StandingOrdersPage>>): string =>
    JSON.stringify({
      version: 1,
      pages: replies.map((r, n) => ({
        page: n,
        pageNumber: n,
        pageCount: r.body.pageCount,
        nextPage: null,
        records: (r.body.records ?? []).map((x) => ({ id: x.id, json: x.json })),
        identity: r.identity,
        echoed: r.echoed
      }))
    } satisfies Kept)

  /** A snapshot's pages, each record read again by core as listed on the snapshot's day. */
  const decodeListing = (payload: string, takenAt: number): Array<Reply<StandingOrdersPage>> | undefined => {
    const kept = decodeKept(payload)
    if (kept === undefined) return undefined
    const at = DateTime.makeUnsafe(takenAt)
    const listedOn = LocalDate.parseUnsafe(dayOf(at, profile.unattended.timeZone).day)
    return kept.pages.map((k) => ({ ...keptReply(k, listedOn), snapshotTakenAt: DateTime.formatIso(at) }))
  }

  /**
   * Every page of a listing. An unattended one is shared as the seed bank's is (README.md, "Daily budget"): callers
   * of this client asking for the same consent's listing at once share one run, other processes wait for its
   * snapshot under the budget store's lease, and a listing completed within `maxAge` is given without a request.
   */
  const standingOrders = (options: AllPagesOptions): Stream.Stream<Reply<StandingOrdersPage>, BankError> =>
    Stream.unwrap(
      Effect.gen(function* () {
        const unattended = yield* budgetKeyUnlessPresent(options)
        if (unattended === undefined) return Stream.fromIterable(yield* listAll(options))
        const correlationId = options.correlationId ?? crypto.randomUUID()
        const processId = options.processId ?? crypto.randomUUID()
        const size = options.pageSize ?? paging.maxSize
        const pages = yield* Listing.coalesce(budget.store, inFlight, {
          key: JSON.stringify([
            "listing",
            profile.name,
            unattended,
            options.iban ?? null,
            size,
            options.maxPages ?? null
          ]),
          maxAgeMillis: Duration.toMillis(Duration.fromInputUnsafe(options.maxAge ?? deps.maxAge)),
          leaseMillis: 10_000,
          pollMillis: 100,
          encode: encodeListing,
          decode: decodeListing,
          storeError: (reason) => pipeline.budgetError("standingOrders", correlationId, processId, reason),
          run: listAll({ ...options, correlationId, processId })
        })
        return Stream.fromIterable(pages)
      })
    )

  /** One order's detail by its id (`{transactionIdentification}` in the profile's path). */
  const standingOrder = (
    id: string,
    options: ListOptions,
    span: Tracer.AnySpan | undefined
  ): Effect.Effect<Reply<Detail>, BankError> =>
    Effect.gen(function* () {
      const correlationId = options.correlationId ?? crypto.randomUUID()
      const detail = profile.operations.standingOrder
      if (detail === undefined)
        return yield* fail(
          "standingOrder",
          { correlationId },
          new InvalidRequest({ path: "profile", detail: `the ${profile.name} profile has no standing-order detail` })
        )
      if (id === "" || id.length > 35)
        return yield* fail(
          "standingOrder",
          { correlationId },
          new InvalidRequest({ path: "transactionIdentification", detail: "must be 1 to 35 characters" })
        )
      const unattended = yield* budgetKeyUnlessPresent(options)
      const listedOn = yield* listingDay
      return yield* call({
        operation: "standingOrder",
        method: detail.method,
        url: urls.standingOrder.replace("{transactionIdentification}", encodeURIComponent(id)),
        body: "",
        options,
        correlationId,
        processId: options.processId,
        unattended: counts.has("standingOrder") ? unattended : undefined,
        decode: (json) =>
          typeof json === "object" && json !== null && !Array.isArray(json)
            ? Result.succeed({ id, json, read: readRecord(json, listedOn) })
            : Result.fail({ path: "$", message: "the detail must be a JSON object" }),
        span
      })
    })

  return { standingOrdersPage, standingOrders, standingOrder }
}

/** Reads a COBS balance-check answer (see `CobsWire.decodeBalanceCheck`) from an exchange's body and `Date`. */
export const decodeBalanceCheckBody =
  (maxDepth: number) => (exchange: { readonly text: string; readonly headers: Readonly<Record<string, string>> }) => {
    const json = Wire.parseJson(exchange.text, maxDepth)
    if (Result.isFailure(json)) return Result.fail({ path: "$", message: json.failure.detail })
    return CobsWire.decodeBalanceCheck(json.success, exchange.headers.date, Date.now())
  }
