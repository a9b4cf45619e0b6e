/**
 * What the whole-record readers share (`SourceRecord`): the reading's types, tolerant access to a record's fields (a
 * JSON value of the exact reader, numbers as `NumberText`, or of `JSON.parse`), exact amounts from a number's text,
 * account identifiers, and the collector of warnings and missing fields each reader fills.
 */
import { BigDecimal, Result } from "effect"
import type * as Decoded from "../../Decoded.ts"
import * as Iban from "../../Iban.ts"
import type * as LocalDate from "../../LocalDate.ts"
import * as Money from "../../Money.ts"
import type * as Standard from "../../Standard.ts"
import { NumberText } from "../json.ts"
import * as Standards from "../standards.ts"

/** An account as a source names it: the identifier as given, its scheme, and its IBAN and currency when known. */
export interface Account {
  readonly id: string
  readonly scheme: string
  readonly iban?: string | undefined
  readonly currency?: string | undefined
}

/**
 * A payer or payee: the account, when the source names one, and the name, when it gives one. Schemes: `iban`, `cz` (a
 * Czech account number `prefix-number/bank`), `account-id` (a bank's API id: COBS `debtorAccount.id`, UK
 * `AccountId`), a UK `SchemeName` as given, a Berlin Group key (`bban`, `pan`, `maskedPan`, `msisdn`), `ynab`,
 * `actual` (an app's account id), `actual-payee`, `other`.
 */
export interface Party {
  readonly account?: Account | undefined
  readonly name?: string | undefined
}

/** An amount read exactly from its text, always positive (the direction says which way it goes), and its currency. */
export interface Amount {
  readonly value: BigDecimal.BigDecimal
  readonly currency?: string | undefined
}

/** A field the source leaves out that tppkit needs: the field as the source calls it, what tppkit expects, and what follows. */
export interface Missing {
  readonly field: string
  readonly expected: string
  readonly consequence: string
}

/** One standing order of a source, read whole. */
export interface Reading {
  readonly standard: Standard.Standard
  readonly orderId: string | undefined
  /** The record the standard's schedule decoder reads (`Standard.decode` with `standard`). */
  readonly schedule: unknown
  /** The date to count from where the record names none (a COBS list item: the listing day). */
  readonly start?: LocalDate.LocalDate | undefined
  /** The amount of every payment (UK: the next one's). */
  readonly amount: Amount
  /** UK: the first and the final payment's own amounts, when they differ from `amount`. */
  readonly firstAmount?: Amount | undefined
  readonly finalAmount?: Amount | undefined
  /** `out`: the debtor's account pays; `in`: money comes into the creditor's account (YNAB, Actual positive amounts). */
  readonly direction: "out" | "in"
  readonly debtor: Party
  readonly creditor: Party
  /** The source's own text for the order (COBS alias, UK reference, YNAB memo, Actual name). */
  readonly text?: string | undefined
  /** The source's own next date: the bank's (or app's) word, like the seed bank's `nextDate`. */
  readonly nextDate?: LocalDate.LocalDate | undefined
  /** Whether `nextDate` is an execution date already moved off a weekend (Actual), not a nominal date. */
  readonly nextDateMoved?: boolean | undefined
  readonly warnings: ReadonlyArray<Decoded.Warning>
  readonly missing: ReadonlyArray<Missing>
}

/** A record read: an order, or why it is no order to project (inactive, deleted, no amount, …). */
export type Read =
  | { readonly _tag: "Order"; readonly reading: Reading }
  | {
      readonly _tag: "Skipped"
      readonly standard: Standard.Standard
      readonly orderId: string | undefined
      readonly reason: string
    }

/** What a reader may be told: the listing day (COBS list items name no start), the listed account (Berlin Group AIS). */
export interface Context {
  readonly listedOn?: LocalDate.LocalDate | undefined
  readonly account?: unknown
}

export const isObject = (u: unknown): u is Record<string, unknown> =>
  typeof u === "object" && u !== null && !Array.isArray(u) && !(u instanceof NumberText)

/** The object at a path of keys, or undefined. */
export const objectAt = (u: unknown, ...path: ReadonlyArray<string>): Record<string, unknown> | undefined => {
  let at: unknown = u
  for (const k of path) {
    if (!isObject(at)) return undefined
    at = at[k]
  }
  return isObject(at) ? at : undefined
}

