/**
 * The worker's two bank operations over http's `BankClient`: the balance check of one payment (the funds check's
 * activity), whose failure is the bank client's `BankError` itself (kept as data with the check), and the unattended
 * standing-order listing of one consent (the sweep's), whose `BankError` the sweep's `ListingFailed` keeps as data.
 *
 * @since 0.1.0
 */
import { Currency, Iban } from "@tppkit/core"
import { BankClient, type PsuContext } from "@tppkit/http"
import { BigDecimal, Effect, Layer, Stream } from "effect"
import * as CheckFailure from "./CheckFailure.ts"
import { BalanceChecker } from "./FundsCheckWorkflow.ts"
import { InvalidIban, ListingFailed, OrderSource } from "./Sweep.ts"

/** The balance checker over the bank client: the payment's amount on its debtor IBAN, with the given Correlation-ID. */
export const balanceChecker = (psu: PsuContext.PsuContext): Layer.Layer<BalanceChecker, never, BankClient.BankClient> =>
  Layer.effect(
    BalanceChecker,
    Effect.map(Effect.service(BankClient.BankClient), (client) =>
      BalanceChecker.of({
        check: (due, correlationId) =>
          Effect.gen(function* () {
            const amount = BigDecimal.fromString(due.amount)
            const iban = Iban.parse(due.debtorIban)
            const currency = due.currency
            if (amount._tag === "None" || iban._tag === "Failure" || !Currency.isCurrencyCode(currency)) {
              return yield* new CheckFailure.InvalidPayment({
                amount: due.amount,
                currency: due.currency,
                debtorIban: due.debtorIban
              })
            }
            const reply = yield* client.balanceCheck(
              {
                instructionIdentification: `${due.orderId}/${due.nominalDate}`.slice(0, 35),
                iban: iban.success,
                amount: { value: amount.value, currency }
              },
              { psu, correlationId }
            )
            return {
              answer: reply.body.response,
              requestId: reply.identity.requestId,
              responseId: reply.identity.responseId
            }
          })
      })
    )
  )

/** How the sweep lists: the page size (default 100, the fewest requests). */
export interface ListingOptions {
  readonly pageSize?: number | undefined
}

/**
 * The order source over the bank client: every page of a consent's standing orders, unattended (budget spent). The
 * sweep owns the listing, so it resumes: the pages an earlier try read (this run, an earlier run of the day, or
 * another worker before the shards moved) are kept in the fleet's budget store, and a try asks the bank only for the
 * pages it lacks (docs/bank-interface.md, "Daily limit").
 */
export const orderSource = (
  psu: PsuContext.PsuContext,
  options: ListingOptions = {}
): Layer.Layer<OrderSource, never, BankClient.BankClient> =>
  Layer.effect(
    OrderSource,
    Effect.map(Effect.service(BankClient.BankClient), (client) =>
      OrderSource.of({
        list: (consent) =>
          Effect.gen(function* () {
            const iban = consent.iban === undefined ? undefined : Iban.parse(consent.iban)
            if (iban !== undefined && iban._tag === "Failure") {
              const failure = new InvalidIban({ iban: consent.iban ?? "" })
              return yield* new ListingFailed({ consent: consent.key, failure })
            }
            const pages = yield* Stream.runCollect(
              client.standingOrders({
                psu,
                consentKey: consent.key,
                resume: true,
                ...(options.pageSize === undefined ? {} : { pageSize: options.pageSize }),
                ...(iban === undefined ? {} : { iban: iban.success })
              })
            )
            return { orders: pages.flatMap((p) => p.body.orders), pages: pages.length }
          }).pipe(
            Effect.catchTag("BankError", (failure) => Effect.fail(new ListingFailed({ consent: consent.key, failure })))
          )
      })
    )
  )
