/**
 * The fixture format of the mock bank (the model `Fixtures` re-exports): clients with their rights, accounts with
 * balances and consents, standing orders in the bank's wire form, and a set as loaded.
 */
import { StandingOrder as CoreStandingOrder, Currency, Iban, LocalDate } from "@tppkit/core"
import { Schema } from "effect"

/**
 * A right a client received at enrolment, which is also the token scope it may ask for (docs/bank-interface.md,
 * "Token").
 */
export const Right = Schema.Literals(["PISP", "PIISP", "AISP"])

/** A client right / token scope. */
export type Right = typeof Right.Type

/** An enrolled TPP: its client id and secret, its rights, and the accounts its AISP tokens are bound to. */
export const Client = Schema.Struct({
  clientId: Schema.String.check(Schema.isNonEmpty()),
  clientSecret: Schema.String.check(Schema.isNonEmpty()),
  rights: Schema.Array(Right),
  aispAccounts: Schema.Array(Iban.Iban)
})

/** An enrolled TPP, as written in a fixture file. */
export type Client = typeof Client.Encoded

/** An enrolled TPP as loaded. */
export type LoadedClient = typeof Client.Type

/**
 * How the account holder consented (docs/bank-interface.md, "Balance check"): at a branch, electronically (90 days),
 * or not at all.
 */
export const ConsentKind = Schema.Literals(["branch", "electronic", "none"])

/** A consent kind. */
export type ConsentKind = typeof ConsentKind.Type

/** A consent; an electronic one without `grantedOn` counts as granted on the day the sandbox starts. */
export const Consent = Schema.Struct({
  kind: ConsentKind,
  grantedOn: Schema.optionalKey(LocalDate.IsoDateString)
})

/** A consent. */
export type Consent = typeof Consent.Type

/** A decimal amount written as text, e.g. `"1250.50"` (exact; never a binary float). */
export const Decimal = Schema.String.check(Schema.isPattern(/^-?\d{1,15}(\.\d{1,2})?$/))

/** An account of the bank: IBAN, owner, currency, available balance and the consent for balance checks. */
export const Account = Schema.Struct({
  iban: Iban.Iban,
  owner: Schema.String.check(Schema.isMaxLength(70)),
  currency: Currency.CurrencyCode,
  balance: Decimal,
  consent: Consent
})

/** An account, as written in a fixture file. */
export type Account = typeof Account.Encoded

/** An account as loaded. */
export type LoadedAccount = typeof Account.Type

/** One standing order as the bank sends it: core's schema. */
export const StandingOrder = CoreStandingOrder.StandingOrder

type WithoutNull<T> = T extends object ? { readonly [K in keyof T]: WithoutNull<Exclude<T[K], null>> } : T

/** A standing order as written in a fixture file: the wire form of the bank's list answer (absent fields left out). */
export type StandingOrder = WithoutNull<typeof CoreStandingOrder.StandingOrder.Encoded>

/** The whole fixture file. */
export const Fixtures = Schema.Struct({
  clients: Schema.Array(Client).check(Schema.isMinLength(1)),
  accounts: Schema.Array(Account),
  standingOrders: Schema.Array(StandingOrder)
})

/** A fixture set, as written in a fixture file. */
export interface Fixtures {
  readonly clients: ReadonlyArray<Client>
  readonly accounts: ReadonlyArray<Account>
  readonly standingOrders: ReadonlyArray<StandingOrder>
}

/** A fixture set as loaded by {@link decode}: IBANs normalised, standing orders as core's `StandingOrder` values. */
export type Loaded = typeof Fixtures.Type & { readonly _tag: "Loaded" }

/** Whether a fixture set is already loaded (so that it is not decoded a second time). */
export const isLoaded = (fixtures: Fixtures | Loaded): fixtures is Loaded =>
  "_tag" in fixtures && fixtures._tag === "Loaded"
