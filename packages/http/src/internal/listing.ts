/**
 * The rules of a listing of every page, apart from the requests: when to ask for the next page, when to stop, when
 * to refuse (bounded paging), duplicate orderIds across pages, the snapshot's encoding, and the coalescing of
 * unattended listings through the budget store's leases and snapshots.
 */
import { Orders, StandingOrder } from "@tppkit/core"
import { Clock, Deferred, Effect, Fiber, Option, Result } from "effect"
import { type BudgetStoreError, InvalidRequest } from "../BankError.ts"
import type { BudgetStore } from "../BudgetStore.ts"

/** A page as the paging rules see it (core's lenient list plus its number). */
export interface Page extends StandingOrder.LenientList {
  readonly page: number
}

/** The bounds of one listing. */
export interface Bounds {
  readonly pageSize: number
  /** Pages asked for by the caller (a quiet stop), or infinity. */
  readonly maxPages: number
  /** The hard limit: more pages than this, announced or met, is refused. */
  readonly pageLimit: number
}

/** What to do after a page: ask for the next one, stop, or refuse with a reason. */
export type Step =
  | { readonly _tag: "more" }
  | { readonly _tag: "done" }
  | { readonly _tag: "refuse"; readonly kind: "pageCountChanged" | "pageLimit"; readonly detail: string }

/** Paging state across pages: the first page's count and where each orderId was first seen. */
export interface State {
  firstCount: number | undefined
  readonly seen: Map<string, number>
}

/** A fresh paging state. */
export const initial = (): State => ({ firstCount: undefined, seen: new Map() })

/** What is wrong with a page number and page size (docs/bank-interface.md, "Standing-order list"), if anything. */
export const validatePaging = (page: number | undefined, pageSize: number | undefined): InvalidRequest | undefined => {
  if (
    pageSize !== undefined &&
    (!Number.isInteger(pageSize) || pageSize < 10 || pageSize > 100 || pageSize % 10 !== 0)
  ) {
    return new InvalidRequest({
      path: "pageSize",
      detail: "must be a multiple of 10 from 10 to 100 (docs/bank-interface.md, Standing-order list)"
    })
  }
  if (page !== undefined && (!Number.isInteger(page) || page < 0)) {
    return new InvalidRequest({
      path: "page",
      detail: "must be a non-negative integer (docs/bank-interface.md, Standing-order list)"
    })
  }
  return undefined
}

/**
 * The page with every order whose orderId an earlier record of the listing had moved to its errors (reported, not
 * merged), and the step that follows it.
 */
export const afterPage = <P extends Page>(state: State, page: P, bounds: Bounds): { page: P; step: Step } => {
  const checked = withoutDuplicates(state, page)
  return { page: checked, step: stepAfter(state, page, bounds) }
}

const stepAfter = (state: State, page: Page, bounds: Bounds): Step => {
  const n = page.page
  const count = page.pageCount
  if (n === 0) {
    state.firstCount = count
    if (count !== undefined && count > bounds.pageLimit) {
      return {
        _tag: "refuse",
        kind: "pageLimit",
        detail: `the bank announces ${count} pages, more than the limit of ${bounds.pageLimit}`
      }
    }
  } else if (count !== state.firstCount) {
    return {
      _tag: "refuse",
      kind: "pageCountChanged",
      detail: `page ${n} gives pageCount ${count ?? "none"}, page 0 gave ${state.firstCount ?? "none"}`
    }
  }
  const records = page.orders.length + page.errors.filter((e) => e.index >= 0).length
  // an empty or short page ends a listing without pageCount; with one, the count rules (a bank may send fewer
  // records on a page, or none before the last page, reported in the page's errors: stopping early would lose the
  // rest)
  if (count === undefined && records < bounds.pageSize) return { _tag: "done" }
  const last = Math.min(bounds.maxPages, count ?? Number.POSITIVE_INFINITY) - 1
  if (n >= last) return { _tag: "done" }
  if (n >= bounds.pageLimit - 1) {
    return {
      _tag: "refuse",
      kind: "pageLimit",
      detail: `page ${n} is full and the bank gives no pageCount: more than the limit of ${bounds.pageLimit} pages`
    }
  }
  return { _tag: "more" }
}

