/**
 * The list and the detail of a profile other than the seed bank's (packages/http/README.md, "Bank profiles"): the
 * page and size in the query (pages from the profile's first page), the envelope read with `cobsWire.ts`, every
 * page of a listing asked for one after the other, stopping at `pageNumber + 1 >= pageCount` (never on `nextPage`
 * alone: COBS's example sends `nextPage: 0` on the last page), at an empty page, or, past the first page, at the
 * bank's "no such page" (404, or 400 `PAGE_NOT_FOUND`). An unattended listing is paid for request by request and
 * refused before page 1 when the rest cannot fit; the detail of one order (`{transactionIdentification}` in its
 * path) spends the budget too where the profile counts it, and is never retried when unattended.
 */
import { LocalDate, SourceRecord } from "@tppkit/core"
import { DateTime, Effect, Result, Stream, type Tracer } from "effect"
import type { AllPagesOptions, ListOptions, PageOptions, Reply, StandingOrdersPage } from "../BankClient.ts"
import type { Settings } from "../BankConfig.ts"
import { type BankError, InvalidRequest, ListingIncomplete } from "../BankError.ts"
import { type Budget, dayOf } from "../Budget.ts"
import type * as Call from "./call.ts"
import * as CobsWire from "./cobsWire.ts"
import * as Wire from "./wire.ts"

/** What the profiled operations are made of. */
export interface Deps {
  readonly config: Settings
  readonly pipeline: Call.Pipeline
  readonly budget: Budget["Service"]
  readonly budgetKeyUnlessPresent: (options: ListOptions) => Effect.Effect<string | undefined>
  readonly pageLimit: number
}

/** The detail of one order, as the bank sent it, and core's reading of it. */
export interface Detail {
  readonly id: string
  readonly json: unknown
  readonly read: SourceRecord.Read | undefined
}

/** The profiled operations. */
export const make = (deps: Deps) => {
  const { config, pipeline, budget, budgetKeyUnlessPresent } = deps
  const { fail, call, urls } = pipeline
  const profile = config.profile
  const paging = profile.paging
  const counts = new Set<string>(profile.unattended.counts)
  const standard = profile.standard
  /** The listing day in the profile's time zone: a COBS list item counts from it. */
  const listingDay = Effect.map(DateTime.now, (now) =>
    LocalDate.parseUnsafe(dayOf(now, profile.unattended.timeZone).day)
  )
  /** core's reading of a record of the profile's standard. */
  const readRecord = (json: unknown, listedOn: LocalDate.LocalDate) =>
    SourceRecord.isSource(standard) ? SourceRecord.read(json, { standard, listedOn }) : undefined

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

  const standingOrders = (options: AllPagesOptions): Stream.Stream<Reply<StandingOrdersPage>, BankError> =>
    Stream.unwrap(
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
        const incomplete = (detail: string) =>
          fail(
            "standingOrders",
            { correlationId, processId },
            new ListingIncomplete({ kind: "pageLimit", detail, pages: pages.map((p) => p.body) })
          )
        for (let n = 0; ; n++) {
          const reply = yield* Effect.catch(
            pageCall(options, n, size, correlationId, processId, unattended, undefined),
            (e) => (n > 0 && noSuchPage(e) ? Effect.succeed(undefined) : Effect.fail(e))
          )
          if (reply === undefined) break
          const { raw, ...body } = reply.body
          pages.push({ ...reply, body })
          const count = raw.pageCount
          if (n === 0 && count !== undefined && count > pageLimit)
            return yield* incomplete(`the bank announces ${count} pages, more than the limit of ${pageLimit}`)
          // the rest of an unattended listing must fit today's budget before page 1 is asked for
          if (n === 0 && charged && count !== undefined && Math.min(count, maxPages) > 1)
            yield* Effect.mapError(budget.ensure(unattended, Math.min(count, maxPages) - 1), (reason) =>
              pipeline.budgetError("standingOrders", correlationId, processId, reason)
            )
          const number = raw.pageNumber ?? n
          if (raw.records.length === 0) break
          if (count !== undefined && number + 1 >= count) break
          if (count === undefined && (raw.nextPage === undefined || raw.nextPage === null)) break
          if (n + 1 >= maxPages) break
          if (n + 1 >= pageLimit) return yield* incomplete(`more than the limit of ${pageLimit} pages`)
        }
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
