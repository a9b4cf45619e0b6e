/**
 * Details within the daily budget (packages/http/README.md, "Bank profiles"): where a profile's list lacks what a
 * projection needs (COBS: no creditor, no start or next date), each order's detail is asked once and kept with the
 * listing in the budget store; a later listing asks again only for orders that are new or whose list item changed.
 * Without the customer, every detail is a call the daily limit counts (the profile's rule), so a listing asks for at
 * most what today's budget has left after the list itself, and the rest waits for the following days; a detail call
 * without the customer is never retried (the client's rule). While an order's detail is pending, core's reader
 * projects a monthly or weekly order from its list item (`intervalDue`, counted from the listing day) and skips a
 * longer interval as "details pending".
 */
import type { Iban } from "@tppkit/core"
import { SourceRecord } from "@tppkit/core"
import { DateTime, Effect, Option, Stream } from "effect"
import { type AllPagesOptions, BankClient, type RawRecord } from "./BankClient.ts"
import { BankConfig, recordStandard } from "./BankConfig.ts"
import type { BankError } from "./BankError.ts"
import { Budget, consentKey } from "./Budget.ts"
import { decodeKept as decodeKeptPages, partialListingKey } from "./internal/profiled.ts"
import * as PsuContext from "./PsuContext.ts"

/** An order of a detailed listing: its list item, its detail when read, and core's reading of the fuller one. */
export interface Order {
  readonly id: string
  readonly item: unknown
  /** The detail, read now or on an earlier day (kept while the list item stays the same). */
  readonly detail: unknown | undefined
  /** core's reading of the detail when there is one, else of the list item. */
  readonly read: SourceRecord.Read | undefined
}

/** A listing with its details: the orders, which details were asked for now, and which are still pending. */
export interface Listing {
  readonly orders: ReadonlyArray<Order>
  /** Ids whose detail this listing asked for. */
  readonly fetched: ReadonlyArray<string>
  /** Ids still without a detail ("details pending"), to be asked on the following days. */
  readonly pending: ReadonlyArray<string>
  /** Records the list answered without an id (kept, never asked for in detail). */
  readonly withoutId: ReadonlyArray<RawRecord>
  /** The pages of the list. */
  readonly pages: number
}

/**
 * The days `pending` details take when each day's budget is `dailyLimit` calls and a day's listing itself takes
 * `listingCalls` of them: `ceil(pending / (dailyLimit - listingCalls))`, 0 when none are pending, `Infinity` when the
 * listing leaves nothing over.
 */
export const plan = (pending: number, dailyLimit: number, listingCalls: number): number => {
  if (pending <= 0) return 0
  const perDay = dailyLimit - listingCalls
  return perDay <= 0 ? Number.POSITIVE_INFINITY : Math.ceil(pending / perDay)
}

/** What a detailed listing keeps in the store: each order's list item (as JSON text) and its detail. */
interface Kept {
  readonly version: 1
  readonly orders: Record<string, { readonly item: string; readonly detail: unknown }>
}

const decodeKept = (payload: string): Kept | undefined => {
  try {
    const parsed = JSON.parse(payload) as Kept
    return parsed?.version === 1 && typeof parsed.orders === "object" && parsed.orders !== null ? parsed : undefined
  } catch {
    return undefined
  }
}

/** An order of the pages kept today: its list item and its detail when one is kept for that item. */
export interface KeptOrder {
  readonly id: string
  readonly item: unknown
  readonly detail: unknown | undefined
}

/** What an unattended listing of today's budget day kept of its pages (`resume`) when it could not be read whole. */
export interface KeptToday {
  /** The page numbers kept (from 0, in order). */
  readonly pages: ReadonlyArray<number>
  /** The pages not read today; undefined when unknown (page 0 not kept, or the bank gave no page count). */
  readonly unread: ReadonlyArray<number> | undefined
  /** The orders of the kept pages (records without an id are left out, as `list` leaves them out of its orders). */
  readonly orders: ReadonlyArray<KeptOrder>
}

/** The budget key of a listing's consent (the client's consent when none is named). */
const budgetKeyOf = (config: BankConfig["Service"], consent: string | undefined): string =>
  consentKey({
    environment: config.environment,
    baseUrl: config.bankIdentity ?? config.baseUrl,
    clientId: config.clientId,
    consent: consent ?? config.clientId
  })

/**
 * What the unattended listing (`resume`) of `consentKey`, filtered by `iban`, of page size `pageSize` (the profile's
 * largest when absent) kept in the budget store today: the pages read so far and their orders, each with the detail
 * kept for its list item. Sends nothing; nothing kept is no pages.
 */
export const kept = (options: {
  readonly consentKey?: string | undefined
  readonly iban?: Iban.Iban | undefined
  readonly pageSize?: number | undefined
}): Effect.Effect<KeptToday, never, Budget | BankConfig> =>
  Effect.gen(function* () {
    const budget = yield* Budget
    const config = yield* BankConfig
    const unattended = budgetKeyOf(config, options.consentKey)
    const usage = yield* Effect.option(budget.usage(unattended))
    if (Option.isNone(usage)) return { pages: [], unread: undefined, orders: [] }
    const size = options.pageSize ?? config.profile.paging.maxSize
    const key = partialListingKey(config.profile.name, unattended, options.iban, size, usage.value.day)
    const stored = yield* Effect.orElseSucceed(budget.store.readSnapshot(key), () => Option.none())
    const partial = Option.isSome(stored) ? decodeKeptPages(stored.value.payload) : undefined
    // the pages kept in order from page 0 (a listing keeps them so)
    const pages = (partial?.pages ?? []).filter((p, n) => p.page === n)
    const detailsKey = JSON.stringify(["details", unattended, options.iban ?? null])
    const storedDetails = yield* Effect.orElseSucceed(budget.store.readSnapshot(detailsKey), () => Option.none())
    const details = (Option.isSome(storedDetails) ? decodeKept(storedDetails.value.payload) : undefined)?.orders ?? {}
    const count = pages[0]?.pageCount
    const last = pages.at(-1)
    // the paging rules' end without a count: an empty page, or no `nextPage` (never `nextPage: 0` alone)
    const ended =
      last !== undefined && (last.records.length === 0 || last.nextPage === undefined || last.nextPage === null)
    const unread =
      count !== undefined
        ? Array.from({ length: count }, (_, n) => n).filter((n) => n >= pages.length)
        : ended
          ? []
          : undefined
    const orders: Array<KeptOrder> = []
    for (const p of pages) {
      for (const r of p.records) {
        if (r.id === undefined) continue
        const old = details[r.id]
        orders.push({
          id: r.id,
          item: r.json,
          detail: old !== undefined && old.item === JSON.stringify(r.json) ? old.detail : undefined
        })
      }
    }
    return { pages: pages.map((p) => p.page), unread, orders }
  })