/** The record index of each order of a page: the indices that are not errors, in order. */
const orderIndices = (page: Pick<Page, "orders" | "errors">): Array<number> => {
  const failed = new Set(page.errors.map((e) => e.index))
  const indices: Array<number> = []
  for (let i = 0; indices.length < page.orders.length; i++) if (!failed.has(i)) indices.push(i)
  return indices
}

const withoutDuplicates = <P extends Page>(state: State, page: P): P => {
  const duplicates: Array<number> = []
  page.orders.forEach((order, i) => {
    if (state.seen.has(order.orderId)) duplicates.push(i)
    else state.seen.set(order.orderId, page.page)
  })
  if (duplicates.length === 0) return page
  const indices = orderIndices(page)
  const dropped = new Set(duplicates)
  const errors = [...page.errors]
  for (const i of duplicates) {
    const order = page.orders[i] as StandingOrder.StandingOrder
    errors.push({
      index: indices[i] ?? -1,
      orderId: order.orderId,
      path: "orderId",
      message: `duplicate orderId, first seen on page ${state.seen.get(order.orderId)}; this copy is left out`
    })
  }
  errors.sort((a, b) => a.index - b.index)
  const orders = page.orders.filter((_, i) => !dropped.has(i))
  if (page.skipped === undefined) return { ...page, orders, errors }
  const left = new Set(duplicates.map((i) => indices[i]))
  return { ...page, orders, errors, skipped: page.skipped.filter((s) => !left.has(s.index)) }
}

/** A page in a snapshot: the page and the identity of the reply it came in. */
export interface SnapshotPage<I> {
  readonly page: Page
  readonly identity: I
  readonly echoed: { readonly correlationId?: string; readonly processId?: string }
}

const snapshotJson = <I>(pages: ReadonlyArray<SnapshotPage<I>>) => ({
  v: 2,
  pages: pages.map((p) => ({
    page: p.page.page,
    pageCount: p.page.pageCount ?? null,
    orders: JSON.stringify(p.page.orders.map((o) => StandingOrder.encodeReceived(o))),
    errors: p.page.errors.map((e) => ({ ...e, orderId: e.orderId ?? null })),
    warnings: p.page.warnings.map((e) => ({ ...e, orderId: e.orderId ?? null })),
    ...(p.page.skipped === undefined
      ? {}
      : { skipped: p.page.skipped.map((e) => ({ ...e, orderId: e.orderId ?? null })) }),
    identity: p.identity,
    echoed: p.echoed
  }))
})

/**
 * The payload of a complete listing (JSON text): each page's orders as the JSON text of their wire form, written
 * exactly (an amount out of the `[9.2]` format too: core's `StandingOrder.encodeReceived`), its errors and warnings.
 */
export const encodeSnapshot = <I>(pages: ReadonlyArray<SnapshotPage<I>>): string => JSON.stringify(snapshotJson(pages))

interface StoredError {
  readonly index: number
  readonly orderId: string | null
  readonly path: string
  readonly message: string
}

interface StoredPage {
  readonly page: number
  readonly pageCount: number | null
  /** Version 2: the JSON text of the orders' wire form; version 1: the orders themselves (floats). */
  readonly orders: string | ReadonlyArray<unknown>
  readonly errors: ReadonlyArray<StoredError>
  /** Version 2 only. */
  readonly warnings?: ReadonlyArray<StoredError>
  /** Version 2, when a record of the page pays nothing (absent in a payload written before: read again). */
  readonly skipped?: ReadonlyArray<StoredError>
  readonly identity: unknown
  readonly echoed: { readonly correlationId?: string; readonly processId?: string }
}

/**
 * The orders of a stored page, read by core's one decoder: exactly from version 2's text, from the JSON text of version
 * 1's floats; undefined when one is bad. The records that pay nothing are counted among the stored orders.
 */
