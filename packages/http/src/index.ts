/**
 * @tppkit/http: Effect services for the bank's token, balance-check and standing-order operations.
 *
 * @since 0.1.0
 */

/** The bank client: balance check and standing-order list (one page or all pages). */
export * as BankClient from "./BankClient.ts"
/** The configuration: environment, base address, credentials, timeouts, retries, budget zone, mutual TLS. */
export * as BankConfig from "./BankConfig.ts"
/** The error family `BankError` and its tagged reasons. */
export * as BankError from "./BankError.ts"
/** How requests reach the bank: over any effect HttpClient, or undici directly. */
export * as BankTransport from "./BankTransport.ts"
/** The daily budget of unattended standing-order calls. */
export * as Budget from "./Budget.ts"
/** Where the budget lives: the store contract, in memory or in an SQLite file. */
export * as BudgetStore from "./BudgetStore.ts"
/** Details within the daily budget: a profile's orders whose list lacks what a projection needs, asked once each. */
export * as Details from "./Details.ts"
/** The classes of a bank call's failure (refused, unavailable, …) and which are transient; light to import. */
export * as FailureClass from "./FailureClass.ts"
/** The per-call PSU context and its headers. */
export * as PsuContext from "./PsuContext.ts"
/** Client-credentials tokens and the token provider. */
export * as TokenService from "./TokenService.ts"
