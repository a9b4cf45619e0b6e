/**
 * Alphabetic currency codes (ISO 4217) and country codes (ISO 3166-1 alpha-2). The bank's own document names
 * "ISO 4712" for `amount.currency`, which tppkit reads as ISO 4217 (docs/bank-interface.md, "Balance check";
 * README.md, "Wire formats").
 *
 * @since 0.1.0
 */
import { type Brand, Result, Schema } from "effect"

/** A currency code: three upper-case letters, e.g. `EUR` (ISO 4217). */
export type CurrencyCode = string & Brand.Brand<"CurrencyCode">

/** A country code: two upper-case letters, e.g. `SK` (ISO 3166-1 alpha-2). */
export type CountryCode = string & Brand.Brand<"CountryCode">

const currencyCodePattern = /^[A-Z]{3}$/

/** Whether a text is a currency code (three upper-case letters, ISO 4217). */
export const isCurrencyCode = (text: string): text is CurrencyCode => currencyCodePattern.test(text)

/**
 * A currency code on the wire: exactly three upper-case letters (README.md, "Wire formats"; `eur` or `EURO` are
 * rejected before sending, never corrected silently).
 */
export const CurrencyCode = Schema.String.check(
  Schema.isPattern(currencyCodePattern, { message: "currency must be three upper-case letters (ISO 4217)" })
).pipe(Schema.brand("CurrencyCode"))

/**
 * A country code on the wire: exactly two upper-case letters (docs/bank-interface.md, "Balance check":
 * `tradingParty.countryCode`).
 */
export const CountryCode = Schema.String.check(
  Schema.isPattern(/^[A-Z]{2}$/, { message: "country code must be two upper-case letters (ISO 3166)" })
).pipe(Schema.brand("CountryCode"))

/** Parses a currency code, or explains why it is not one. */
export const parseCurrency = (text: string): Result.Result<CurrencyCode, string> =>
  isCurrencyCode(text)
    ? Result.succeed(text)
    : Result.fail(`"${text}" is not a currency code (three upper-case letters, ISO 4217)`)

/** Parses a country code, or explains why it is not one. */
export const parseCountry = (text: string): Result.Result<CountryCode, string> =>
  /^[A-Z]{2}$/.test(text)
    ? Result.succeed(text as CountryCode)
    : Result.fail(`"${text}" is not a country code (two upper-case letters, ISO 3166)`)

/** The euro, the currency of the reference examples. */
export const EUR = "EUR" as CurrencyCode

/**
 * The currencies whose minor unit is not 2 digits (ISO 4217's list of codes, "Minor unit"): 0 (yen, won, …), 3
 * (Bahraini, Kuwaiti dinar, …), 4 (the Chilean and Uruguayan units of account); the precious metals, SDR and the
 * testing and no-currency codes have none.
 */
const minorDigits: ReadonlyMap<string, number | undefined> = new Map<string, number | undefined>([
  ...[
    "BIF",
    "CLP",
    "DJF",
    "GNF",
    "ISK",
    "JPY",
    "KMF",
    "KRW",
    "PYG",
    "RWF",
    "UGX",
    "UYI",
    "VND",
    "VUV",
    "XAF",
    "XOF",
    "XPF"
  ].map((c): [string, number] => [c, 0]),
  ...["BHD", "IQD", "JOD", "KWD", "LYD", "OMR", "TND"].map((c): [string, number] => [c, 3]),
  ...["CLF", "UYW"].map((c): [string, number] => [c, 4]),
  ...["XAG", "XAU", "XBA", "XBB", "XBC", "XBD", "XDR", "XPD", "XPT", "XSU", "XTS", "XUA", "XXX"].map(
    (c): [string, undefined] => [c, undefined]
  )
])

/**
 * The digits of a currency's minor unit (ISO 4217): 2 for EUR and CZK, 0 for JPY, 3 for BHD; `undefined` for a
 * code without a minor unit (gold `XAU`, `XXX`) and for a code that is not three upper-case letters. A well-formed
 * code the table does not list other than 2 is taken as 2, the minor unit of all but the listed currencies.
 */
export const minorUnits = (code: string): number | undefined =>
  minorDigits.has(code) ? minorDigits.get(code) : isCurrencyCode(code) ? 2 : undefined