const storedOrders = (
  orders: StoredPage["orders"]
):
  | {
      orders: Array<StandingOrder.StandingOrder>
      warnings: Array<StandingOrder.RecordError>
      skipped: Array<StandingOrder.RecordError>
    }
  | undefined => {
  if (typeof orders !== "string" && !Array.isArray(orders)) return undefined
  const decoded = Orders.decodeBankList(typeof orders === "string" ? orders : JSON.stringify(orders))
  return Result.isSuccess(decoded) && decoded.success.errors.length === 0
    ? { orders: decoded.success.orders, warnings: decoded.success.warnings, skipped: decoded.success.skipped ?? [] }
    : undefined
}

/** The errors and skipped records of a stored page as read: the skipped ones of an older payload placed by its errors. */
const storedSkipped = (
  p: StoredPage,
  errors: Array<StandingOrder.RecordError>,
  orders: number,
  read: ReadonlyArray<StandingOrder.RecordError>
): Array<StandingOrder.RecordError> | undefined => {
  if (p.skipped !== undefined) return p.skipped.map((e) => ({ ...e, orderId: e.orderId ?? undefined }))
  if (read.length === 0) return undefined
  const indices = orderIndices({ orders: new Array(orders), errors })
  return read.map((s) => ({ ...s, index: indices[s.index] ?? s.index }))
}

/** The pages of a snapshot payload, or undefined when it is not one this version wrote (then it is ignored). */
export const decodeSnapshot = <I>(payload: string): ReadonlyArray<SnapshotPage<I>> | undefined => {
  try {
    const parsed = JSON.parse(payload) as { v?: unknown; pages?: ReadonlyArray<StoredPage> }
    if ((parsed.v !== 1 && parsed.v !== 2) || !Array.isArray(parsed.pages)) return undefined
    const pages: Array<SnapshotPage<I>> = []
    for (const p of parsed.pages) {
      const read = storedOrders(p.orders)
      if (read === undefined) return undefined
      const errors = p.errors.map((e: StoredError) => ({ ...e, orderId: e.orderId ?? undefined }))
      const skipped = storedSkipped(p, errors, read.orders.length, read.skipped)
      pages.push({
        page: {
          page: p.page,
          pageCount: p.pageCount ?? undefined,
          orders: read.orders,
          errors,
          warnings:
            p.warnings === undefined
              ? read.warnings
              : p.warnings.map((e: StoredError) => ({ ...e, orderId: e.orderId ?? undefined })),
          ...(skipped === undefined ? {} : { skipped })
        },
        identity: p.identity as I,
        echoed: p.echoed
      })
    }
    return pages
  } catch {
    return undefined
  }
}

/**
 * What an attempt of an unattended listing that may be resumed leaves for the next one: the pages it read (from
 * page 0, in order), how many pages were asked for (answered, or in flight: they may have reached the bank) and how
 * many are paid for (a listing pays for the rest of its pages at once).
 */
export interface Partial<I> {
  readonly pages: ReadonlyArray<SnapshotPage<I>>
  readonly asked: number
  readonly paid: number
  /** The attempts of this listing that sent at least one request (the bank may have seen each). */
  readonly tries: number
}

/** The payload of a partial listing: the pages as a snapshot's, and the counts asked and paid. */
export const encodePartial = <I>(
  pages: ReadonlyArray<SnapshotPage<I>>,
  counts: { readonly asked: number; readonly paid: number; readonly tries: number }
): string => JSON.stringify({ ...snapshotJson(pages), asked: counts.asked, paid: counts.paid, tries: counts.tries })

/** A partial listing's payload, or undefined when it is not one (then it is ignored). */
export const decodePartial = <I>(payload: string): Partial<I> | undefined => {
  const pages = decodeSnapshot<I>(payload)
  if (pages === undefined) return undefined
  try {
    const { asked, paid, tries } = JSON.parse(payload) as { asked?: unknown; paid?: unknown; tries?: unknown }
    const count = (n: unknown) => (typeof n === "number" && Number.isInteger(n) && n >= 0 ? n : 0)
    return { pages, asked: count(asked), paid: count(paid), tries: count(tries) }
  } catch {
    return undefined
  }
}

