/**
 * Exact money amounts: effect's `BigDecimal` in the domain (never binary floating point), a JSON number on the wire.
 * Balance-check amounts are `[12.2]` (docs/bank-interface.md, "Balance check"), standing-order amounts `[9.2]`
 * (docs/bank-interface.md, "Standing-order list"): positive, at most 12 (resp. 9) digits before the point and at most 2
 * after it (README.md, "Wire formats"). We send only amounts within those limits; what we receive is accepted as any
 * finite decimal, a JSON number (read exactly from its text when `Json.parse` read it) or a numeric string.
 *
 * @since 0.1.0
 */
import { BigDecimal, Effect, Option, Result, Schema, SchemaIssue, SchemaTransformation } from "effect"
import * as Currency from "./Currency.ts"
import * as Json from "./Json.ts"

/** An exact decimal amount. */
export type Amount = BigDecimal.BigDecimal

/** The limits of an amount format `[integerDigits.fractionDigits]`. */
export interface Format {
  readonly integerDigits: number
  readonly fractionDigits: number
}

/** The balance-check amount format `[12.2]` (docs/bank-interface.md, "Balance check": `amount.value`). */
export const balanceCheckFormat: Format = { integerDigits: 12, fractionDigits: 2 }

/**
 * The standing-order amount format `[9.2]` (docs/bank-interface.md, "Standing-order list": `instructedAmount.value`).
 */
export const standingOrderFormat: Format = { integerDigits: 9, fractionDigits: 2 }

const TEN = 10n

/** The plain decimal text of an amount, never in exponent notation. // => "1250.5" */
export const toPlainString = (amount: Amount): string => {
  const n = BigDecimal.normalize(amount)
  const negative = n.value < 0n
  const digits = `${negative ? -n.value : n.value}`
  let text: string
  if (n.scale <= 0) {
    text = n.value === 0n ? "0" : digits + "0".repeat(-n.scale)
  } else {
    const padded = digits.padStart(n.scale + 1, "0")
    text = `${padded.slice(0, padded.length - n.scale)}.${padded.slice(padded.length - n.scale)}`
  }
  return negative ? `-${text}` : text
}

/**
 * The amount with at least two decimals, as people and CSV files expect money. // => "1250.50", "0.01", "7.125"
 * Amounts with more than two decimals (only ever received, never sent) keep all their digits.
 */
export const formatFixed2 = (amount: Amount): string => {
  const plain = toPlainString(amount)
  const point = plain.indexOf(".")
  if (point === -1) return `${plain}.00`
  const decimals = plain.length - point - 1
  return decimals >= 2 ? plain : `${plain}0`
}

/**
 * The amount with its currency's minor unit digits (ISO 4217, core's `Currency.minorUnits`), exactly: "1250.50"
 * EUR, "1250" JPY, "1.500" BHD. Never rounded: an amount with more decimals than its currency has keeps all of
 * them (say so: {@link exceedsMinorUnits}); a currency without a minor unit (`XAU`) or an unknown code shows the
 * amount as it is. // => formatMinor(300, "EUR") === "300.00"
 */
export const formatMinor = (amount: Amount, currency: string): string => {
  const digits = Currency.minorUnits(currency)
  const plain = toPlainString(amount)
  if (digits === undefined) return plain
  const point = plain.indexOf(".")
  const decimals = point === -1 ? 0 : plain.length - point - 1
  if (decimals >= digits) return plain
  return point === -1 ? `${plain}.${"0".repeat(digits)}` : `${plain}${"0".repeat(digits - decimals)}`
}

/**
 * Whether an amount has more decimals than its currency's minor unit (`100.5` JPY, `1.005` EUR): printed whole by
 * {@link formatMinor}, never rounded, and worth a warning.
 */
export const exceedsMinorUnits = (amount: Amount, currency: string): boolean => {
  const digits = Currency.minorUnits(currency)
  return digits !== undefined && fractionDigits(amount) > digits
}

