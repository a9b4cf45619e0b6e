/**
 * The engine of `ForecastFiles`: a JSON file's records decoded one by one, each by a Schema built on core's (`Iban`,
 * `Currency.CurrencyCode`, `LocalDate`, `BalanceCheck.Answer`; amounts read exactly by `Money.fromNumberText` and
 * `Money.parse`); a record that cannot be decoded is kept with its position, the field at fault and why, and never
 * stops the others.
 */
import { BalanceCheck, Currency, Iban, Json, LocalDate, Money, SchemaProblem } from "@tppkit/core"
import { Effect, Result, Schema, SchemaIssue, SchemaTransformation } from "effect"
import type * as Forecast from "../Forecast.ts"

/**
 * A record of an input file that could not be read: its position (from 0), the field at fault (none when the record
 * as a whole is, e.g. no object, or an account given again) and why (`field: …`); its IBAN when that was read.
 */
export interface Unreadable {
  readonly file: string
  readonly index: number
  readonly field?: string | undefined
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

const EXPECTED_TEXT = "expected a text"

/** Text trimmed of the spaces around it, not empty. */
const Text = Schema.String.annotate({ message: EXPECTED_TEXT }).pipe(
  Schema.decodeTo(Schema.String.check(Schema.isNonEmpty({ message: EXPECTED_TEXT })), SchemaTransformation.trim())
)

/** A required field: its absence said as a wrong value is. */
const required = <S extends Schema.Top>(schema: S, missing: string) =>
  schema.pipe(Schema.annotateKey({ messageMissingKey: missing }))

/** An IBAN in print or electronic form, read as core's `Iban` (spaces removed, upper case, checked). */
const IbanText = Text.pipe(Schema.decodeTo(Iban.Iban))

const EXPECTED_AMOUNT = "expected a number or a decimal string"

const exact = (r: Result.Result<Money.Amount, string>) =>
  Result.isSuccess(r) ? Effect.succeed(r.success) : Effect.fail(new SchemaIssue.InvalidValue({ message: r.failure }))

/**
 * An exact amount: a JSON number read digit for digit from its text (`Json.parse` keeps it), or a decimal string
 * (spaces around it ignored); never a float.
 */
const Amount = Schema.declare(
  (u: unknown): u is Json.NumberText | string => typeof u === "string" || Json.isNumberText(u),
  { message: EXPECTED_AMOUNT }
).pipe(
  Schema.decodeTo(
    Schema.BigDecimal,
    SchemaTransformation.transformEffect({
      decode: (v: Json.NumberText | string) =>
        exact(typeof v === "string" ? Money.parse(v.trim()) : Money.fromNumberText(v.text)),
      encode: (amount: Money.Amount) => Effect.succeed(Money.toPlainString(amount))
    })
  )
)

/** A balances file's record: the balance of `iban` at the start of `date`, before that day's payments. */
export const BalanceRecord = Schema.Struct({
  iban: required(IbanText, EXPECTED_TEXT),
  currency: required(Text.pipe(Schema.decodeTo(Currency.CurrencyCode)), EXPECTED_TEXT),
  amount: required(Amount, EXPECTED_AMOUNT),
  date: required(Text.pipe(Schema.decodeTo(LocalDate.LocalDate)), EXPECTED_TEXT),
  threshold: Schema.optional(Schema.NullOr(Amount))
})

/** A funds-checks file's record: the bank's answer on `checkedOn` for a payment. */
export const CheckRecord = Schema.Struct({
  answer: required(BalanceCheck.Answer.annotate({ message: "expected APPR or DECL" }), "expected APPR or DECL"),
  orderId: required(Text, EXPECTED_TEXT),
  executionDate: required(Text.pipe(Schema.decodeTo(LocalDate.LocalDate)), EXPECTED_TEXT),
  debtorIban: required(IbanText, EXPECTED_TEXT),
  amount: required(Amount, EXPECTED_AMOUNT),
  currency: required(Text.pipe(Schema.decodeTo(Currency.CurrencyCode)), EXPECTED_TEXT),
  checkedOn: required(Text.pipe(Schema.decodeTo(LocalDate.LocalDate)), EXPECTED_TEXT)
})

/** The text a record's field held, as it may be shown in a reason (JSON-quoted, so no control character is raw). */
const given = (v: Value | undefined): string | undefined => {
  if (typeof v !== "string") return undefined
  const quoted = JSON.stringify(v.length <= 40 ? v : `${v.slice(0, 37)}...`)
  return quoted
}

/** Why a record could not be decoded: the field first, then the reason, with the text given when it does not say it. */
const reasonOf = (record: Obj, issue: SchemaIssue.Issue): { readonly field?: string; readonly reason: string } => {
  const problem = SchemaProblem.first(issue)
  if (problem.path === undefined) return { reason: problem.message }
  const text = given(record[problem.path])
  const said = text === undefined || problem.message.includes(text) ? "" : `, got ${text}`
  return { field: problem.path, reason: `${problem.path}: ${problem.message}${said}` }
}

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

const decodeIban = Schema.decodeUnknownResult(IbanText)

/** Each record decoded by `schema` on its own, then made a domain value by `use`; one that fails is kept aside. */
const readEach = <S extends Schema.Decoder<unknown>, A>(
  file: string,
  records: ReadonlyArray<Value>,
  schema: S,
  use: (decoded: S["Type"]) => Result.Result<A, string>,
  ibanField?: string
): Read<A> => {
  const decode = Schema.decodeUnknownResult(schema)
  const out: Array<A> = []
  const unreadable: Array<Unreadable> = []
  records.forEach((r, index) => {
    if (!isObject(r)) {
      unreadable.push({ file, index, reason: "expected an object" })
      return
    }
    const decoded = decode(r)
    const read = Result.isFailure(decoded)
      ? Result.fail(reasonOf(r, decoded.failure.issue))
      : Result.mapError(use(decoded.success), (reason) => ({ reason }))
    if (Result.isSuccess(read)) {
      out.push(read.success)
      return
    }
    const iban = ibanField === undefined ? undefined : decodeIban(r[ibanField])
    unreadable.push({
      file,
      index,
      ...read.failure,
      ...(iban !== undefined && Result.isSuccess(iban) ? { iban: iban.success } : {})
    })
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
      BalanceRecord,
      (r) => {
        if (seen.has(r.iban)) return Result.fail(`the balance of ${r.iban} is given again (the first one is used)`)
        seen.add(r.iban)
        const balance: Forecast.Balance = {
          iban: r.iban,
          currency: r.currency,
          amount: r.amount,
          date: r.date,
          ...(r.threshold === undefined || r.threshold === null ? {} : { threshold: r.threshold })
        }
        return Result.succeed(balance)
      },
      "iban"
    )
  })

/** A funds-checks file read (see `ForecastFiles.checks`), or why its text is no list of records. */
export const checks = (file: string, bytes: Uint8Array | string): Result.Result<Read<Forecast.Check>, string> =>
  Result.map(recordsOf(bytes, "checks"), (records) =>
    readEach(file, records, CheckRecord, (r) => Result.succeed<Forecast.Check>(r))
  )