/** What `coalesce` needs for one listing. */
export interface Coalesced<A, E> {
  /** The listing key (consent key plus the listing's filter and paging). */
  readonly key: string
  /** A snapshot this much older than the call's start is still accepted (0: only one completed after it). */
  readonly maxAgeMillis: number
  /**
   * How long a lease lasts unless renewed; the runner renews it every third of that while it lists, so a runner
   * that dies (a killed process) frees the listing for a waiter within this time.
   */
  readonly leaseMillis: number
  /** How often a waiter looks at the store again. */
  readonly pollMillis: number
  readonly encode: (a: A) => string
  readonly decode: (payload: string, takenAt: number) => A | undefined
  readonly storeError: (e: BudgetStoreError) => E
  /** The listing itself, run by the one caller that holds the lease. */
  readonly run: Effect.Effect<A, E>
  /** When the listing `run` gave was taken, when that was before it ran (a kept listing); default: when it ended. */
  readonly takenAt?: (() => number | undefined) | undefined
}

/**
 * Runs unattended listings so that one listing of a key is in flight at a time: callers in this process share one
 * run (`inFlight`); across processes the store's lease elects one runner while the others poll for the snapshot it
 * writes. A snapshot completed after the caller started (or within `maxAgeMillis` before) is returned without a
 * request. A runner that fails releases its lease; the next waiter then runs the listing itself.
 */
export const coalesce = <A, E>(
  store: BudgetStore["Service"],
  inFlight: Map<string, Deferred.Deferred<unknown, unknown>>,
  spec: Coalesced<A, E>
): Effect.Effect<A, E> =>
  Effect.suspend(() => {
    const existing = inFlight.get(spec.key) as Deferred.Deferred<A, E> | undefined
    if (existing !== undefined) return Deferred.await(existing)
    const deferred = Deferred.makeUnsafe<A, E>()
    inFlight.set(spec.key, deferred as Deferred.Deferred<unknown, unknown>)
    return acrossProcesses(store, spec).pipe(
      Effect.exit,
      Effect.flatMap((exit) => {
        inFlight.delete(spec.key)
        return Effect.andThen(Deferred.done(deferred, exit), exit)
      }),
      Effect.onInterrupt(() =>
        Effect.andThen(
          Effect.sync(() => inFlight.delete(spec.key)),
          Deferred.interrupt(deferred)
        )
      )
    )
  })

const acrossProcesses = <A, E>(store: BudgetStore["Service"], spec: Coalesced<A, E>): Effect.Effect<A, E> =>
  Effect.gen(function* () {
    const typed = <X>(effect: Effect.Effect<X, BudgetStoreError>) => Effect.mapError(effect, spec.storeError)
    const startedAt = yield* Clock.currentTimeMillis
    const holder = crypto.randomUUID()
    const fresh = Effect.map(typed(store.readSnapshot(spec.key)), (snapshot) =>
      Option.isSome(snapshot) && snapshot.value.takenAt >= startedAt - spec.maxAgeMillis
        ? spec.decode(snapshot.value.payload, snapshot.value.takenAt)
        : undefined
    )
    while (true) {
      const before = yield* fresh
      if (before !== undefined) return before
      const now = yield* Clock.currentTimeMillis
      const lease = yield* typed(store.tryAcquireLease(spec.key, holder, now, now + spec.leaseMillis))
      if (lease.acquired) {
        const renew = Effect.forever(
          Effect.sleep(Math.max(1, Math.floor(spec.leaseMillis / 3))).pipe(
            Effect.andThen(Clock.currentTimeMillis),
            Effect.flatMap((at) => Effect.ignore(store.tryAcquireLease(spec.key, holder, at, at + spec.leaseMillis)))
          )
        )
        const renewing = yield* Effect.forkChild(renew)
        const release = Effect.andThen(Fiber.interrupt(renewing), Effect.ignore(store.releaseLease(spec.key, holder)))
        return yield* Effect.gen(function* () {
          // a runner may have written its snapshot between the read above and the lease
          const after = yield* fresh
          if (after !== undefined) return after
          const result = yield* spec.run
          const takenAt = spec.takenAt?.() ?? (yield* Clock.currentTimeMillis)
          // a snapshot that cannot be written costs later callers a listing, not this one its result
          yield* Effect.ignore(store.writeSnapshot(spec.key, { payload: spec.encode(result), takenAt }))
          return result
        }).pipe(Effect.ensuring(release))
      }
      yield* Effect.sleep(spec.pollMillis)
    }
  })