/** Number of digits before the decimal point of an amount (0 for amounts below 1). */
export const integerDigits = (amount: Amount): number => {
  const n = BigDecimal.normalize(amount)
  const abs = n.value < 0n ? -n.value : n.value
  const intPart = n.scale <= 0 ? abs * TEN ** BigInt(-n.scale) : abs / TEN ** BigInt(n.scale)
  return intPart === 0n ? 0 : `${intPart}`.length
}

/** Number of significant digits after the decimal point of an amount (trailing zeros do not count). */
export const fractionDigits = (amount: Amount): number => Math.max(0, BigDecimal.normalize(amount).scale)

/** `10^k` as a bigint, from a table for the exponents amounts use. */
const POW10: ReadonlyArray<bigint> = Array.from({ length: 32 }, (_, k) => TEN ** BigInt(k))
const pow10 = (k: number): bigint => POW10[k] ?? TEN ** BigInt(k)

/**
 * Why an amount does not fit a format (positive, digit limits), or `undefined` when it does
 * (README.md, "Wire formats").
 */
export const invalidReason = (amount: Amount, format: Format): string | undefined => {
  // Fast path without normalising: a positive value at a scale within the format's decimals and below
  // 10^(integerDigits + scale) fits, whatever trailing zeros normalising would remove.
  const { scale, value } = amount
  if (value > 0n && scale >= 0 && scale <= format.fractionDigits && value < pow10(format.integerDigits + scale)) {
    return undefined
  }
  const n = BigDecimal.normalize(amount)
  if (n.value <= 0n) return `amount must be positive, got ${toPlainString(amount)}`
  // At most `integerDigits` digits before the point ⇔ value < 10^(integerDigits + scale) (value ≥ 1, normalized);
  // the digits are counted only for the message.
  const limit = format.integerDigits + n.scale
  if (limit < 0 || n.value >= pow10(limit)) {
    const i = integerDigits(amount)
    if (i > format.integerDigits) {
      return `amount has ${i} digits before the decimal point, at most ${format.integerDigits} allowed`
    }
  }
  const f = Math.max(0, n.scale)
  if (f > format.fractionDigits) return `amount has ${f} decimals, at most ${format.fractionDigits} allowed`
  return undefined
}

/** Whether an amount fits a format. */
export const fits = (amount: Amount, format: Format): boolean => invalidReason(amount, format) === undefined

const DECIMAL_TEXT = /^-?\d+(\.\d+)?$/

/** Parses plain decimal text (`"1250.50"`, `"-3"`) into an exact amount, or explains why it is not one. */
export const parse = (text: string): Result.Result<Amount, string> => {
  if (!DECIMAL_TEXT.test(text)) return Result.fail(`"${text}" is not a decimal number`)
  const bd = BigDecimal.fromString(text)
  return Option.isSome(bd) ? Result.succeed(BigDecimal.normalize(bd.value)) : Result.fail(`"${text}" is out of range`)
}

/** Parses plain decimal text; throws on anything else (tests and literals only). */
export const parseUnsafe = (text: string): Amount => {
  const r = parse(text)
  if (Result.isFailure(r)) throw new RangeError(r.failure)
  return r.success
}

/** The JSON number grammar (RFC 8259 section 6): sign, integer part, fraction, exponent. */
const JSON_NUMBER = /^(-?)(0|[1-9]\d*)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/

/** The longest number text read, and the largest scale either way: beyond them a number is refused, not rounded. */
const MAX_NUMBER_TEXT = 10_000
const MAX_TEXT_SCALE = 10_000

const shown = (text: string): string => (text.length <= 40 ? text : `${text.slice(0, 37)}...`)

/**
 * The exact decimal a JSON number's source text stands for (`Json.NumberText`), every digit kept, without a binary
 * float on the way. // => "12.345" ⇒ 12.345, "1e-7" ⇒ 0.0000001, "1.0000000000000000000001" ⇒ itself
 * A text that is not a JSON number, longer than 10,000 characters, or whose scale passes ±10,000 is refused.
 */
