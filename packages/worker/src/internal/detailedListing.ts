/**
 * The engine of `BankSources.detailedListing`: a consent's listing through a bank whose profile is not the seed
 * bank's (COBS), the customer's token renewed from the refresh token the fleet keeps, every page and the details
 * within the daily budget (http's `Details.list`), each record read by core.
 */
import { Iban, LocalDate, Orders } from "@tppkit/core"
import { BankConfig, BankTransport, Budget, Details, type PsuContext, TokenService } from "@tppkit/http"
import type { Projection } from "@tppkit/schedule"
import { Clock, Context, Effect, Option, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import { ChecksError } from "../Checks.ts"
import * as Consents from "../Consents.ts"
import type { Bank } from "./bankStack.ts"
import { InvalidIban, ListingFailed, NoGrant } from "./listingFailure.ts"
import type { Consent } from "./sweepJournal.ts"
import {
  itemWarnings,
  type RecordWarnings,
  type SkippedRecords,
  skippedItems,
  skippedSummary,
  type UnreadRecords,
  unreadItems,
  unreadSummary,
  warningsSummary
} from "./sweepJournal.ts"
import type { Kept } from "./sweepTypes.ts"

/** A complete listing kept for the days its listing fails: its day and each order's fullest record (detail or item). */
interface CompleteListing {
  readonly day: string
  readonly orders: ReadonlyArray<{ readonly id: string; readonly record: unknown }>
}

/** What is kept of a consent's complete listings: the latest and the latest of an earlier day than it. */
interface KeptListings {
  readonly version: 1
  readonly listings: ReadonlyArray<CompleteListing>
}

/** The budget store's key of a consent's complete listings (by profile, consent and IBAN filter). */
const completeKey = (profile: string, consent: Consent): string =>
  JSON.stringify(["complete listing", profile, consent.key, consent.iban ?? null])

const decodeListings = (payload: string): KeptListings | undefined => {
  try {
    const parsed = JSON.parse(payload) as KeptListings
    return parsed?.version === 1 &&
      Array.isArray(parsed.listings) &&
      parsed.listings.every((l) => typeof l?.day === "string" && Array.isArray(l.orders))
      ? parsed
      : undefined
  } catch {
    return undefined
  }
}

/** The kept complete listings of a consent (none when nothing, or nothing readable, is kept). */
const keptListings = (bank: Bank, consent: Consent) => {
  const config = Context.get(bank, BankConfig.BankConfig)
  const store = Context.get(bank, Budget.Budget).store
  return Effect.map(
    Effect.orElseSucceed(store.readSnapshot(completeKey(config.profile.name, consent)), () => Option.none()),
    (stored) => (Option.isSome(stored) ? (decodeListings(stored.value.payload)?.listings ?? []) : [])
  )
}

/**
 * Keeps a consent's complete listing of `day` beside the latest one of an earlier day (what a later day whose listing
 * fails plans the pages it could not read from). A listing that cannot be kept is not a failure of the day's: the
 * next day's fallback has less to go on.
 */
const keepComplete = (bank: Bank, consent: Consent, listing: CompleteListing) =>
  Effect.gen(function* () {
    const config = Context.get(bank, BankConfig.BankConfig)
    const store = Context.get(bank, Budget.Budget).store
    const before = (yield* keptListings(bank, consent)).filter((l) => l.day < listing.day).at(-1)
    const listings = before === undefined ? [listing] : [before, listing]
    const now = yield* Clock.currentTimeMillis
    yield* Effect.ignore(
      store.writeSnapshot(completeKey(config.profile.name, consent), {
        payload: JSON.stringify({ version: 1, listings } satisfies KeptListings),
        takenAt: now
      })
    )
  })

/** core's reading of records on `day` in the bank's standard: the orders it can plan. */
const readOn = (config: BankConfig.BankConfig["Service"], records: ReadonlyArray<unknown>, day: string) => {
  const decoder = Orders.decoder({ standard: BankConfig.recordStandard(config), listedOn: LocalDate.parseUnsafe(day) })
  const items = [...decoder.push(JSON.stringify(records))]
  // the records still held and the list's own problems come at its end
  const end = decoder.end()
  if (end._tag === "Success") items.push(...end.success.items)
  return items
}

/** An order whose details are pending and whose list item alone cannot be planned (it names no start). */
interface Pending {
  readonly _tag: "Pending"
  readonly orderId: string
}

/**
 * What core says of a list item it could not plan while its details are pending: `Pending` when it reads as an order
 * once given the start its details carry (`requestedExecutionDate`, the sweep's day standing in), else core's unread
 * or skipped item as first read (its list item is unreadable whatever its details say).
 */
const pendingItem = (
  config: BankConfig.BankConfig["Service"],
  records: ReadonlyArray<{ readonly id: string; readonly item: unknown }>,
  item: Orders.Unread | Orders.Skipped,
  day: string
): Orders.Item | Pending => {
  const record = records.find((o) => o.id === item.orderId)?.item
  if (record === null || typeof record !== "object" || Array.isArray(record) || "requestedExecutionDate" in record) {
    return item
  }
  const again = readOn(config, [{ ...record, requestedExecutionDate: day }], day)
  return again.length > 0 && again.every((i) => i._tag === "Order")
    ? { _tag: "Pending", orderId: item.orderId ?? "" }
    : item
}

/**
 * What is kept of a consent's listing at a bank whose list lacks details (COBS) when the day's listing could not be
 * read whole, as the seed bank's kept pages say it: the orders on the pages the day's attempts kept in the budget
 * store (each with its detail when one is kept), the pages kept and not read, and the orders of the latest complete
 * listing of an earlier day that no page kept today has, matched by orderId (as `standIns` does for the seed bank).
 */
export const detailedKept = (bank: Bank, consent: Consent, day: string, pageSize?: number): Effect.Effect<Kept> =>
  Effect.gen(function* () {
    const config = Context.get(bank, BankConfig.BankConfig)
    const iban = consent.iban === undefined ? undefined : Iban.parse(consent.iban)
    const today = yield* Details.kept({
      consentKey: consent.key,
      pageSize,
      ...(iban === undefined || iban._tag === "Failure" ? {} : { iban: iban.success })
    }).pipe(Effect.provide(bank))
    const complete = today.unread !== undefined && today.unread.length === 0 && today.pages.length > 0
    const earlier = complete ? undefined : (yield* keptListings(bank, consent)).filter((l) => l.day < day).at(-1)
    const seen = new Set(today.orders.map((o) => o.id))
    const plannable = (items: ReadonlyArray<Orders.Item>) => items.filter((i): i is Orders.Order => i._tag === "Order")
    // a kept list item without its detail that core cannot plan is pending, unless unreadable whatever its details
    const pending = new Set(today.orders.filter((o) => o.detail === undefined).map((o) => o.id))
    const items = readOn(
      config,
      today.orders.map((o) => o.detail ?? o.item),
      day
    ).map((i) => (i._tag === "Order" || !pending.has(i.orderId ?? "") ? i : pendingItem(config, today.orders, i, day)))
    const said = items.filter((i): i is Orders.Item => i._tag !== "Pending")
    const standing = earlier === undefined ? [] : earlier.orders.filter((o) => !seen.has(o.id))
    const records = standing.map((o) => ({ id: o.id, item: o.record }))
    const standIns =
      earlier === undefined
        ? []
        : readOn(
            config,
            standing.map((o) => o.record),
            earlier.day
          ).map((i) => (i._tag === "Order" ? i : pendingItem(config, records, i, earlier.day)))
    const before = standIns.filter((i): i is Orders.Item => i._tag !== "Pending")
    // what is kept is said as a whole listing says it: unread, skipped, pending (issue 34)
    const where = (r: { readonly position: string; readonly reason: string }) => ({
      ...r,
      position: `the listing of ${earlier?.day ?? ""}, ${r.position}`
    })
    const detailsPending = [...items, ...standIns].filter((i) => i._tag === "Pending").map((i) => i.orderId)
    return {
      orders: plannable(said),
      pagesKept: today.pages,
      pagesUnread: today.unread,
      earlier: earlier === undefined ? undefined : { day: earlier.day, orders: plannable(before) },
      ...unreadSummary([...unreadItems(said), ...unreadItems(before).map(where)]),
      ...skippedSummary([...skippedItems(said), ...skippedItems(before).map(where)]),
      ...(detailsPending.length === 0 ? {} : { detailsPending }),
      ...warningsSummary([...itemWarnings(said), ...itemWarnings(before)])
    }
  })

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
    readonly unread?: UnreadRecords
    readonly skipped?: SkippedRecords
    readonly warnings?: RecordWarnings
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
    yield* keepComplete(bank, consent, {
      day,
      orders: listing.orders.map((o) => ({ id: o.id, record: o.detail ?? o.item }))
    })
    // core reads each record (its detail when read, else its list item) on the sweep's day;
    // an order whose details are pending that core cannot plan from its list item is reported, never dropped silently;
    // one whose list item core could not read even with the start its details give is unread (or skipped), not
    // pending: its details would not make it an order (issue 34)
    const pending = new Set(listing.pending)
    const items = readOn(
      config,
      listing.orders.map((o) => o.detail ?? o.item),
      day
    ).map((i) =>
      i._tag === "Order" || !pending.has(i.orderId ?? "") ? i : pendingItem(config, listing.orders, i, day)
    )
    const detailsPending = items.filter((i) => i._tag === "Pending").map((i) => i.orderId)
    // a record core cannot read (not one whose details are pending) is said, never dropped silently (issue 34)
    const said = items.filter((i): i is Orders.Item => i._tag !== "Pending")
    const orders = said.filter((i): i is Orders.Order => i._tag === "Order")
    const unread = unreadItems(said)
    // and one read that pays nothing (inactive, ended, no date the rule reaches) is named with core's reason
    return {
      orders,
      pages: listing.pages,
      ...(detailsPending.length === 0 ? {} : { detailsPending }),
      ...unreadSummary(unread),
      ...skippedSummary(skippedItems(said)),
      // the reading's tolerances, losses and defaults, grouped by field and reason (issue 34)
      ...warningsSummary(itemWarnings(said))
    }
  })
