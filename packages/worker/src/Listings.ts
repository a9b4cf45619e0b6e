/**
 * The pages of each consent's unattended listing as the fleet read them, kept in its database the moment each is
 * read: the pages of today's listing (so that a listing cut off by a fault, a paused or a killed worker is taken up
 * asking the bank only for the pages not kept), and the latest complete listing of an earlier day (what a consent's
 * day is planned from for the pages that could not be read today). A listing is named by its consent, IBAN filter
 * and page size (`listingId`); a complete listing removes the older days' pages of the same listing but those of the
 * last complete listing before it, which the change feed (`OrderChanges`) compares it with.
 *
 * @since 0.1.0
 */
import { Orders, StandingOrder } from "@tppkit/core"
import { Context, Effect, Layer, Option, Result } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import { ChecksError } from "./Checks.ts"

/** One page of a listing as read: its number, the bank's page count (when it gave one) and its orders. */
export interface Page {
  readonly page: number
  readonly pageCount: number | undefined
  /** How many records the bank sent on the page (its orders and its malformed records). */
  readonly records: number
  readonly orders: ReadonlyArray<StandingOrder.StandingOrder>
}

/** A complete listing of a day: the day it was read on and its pages in order. */
export interface Complete {
  readonly day: string
  readonly pages: ReadonlyArray<Page>
}

/** The name of a listing: consent key, IBAN filter and page size (pages of other page sizes do not mix). */
export const listingId = (consent: string, iban: string | undefined, pageSize: number): string =>
  JSON.stringify([consent, iban ?? null, pageSize])

/** The kept listings. Each change is one statement; reads see every change made before them. */
export class Listings extends Context.Service<
  Listings,
  {
    /** The pages of `listing` kept for `day`, in page order. */
    readonly pages: (listing: string, day: string) => Effect.Effect<ReadonlyArray<Page>, ChecksError>
    /** Keeps a page read for `day`; a page kept already is left as it is (the first read wins). */
    readonly keep: (listing: string, day: string, page: Page) => Effect.Effect<void, ChecksError>
    /**
     * Marks the listing of `day` complete; the pages of earlier days of the listing are removed, but those of the
     * latest complete listing before `day` (the change feed's "before").
     */
    readonly complete: (listing: string, day: string) => Effect.Effect<void, ChecksError>
    /** The latest complete listing of a day before `day`, if any. */
    readonly latestComplete: (listing: string, day: string) => Effect.Effect<Option.Option<Complete>, ChecksError>
  }