export const fromNumberText = (text: string): Result.Result<Amount, string> => {
  if (text.length > MAX_NUMBER_TEXT) {
    return Result.fail(`number of ${text.length} characters, at most ${MAX_NUMBER_TEXT} read`)
  }
  const m = JSON_NUMBER.exec(text)
  if (m === null) return Result.fail(`"${shown(text)}" is not a JSON number`)
  const fraction = m[3] ?? ""
  const exponent = m[4] === undefined ? 0 : Number(m[4])
  const scale = fraction.length - exponent
  if (!(Math.abs(scale) <= MAX_TEXT_SCALE)) return Result.fail(`number ${shown(text)} is out of range`)
  const value = BigInt(`${m[1]}${m[2]}${fraction}`)
  return Result.succeed(BigDecimal.normalize(BigDecimal.make(value, scale)))
}

/**
 * The exact decimal a JSON number stands for: its shortest round-trip text (`0.1` is 0.1, not the binary
 * float's expansion). `undefined` for NaN and infinities.
 */
export const fromJsonNumber = (n: number): Amount | undefined => {
  const bd = BigDecimal.fromNumber(n)
  return Option.isSome(bd) ? BigDecimal.normalize(bd.value) : undefined
}

/** Below this, an integer has at most 15 digits and every decimal with such digits survives a float round trip. */
const FIFTEEN_DIGITS = 1_000_000_000_000_000n
/** Powers of ten a float holds exactly (10^0 … 10^22). */
const EXACT_POW10: ReadonlyArray<number> = Array.from({ length: 23 }, (_, k) => 10 ** k)

/**
 * The JSON number that reads back as exactly this amount, or `undefined` when none does (more than 15 significant
 * digits). Every `[12.2]` and `[9.2]` amount has one.
 */
export const toJsonNumber = (amount: Amount): number | undefined => {
  const { scale, value } = amount
  // Fast path: at most 15 significant digits and a scale within ±22. The digits are an exact float and so is the
  // power of ten, so one division (or multiplication) gives the float nearest the decimal, and a decimal of at most
  // 15 digits is the shortest text of its nearest float: it reads back as itself.
  if (value < FIFTEEN_DIGITS && value > -FIFTEEN_DIGITS && scale >= -22 && scale <= 22) {
    return scale >= 0 ? Number(value) / EXACT_POW10[scale]! : Number(value) * EXACT_POW10[-scale]!
  }
  const n = Number(toPlainString(amount))
  if (!Number.isFinite(n)) return undefined
  const back = fromJsonNumber(n)
  return back !== undefined && BigDecimal.equals(back, amount) ? n : undefined
}

const notExact = (amount: Amount) =>
  new SchemaIssue.InvalidValue({
    message: `amount ${toPlainString(amount)} cannot be written exactly as a JSON number`
  })

const encodeChecked = (format: Format | undefined) => (amount: Amount) => {
  if (format !== undefined) {
    const reason = invalidReason(amount, format)
    if (reason !== undefined) return Effect.fail(new SchemaIssue.InvalidValue({ message: reason }))
  }
  const n = toJsonNumber(amount)
  return n === undefined ? Effect.fail(notExact(amount)) : Effect.succeed(n)
}

const decodeNumber = (n: number) => {
  const bd = fromJsonNumber(n)
  return bd === undefined
    ? Effect.fail(new SchemaIssue.InvalidValue({ message: `amount must be a finite number, got ${n}` }))
    : Effect.succeed(bd)
}

const decodeNumberText = (n: Json.NumberText) => {
  const r = fromNumberText(n.text)
  return Result.isSuccess(r)
    ? Effect.succeed(r.success)
    : Effect.fail(new SchemaIssue.InvalidValue({ message: `amount ${r.failure}` }))
}