/**
 * Lists every page, then asks for the details the listing lacks: every new or changed order's when the customer is
 * present; without the customer, at most what today's budget has left (the rest stay pending). The details read are
 * kept in the budget store under the consent and filter, beside the listing's own snapshot.
 */
export const list = (options: AllPagesOptions): Effect.Effect<Listing, BankError, BankClient | Budget | BankConfig> =>
  Effect.gen(function* () {
    const client = yield* BankClient
    const budget = yield* Budget
    const config = yield* BankConfig
    const pages = yield* Stream.runCollect(client.standingOrders(options))
    const records = pages.flatMap((p) => p.body.records ?? [])
    const key = JSON.stringify(["details", budgetKeyOf(config, options.consentKey), options.iban ?? null])
    const stored = yield* Effect.orElseSucceed(budget.store.readSnapshot(key), () => Option.none())
    const kept = Option.isSome(stored) ? (decodeKept(stored.value.payload) ?? { version: 1, orders: {} }) : undefined
    const before = kept?.orders ?? {}
    const withoutId = records.filter((r) => r.id === undefined)
    const listed = records.filter((r): r is RawRecord & { id: string } => r.id !== undefined)
    const needed = listed.filter((r) => before[r.id]?.item !== JSON.stringify(r.json)).map((r) => r.id)
    const now = yield* DateTime.now
    const present = PsuContext.isPresent(options.psu, now)
    const countsDetails = config.profile.unattended.counts.includes("standingOrder")
    const standard = recordStandard(config)
    /** core's reading of a kept detail (a whole record: it names its own start). */
    const readDetail = (json: unknown) =>
      SourceRecord.isSource(standard) ? SourceRecord.read(json, { standard }) : undefined
    let allowed = needed.length
    if (!present && countsDetails) {
      const usage = yield* Effect.orElseSucceed(
        budget.usage(
          consentKey({
            environment: config.environment,
            baseUrl: config.bankIdentity ?? config.baseUrl,
            clientId: config.clientId,
            consent: options.consentKey ?? config.clientId
          })
        ),
        () => undefined
      )
      allowed = Math.min(needed.length, usage?.remaining ?? 0)
    }
    const details = new Map<string, { json: unknown; read: SourceRecord.Read | undefined }>()
    const fetched: Array<string> = []
    /**
     * Keeps the details read, now and before, of the orders listed (a detail is kept while its list item stays the
     * same); also when a detail call fails part-way, so that the next attempt does not pay for those again.
     */
    const write = Effect.suspend(() => {
      const keep: Record<string, { item: string; detail: unknown }> = {}
      for (const r of listed) {
        const text = JSON.stringify(r.json)
        const old = before[r.id]
        const detail = details.get(r.id)?.json ?? (old !== undefined && old.item === text ? old.detail : undefined)
        if (detail !== undefined) keep[r.id] = { item: text, detail }
      }
      return Effect.ignore(
        budget.store.writeSnapshot(key, {
          payload: JSON.stringify({ version: 1, orders: keep } satisfies Kept),
          takenAt: DateTime.toEpochMillis(now)
        })
      )
    })
    yield* Effect.onError(
      Effect.gen(function* () {
        for (const id of needed.slice(0, allowed)) {
          const reply = yield* client
            .standingOrder(id, {
              psu: options.psu,
              ...(options.token === undefined ? {} : { token: options.token }),
              ...(options.consentKey === undefined ? {} : { consentKey: options.consentKey }),
              ...(options.processId === undefined ? {} : { processId: options.processId })
            })
            .pipe(
              Effect.map((r) => r.body),
              // a budget refused, or an order gone since the listing: its detail stays pending
              Effect.catch((e: BankError) =>
                e.reason._tag === "BudgetExhausted" || e.reason._tag === "NotFound"
                  ? Effect.succeed(undefined)
                  : Effect.fail(e)
              )
            )
          if (reply === undefined) continue
          details.set(id, { json: reply.json, read: reply.read })
          fetched.push(id)
        }
      }),
      () => (fetched.length > 0 ? write : Effect.void)
    )
    const orders: Array<Order> = []
    const pending: Array<string> = []
    for (const r of listed) {
      const text = JSON.stringify(r.json)
      const fresh = details.get(r.id)
      const old = before[r.id]
      const detail = fresh?.json ?? (old !== undefined && old.item === text ? old.detail : undefined)
      if (detail === undefined) pending.push(r.id)
      orders.push({
        id: r.id,
        item: r.json,
        detail,
        read: fresh !== undefined ? fresh.read : detail === undefined ? r.read : readDetail(detail)
      })
    }
    yield* write
    return { orders, fetched, pending, withoutId, pages: pages.length }
  })