>()("@tppkit/worker/Listings") {
  /** Listings in memory (tests and single-process runs). */
  static readonly layerMemory: Layer.Layer<Listings> = Layer.sync(Listings, () => {
    const pages = new Map<string, Map<number, Page>>()
    const complete = new Set<string>()
    const k = (listing: string, day: string) => JSON.stringify([listing, day])
    const sorted = (listing: string, day: string) =>
      [...(pages.get(k(listing, day))?.values() ?? [])].sort((a, b) => a.page - b.page)
    /** The latest day before `day` whose listing is complete. */
    const latestBefore = (listing: string, day: string) =>
      [...complete]
        .map((key) => JSON.parse(key) as [string, string])
        .filter(([l, d]) => l === listing && d < day)
        .map(([, d]) => d)
        .sort()
        .at(-1)
    return Listings.of({
      pages: (listing, day) => Effect.sync(() => sorted(listing, day)),
      keep: (listing, day, page) =>
        Effect.sync(() => {
          const kept = pages.get(k(listing, day)) ?? new Map<number, Page>()
          if (!kept.has(page.page)) kept.set(page.page, page)
          pages.set(k(listing, day), kept)
        }),
      complete: (listing, day) =>
        Effect.sync(() => {
          const previous = latestBefore(listing, day)
          complete.add(k(listing, day))
          for (const key of [...pages.keys(), ...complete]) {
            const [l, d] = JSON.parse(key) as [string, string]
            if (l === listing && d < day && d !== previous) {
              pages.delete(key)
              complete.delete(key)
            }
          }
        }),
      latestComplete: (listing, day) =>
        Effect.sync(() => {
          const latest = latestBefore(listing, day)
          return latest === undefined ? Option.none() : Option.some({ day: latest, pages: sorted(listing, latest) })
        })
    })
  })

  /** Listings in PostgreSQL (tables `tppkit_listing_pages` and `tppkit_listings`, created by `Database.migrate`). */
  static readonly layerSql: Layer.Layer<Listings, never, SqlClient.SqlClient> = Layer.effect(
    Listings,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const fail = (what: string) => (e: SqlError) =>
        new ChecksError({
          message: `listing store: ${what}: ${e.message}${e.cause instanceof Error ? ` (${e.cause.message})` : ""}`
        })
      const read = (listing: string, day: string) =>
        sql<PageRow>`SELECT page, page_count, records, orders FROM tppkit_listing_pages
                     WHERE listing = ${listing} AND day = ${day} ORDER BY page`.pipe(
          Effect.map((rows) => rows.flatMap(pageOf)),
          Effect.mapError(fail("cannot read kept pages"))
        )
      return Listings.of({
        pages: read,
        keep: (listing, day, page) =>
          sql`INSERT INTO tppkit_listing_pages (listing, day, page, page_count, records, orders)
              VALUES (${listing}, ${day}, ${page.page}, ${page.pageCount ?? null}, ${page.records},
                ${encodeOrders(page.orders)})
              ON CONFLICT DO NOTHING`.pipe(Effect.asVoid, Effect.mapError(fail("cannot keep a page"))),
        complete: (listing, day) =>
          sql`WITH done AS (
                INSERT INTO tppkit_listings (listing, day) VALUES (${listing}, ${day}) ON CONFLICT DO NOTHING
              ), previous AS (
                SELECT max(day) AS day FROM tppkit_listings WHERE listing = ${listing} AND day < ${day}
              ), gone AS (
                DELETE FROM tppkit_listings WHERE listing = ${listing} AND day < (SELECT day FROM previous)
              )
              DELETE FROM tppkit_listing_pages WHERE listing = ${listing} AND day < ${day}
                AND day IS DISTINCT FROM (SELECT day FROM previous)`.pipe(
            Effect.asVoid,
            Effect.mapError(fail("cannot mark a listing complete"))
          ),
        latestComplete: (listing, day) =>
          Effect.gen(function* () {
            const [latest] = yield* sql<{ day: string }>`SELECT day FROM tppkit_listings
                WHERE listing = ${listing} AND day < ${day} ORDER BY day DESC LIMIT 1`.pipe(
              Effect.mapError(fail("cannot read complete listings"))
            )
            if (latest === undefined) return Option.none()
            return Option.some({ day: latest.day, pages: yield* read(listing, latest.day) })
          })
      })
    })
  )
}

/** The DDL of the kept listings (idempotent). */
export const ddl: ReadonlyArray<string> = [
  `CREATE TABLE IF NOT EXISTS tppkit_listing_pages (
    listing text NOT NULL,
    day text NOT NULL,
    page integer NOT NULL,
    page_count integer,
    records integer NOT NULL,
    orders text NOT NULL,
    read_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (listing, day, page)
  )`,
  `CREATE TABLE IF NOT EXISTS tppkit_listings (
    listing text NOT NULL,
    day text NOT NULL,
    PRIMARY KEY (listing, day)
  )`
]

interface PageRow {
  readonly page: number
  readonly page_count: number | null
  readonly records: number
  readonly orders: string
}

/** The orders of a page as the JSON text of their wire form, exactly (an amount out of the bank's format too). */
export const encodeOrders = (orders: ReadonlyArray<StandingOrder.StandingOrder>): string =>
  JSON.stringify(orders.map((o) => StandingOrder.encodeReceived(o)))

/** The orders of a kept page's text (orders this version wrote: every one decodes), read by core's one decoder. */
export const decodeOrders = (text: string): Array<StandingOrder.StandingOrder> => {
  const decoded = Orders.decodeBankList(text)
  return Result.isSuccess(decoded) ? decoded.success.orders : []
}

const pageOf = (row: PageRow): Array<Page> => [
  {
    page: Number(row.page),
    pageCount: row.page_count === null ? undefined : Number(row.page_count),
    records: Number(row.records),
    orders: decodeOrders(row.orders)
  }
]
