/**
 * The engine of `ForecastFiles`: a JSON file's records read one by one into balances and funds checks, each field
 * read exactly (amounts from a JSON number's text or a decimal string), a record that cannot be read kept with its
 * position and why.
 */
import { BalanceCheck, Iban, Json, LocalDate, Money } from "@tppkit/core"
import { type BigDecimal, Result, Schema } from "effect"
import type * as Forecast from "../Forecast.ts"

/** A record of an input file that could not be read: its position (from 0) and why; its IBAN when that was read. */
export interface Unreadable {
  readonly file: string
  readonly index: number
  readonly reason: string
  readonly iban?: string | undefined
}

/** What a file gave: the records read, and those that could not be. */
export interface Read<A> {
  readonly records: ReadonlyArray<A>
  readonly unreadable: ReadonlyArray<Unreadable>
}

type Value = Json.Value
type Obj = { readonly [key: string]: Value }

const isObject = (v: Value | undefined): v is Obj =>
  typeof v === "object" && v !== null && !Array.isArray(v) && !Json.isNumberText(v)

/** An exact amount from a JSON number or a decimal string. */
const amountOf = (v: Value | undefined, field: string): Result.Result<BigDecimal.BigDecimal, string> => {
  if (Json.isNumberText(v)) return Result.mapError(Money.fromNumberText(v.text), (r) => `${field}: ${r}`)
  if (typeof v === "string") return Result.mapError(Money.parse(v.trim()), (r) => `${field}: ${r}`)
  return Result.fail(`${field}: expected a number or a decimal string`)
}

const stringOf = (v: Value | undefined, field: string): Result.Result<string, string> =>
  typeof v === "string" && v.trim().length > 0 ? Result.succeed(v.trim()) : Result.fail(`${field}: expected a text`)

const dateOf = (v: Value | undefined, field: string): Result.Result<LocalDate.LocalDate, string> =>
  Result.flatMap(stringOf(v, field), (s) => Result.mapError(LocalDate.parse(s), (r) => `${field}: ${r}`))

const currencyOf = (v: Value | undefined): Result.Result<string, string> =>
  Result.flatMap(stringOf(v, "currency"), (s) =>
    /^[A-Z]{3}$/.test(s) ? Result.succeed(s) : Result.fail(`currency: ${JSON.stringify(s)} is not an ISO 4217 code`)
  )

const ibanOf = (v: Value | undefined, field: string): Result.Result<string, string> =>
  Result.flatMap(stringOf(v, field), (s) => {
    const iban = s.replace(/\s+/g, "").toUpperCase()
    return Iban.isValid(iban) ? Result.succeed(iban) : Result.fail(`${field}: ${JSON.stringify(s)} is not an IBAN`)
  })

/** The records of a JSON file: a bare array or the array under `key`, or why the text is neither. */
const recordsOf = (bytes: Uint8Array | string, key: string): Result.Result<ReadonlyArray<Value>, string> =>
  Result.flatMap(
    Result.mapError(Json.parse(bytes), (f) => f.message),
    (doc): Result.Result<ReadonlyArray<Value>, string> => {
      const v = doc.value
      if (Array.isArray(v)) return Result.succeed(v as ReadonlyArray<Value>)
      if (isObject(v) && Array.isArray(v[key])) return Result.succeed(v[key] as ReadonlyArray<Value>)
      return Result.fail(`expected a JSON array of records or an object with "${key}"`)
    }
  )

const readEach = <A>(
  file: string,
  records: ReadonlyArray<Value>,
  one: (record: Obj) => Result.Result<A, string>,
  ibanField?: string
): Read<A> => {
  const out: Array<A> = []
  const unreadable: Array<Unreadable> = []
  records.forEach((r, index) => {
    const read = isObject(r) ? one(r) : Result.fail("expected an object")
    if (Result.isSuccess(read)) out.push(read.success)
    else {
      const iban = ibanField === undefined || !isObject(r) ? undefined : ibanOf(r[ibanField], ibanField)
      unreadable.push({
        file,
        index,
        reason: read.failure,
        ...(iban !== undefined && Result.isSuccess(iban) ? { iban: iban.success } : {})
      })
    }
  })
  return { records: out, unreadable }
}

/** The accounts of unreadable balance records, with why (see `ForecastFiles.unusableBalances`). */
export const unusableBalances = (
  unreadable: ReadonlyArray<Unreadable>
): Array<{ readonly iban: string; readonly reason: string }> =>
  unreadable.flatMap((u) =>
    u.iban === undefined
      ? []
      : [{ iban: u.iban, reason: `its balance (${u.file} #${u.index + 1}) could not be read: ${u.reason}` }]
  )

/** A balances file read (see `ForecastFiles.balances`), or why its text is no list of records. */
export const balances = (file: string, bytes: Uint8Array | string): Result.Result<Read<Forecast.Balance>, string> =>
  Result.map(recordsOf(bytes, "balances"), (records) => {
    const seen = new Set<string>()
    return readEach(
      file,
      records,
      (r) =>
        Result.gen(function* () {
          const iban = yield* ibanOf(r.iban, "iban")
          if (seen.has(iban)) return yield* Result.fail(`the balance of ${iban} is given again (the first one is used)`)
          const balance: Forecast.Balance = {
            iban,
            currency: yield* currencyOf(r.currency),
            amount: yield* amountOf(r.amount, "amount"),
            date: yield* dateOf(r.date, "date"),
            ...(r.threshold === undefined || r.threshold === null
              ? {}
              : { threshold: yield* amountOf(r.threshold, "threshold") })
          }
          seen.add(iban)
          return balance
        }),
      "iban"
    )
  })

const isAnswer = Schema.is(BalanceCheck.Answer)

/** A funds-checks file read (see `ForecastFiles.checks`), or why its text is no list of records. */
export const checks = (file: string, bytes: Uint8Array | string): Result.Result<Read<Forecast.Check>, string> =>
  Result.map(recordsOf(bytes, "checks"), (records) =>
    readEach(file, records, (r) =>
      Result.gen(function* () {
        const answer = r.answer
        if (!isAnswer(answer)) return yield* Result.fail("answer: expected APPR or DECL")
        return {
          orderId: yield* stringOf(r.orderId, "orderId"),
          executionDate: yield* dateOf(r.executionDate, "executionDate"),
          debtorIban: yield* ibanOf(r.debtorIban, "debtorIban"),
          amount: yield* amountOf(r.amount, "amount"),
          currency: yield* currencyOf(r.currency),
          checkedOn: yield* dateOf(r.checkedOn, "checkedOn"),
          answer
        }
      })
    )
  )