/** A text field: a non-empty string (trimmed), or a number written as its text; undefined when absent or null. */
export const textOf = (u: unknown): string | undefined => {
  if (typeof u === "string") {
    const t = u.trim()
    return t.length === 0 ? undefined : t
  }
  if (u instanceof NumberText) return u.text
  if (typeof u === "number" && Number.isFinite(u)) return String(u)
  return undefined
}

/** Collects a reading's warnings and missing fields. */
export class Notes {
  readonly warnings: Array<Decoded.Warning> = []
  readonly missing: Array<Missing> = []
  warn(field: string, received: unknown, read: string, why: string): void {
    this.warnings.push({ field, received: Standards.show(received), read, why })
  }
  lack(field: string, expected: string, consequence: string): void {
    this.missing.push({ field, expected, consequence })
  }
}

/**
 * An amount's signed value, exactly from its text: a JSON number (its source text when the exact reader read it) or
 * decimal text (`"650.00"`, `"-1.50"`); the reason when it is neither.
 */
export const signedAmount = (u: unknown): Result.Result<BigDecimal.BigDecimal, string> => {
  if (u instanceof NumberText) return Money.fromNumberText(u.text)
  if (typeof u === "number") {
    const v = Money.fromJsonNumber(u)
    return v === undefined ? Result.fail(`${u} is not a finite number`) : Result.succeed(v)
  }
  if (typeof u === "string") return Money.parse(u.trim())
  return Result.fail(`${Standards.show(u)} is not a number`)
}

/** An integer amount of minor units (YNAB milliunits: 3, Actual cents: 2) as its exact decimal. */
export const minorUnits = (u: unknown, decimals: number): Result.Result<BigDecimal.BigDecimal, string> => {
  const text = u instanceof NumberText ? u.text : typeof u === "number" ? String(u) : undefined
  if (text === undefined || !/^-?\d{1,18}$/.test(text)) return Result.fail(`${Standards.show(u)} is not a whole number`)
  return Result.succeed(BigDecimal.normalize(BigDecimal.make(BigInt(text), decimals)))
}

/** A currency code as given (`[A-Z]{3}`), with a warning when it had to be upper-cased; undefined when absent or bad. */
export const currencyOf = (u: unknown, field: string, notes: Notes): string | undefined => {
  if (typeof u !== "string") return undefined
  const c = u.trim().toUpperCase()
  if (!/^[A-Z]{3}$/.test(c)) {
    notes.warn(field, u, "absent", "a currency is three letters (ISO 4217)")
    return undefined
  }
  if (c !== u) notes.warn(field, u, c, "currency codes are upper case")
  return c
}

/** An IBAN account of a text that is one (normalised, checked), else undefined. */
export const ibanAccount = (text: string, currency?: string): Account | undefined => {
  const r = Iban.parse(text)
  if (Result.isFailure(r)) return undefined
  return { id: r.success, scheme: "iban", iban: r.success, ...(currency === undefined ? {} : { currency }) }
}

/**
 * An account the source names by its own id (a bank's API id, an app's account): with its IBAN when the id is itself
 * a valid IBAN (as tppkit's own translations write it), else the id alone.
 */
export const idAccount = (id: string, scheme: string, currency?: string): Account => {
  const iban = Iban.parse(id)
  return {
    id,
    scheme,
    ...(Result.isSuccess(iban) ? { iban: iban.success } : {}),
    ...(currency === undefined ? {} : { currency })
  }
}

/** The absolute value of an amount and whether it was negative. */
export const magnitude = (
  v: BigDecimal.BigDecimal
): { readonly value: BigDecimal.BigDecimal; readonly negative: boolean } =>
  BigDecimal.isNegative(v) ? { value: BigDecimal.negate(v), negative: true } : { value: v, negative: false }

/** A date field read as its calendar date (a warning when it is none). */
export const dateOf = (u: unknown, field: string, notes: Notes): LocalDate.LocalDate | undefined =>
  Standards.readDate(u, field, notes.warnings)

/** A reading, with its notes. */
export const order = (reading: Omit<Reading, "warnings" | "missing">, notes: Notes): Read => ({
  _tag: "Order",
  reading: { ...reading, warnings: notes.warnings, missing: notes.missing }
})

/** A record that is no order to project, with the reason. */
export const skipped = (standard: Standard.Standard, orderId: string | undefined, reason: string): Read => ({
  _tag: "Skipped",
  standard,
  orderId,
  reason
})

/** A missing field as the reason of a skipped record: "FIELD is missing: tppkit expects …". */
export const missingReason = (field: string, expected: string): string =>
  `${field} is missing: tppkit expects ${expected}`
