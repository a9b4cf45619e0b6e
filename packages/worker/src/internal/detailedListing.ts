/**
 * The engine of `BankSources.detailedListing`: a consent's listing through a bank whose profile is not the seed
 * bank's (COBS), the customer's token renewed from the refresh token the fleet keeps, every page and the details
 * within the daily budget (http's `Details.list`), each record read by core.
 */
import { Iban, LocalDate, Orders } from "@tppkit/core"
import { BankConfig, BankTransport, Details, type PsuContext, TokenService } from "@tppkit/http"
import type { Projection } from "@tppkit/schedule"
import { Context, Effect, Option, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"
import type { Bank } from "../BankSources.ts"
import { ChecksError } from "../Checks.ts"
import * as Consents from "../Consents.ts"
import { type Consent, InvalidIban, ListingFailed, NoGrant } from "../Sweep.ts"

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
