/**
 * What a source does not carry about its accounts (packages/core/README.md, "Whole records"): a UK `AccountId`, a
 * COBS `debtorAccount.id`, a YNAB or Actual account id mapped to the account's IBAN and currency, from one file the
 * user writes (`{ "22289": { "iban": "GB33BUKB20201555555555", "currency": "GBP" } }`). `resolve` applies it to a
 * whole record's reading: each party's IBAN, and the amount's currency where the record has none (YNAB, Actual).
 *
 * @since 0.3.0
 */
import { Result } from "effect"
import * as Iban from "./Iban.ts"
import type * as SourceRecord from "./SourceRecord.ts"

/** One account: its IBAN and its currency, each when the file gives it. */
export interface Entry {
  readonly iban?: string | undefined
  readonly currency?: string | undefined
}

/** Account ids mapped to their IBAN and currency. */
export type AccountMap = ReadonlyMap<string, Entry>

/** No mapping: every order keeps the source's account ids. */
export const empty: AccountMap = new Map()

/** The flag that gives the accounts file on the command line, as messages name it. */
export const FLAG = "--accounts"

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

/** The mapping of an accounts file's text ({@link decode}): text that is no JSON is one problem, `not JSON: …`. */
export const parse = (text: string): Result.Result<AccountMap, ReadonlyArray<string>> => {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (e) {
    return Result.fail([`not JSON: ${(e as Error).message}`])
  }
  return decode(json)
}

/**
 * The mapping of a parsed accounts file: an object whose keys are account ids and whose values give `iban` (checked:
 * country length and mod-97) and/or `currency` (ISO 4217). Every wrong entry is named (`22289.iban: …`).
 */
export const decode = (json: unknown): Result.Result<AccountMap, ReadonlyArray<string>> => {
  if (!isObject(json)) {
    return Result.fail([
      'expected an object of account ids, e.g. { "22289": { "iban": "GB33BUKB20201555555555", "currency": "GBP" } }'
    ])
  }
  const problems: Array<string> = []
  const map = new Map<string, Entry>()
  for (const [id, value] of Object.entries(json)) {
    if (!isObject(value)) {
      problems.push(`${id}: expected an object with iban and/or currency`)
      continue
    }
    const entry: { iban?: string; currency?: string } = {}
    if (value.iban !== undefined) {
      const iban = typeof value.iban === "string" ? Iban.parse(value.iban) : Result.fail("expected text")
      if (Result.isFailure(iban)) problems.push(`${id}.iban: ${iban.failure}`)
      else entry.iban = iban.success
    }
    if (value.currency !== undefined) {
      if (typeof value.currency === "string" && /^[A-Z]{3}$/.test(value.currency)) entry.currency = value.currency
      else problems.push(`${id}.currency: expected three capital letters (ISO 4217)`)
    }
    const unknown = Object.keys(value).filter((k) => k !== "iban" && k !== "currency")
    if (unknown.length > 0) problems.push(`${id}: unknown field ${unknown.join(", ")} (expected iban, currency)`)
    if (value.iban === undefined && value.currency === undefined) problems.push(`${id}: expected iban and/or currency`)
    map.set(id, entry)
  }
  return problems.length === 0 ? Result.succeed(map) : Result.fail(problems)
}

/** A party with its account's IBAN and currency from the map, when the map knows its id. */
const mapParty = (map: AccountMap, party: SourceRecord.Party): SourceRecord.Party => {
  const account = party.account
  if (account === undefined) return party
  const entry = map.get(account.id)
  if (entry === undefined) return party
  return {
    ...party,
    account: {
      ...account,
      ...(entry.iban === undefined ? {} : { iban: entry.iban }),
      ...(entry.currency === undefined || account.currency !== undefined ? {} : { currency: entry.currency })
    }
  }
}

/** A reading resolved: its parties' IBANs and its amount's currency, or why the order cannot be projected. */
export type Resolved =
  | {
      readonly _tag: "Resolved"
      readonly reading: SourceRecord.Reading & { readonly amount: { readonly currency: string } }
    }
  | { readonly _tag: "Unresolved"; readonly reason: string }

/**
 * A reading with the map applied: each party's IBAN (an account id the map knows), and the amount's currency where the
 * record gives none: the app's account's (the payer's for money out, the payee's for money in). Without a currency the
 * order cannot be projected, and the reason names the account and the flag ({@link FLAG}).
 */
export const resolve = (map: AccountMap, reading: SourceRecord.Reading): Resolved => {
  const debtor = mapParty(map, reading.debtor)
  const creditor = mapParty(map, reading.creditor)
  const own = reading.direction === "out" ? debtor : creditor
  const currency = reading.amount.currency ?? own.account?.currency
  if (currency === undefined) {
    const id = own.account?.id
    return {
      _tag: "Unresolved",
      reason:
        id === undefined
          ? `the record gives no currency and no account: tppkit expects the amount's currency`
          : `the record gives no currency: tppkit expects the currency of account ${id} in the accounts file (${FLAG} FILE)`
    }
  }
  return {
    _tag: "Resolved",
    reading: { ...reading, debtor, creditor, amount: { ...reading.amount, currency } }
  }
}