/** A JSON number, as a float (from `JSON.parse`) or as its source text (from `Json.parse`, read exactly). */
const decodeJson = (input: number | Json.NumberText) =>
  typeof input === "number" ? decodeNumber(input) : decodeNumberText(input)

/** The domain value of an amount in format `format`: a BigDecimal that is positive and within the digit limits. */
export const AmountFromSelf = (format: Format) =>
  Schema.BigDecimal.check(
    Schema.makeFilter((bd: Amount) => invalidReason(bd, format) ?? true, {
      expected: `a positive amount in format [${format.integerDigits}.${format.fractionDigits}]`
    })
  )

/**
 * Any exact amount as a JSON number, without limits: decoding reads a `Json.NumberText` digit for digit, and a
 * float (from `JSON.parse`) as its shortest text.
 */
export const JsonNumber = Schema.Union([Schema.Finite, Json.NumberTextFromSelf]).pipe(
  Schema.decodeTo(
    Schema.BigDecimal,
    SchemaTransformation.transformEffect<Amount, number | Json.NumberText>({
      decode: decodeJson,
      encode: encodeChecked(undefined)
    })
  )
)

/**
 * `amount.value` of the balance-check request: a JSON number ↔ BigDecimal, positive, format `[12.2]`,
 * checked both ways (we send it; the mock bank receives it).
 */
export const BalanceCheckAmountValue = Schema.Union([Schema.Finite, Json.NumberTextFromSelf]).pipe(
  Schema.decodeTo(
    AmountFromSelf(balanceCheckFormat),
    // The type side (`AmountFromSelf`) already checks the format both ways, so encoding only needs exactness.
    SchemaTransformation.transformEffect<Amount, number | Json.NumberText>({
      decode: decodeJson,
      encode: encodeChecked(undefined)
    })
  )
)

/** A numeric text as some banks send amounts (`"1250.50"`), read exactly. */
const AmountText = Schema.String.check(
  Schema.isPattern(DECIMAL_TEXT, { message: "amount text must be a plain decimal number" })
)

/**
 * An exact amount as plain decimal text (`"1250.5"`, as {@link toPlainString} writes it) ↔ its BigDecimal: the form a
 * store or a journal keeps. Decoding refuses anything but a plain decimal, never rounds; encoding writes the
 * normalised text, so a value read and written again is the same text.
 */
export const PlainAmount = AmountText.pipe(
  Schema.decodeTo(
    Schema.BigDecimal,
    SchemaTransformation.transformEffect({
      decode: (text: string) => {
        const r = parse(text)
        return Result.isSuccess(r)
          ? Effect.succeed(r.success)
          : Effect.fail(new SchemaIssue.InvalidValue({ message: r.failure }))
      },
      encode: (amount: Amount) => Effect.succeed(toPlainString(amount))
    })
  )
)

/**
 * `instructedAmount.value` of a standing order (docs/bank-interface.md, "Standing-order list"): decoding is tolerant (a
 * JSON number, as a float or as its `Json.NumberText`, or a numeric string, any finite decimal, kept exact), encoding
 * is strict (positive, format `[9.2]`, a JSON number).
 */
export const StandingOrderAmountValue = Schema.Union([Schema.Finite, AmountText, Json.NumberTextFromSelf]).pipe(
  Schema.decodeTo(
    Schema.BigDecimal,
    SchemaTransformation.transformEffect({
      decode: (input: number | string | Json.NumberText) => {
        if (typeof input !== "string") return decodeJson(input)
        const r = parse(input)
        return Result.isSuccess(r)
          ? Effect.succeed(r.success)
          : Effect.fail(new SchemaIssue.InvalidValue({ message: r.failure }))
      },
      encode: encodeChecked(standingOrderFormat)
    })
  )
)

/** Exact equality of amounts (`1.5` equals `1.50`). */
export const equals = (a: Amount, b: Amount): boolean => BigDecimal.equals(a, b)
