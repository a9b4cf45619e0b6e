/**
 * International Bank Account Numbers (ISO 13616), as the bank uses them for `iban`, `debtor.iban` and
 * `creditor.iban` (at most 34 characters: docs/bank-interface.md, "Limits at a glance"). Input is normalised
 * (whitespace removed, upper case), then checked: country code, country-specific length where known, and the mod-97
 * checksum.
 *
 * @since 0.1.0
 */
import { type Brand, Result, Schema, SchemaTransformation } from "effect"

/** A valid, normalised IBAN (electronic form: no spaces, upper case). */
export type Iban = string & Brand.Brand<"Iban">

/** The longest IBAN ISO 13616 allows, and the bank's limit for every IBAN field. */
export const MAX_LENGTH = 34

/**
 * IBAN length per country code, for the countries of the SWIFT IBAN registry whose length we know for certain.
 * Countries not listed are accepted with any length from 15 to 34.
 */
export const countryLengths: Readonly<Record<string, number>> = {
  AD: 24,
  AE: 23,
  AL: 28,
  AT: 20,
  AZ: 28,
  BA: 20,
  BE: 16,
  BG: 22,
  BH: 22,
  BR: 29,
  BY: 28,
  CH: 21,
  CR: 22,
  CY: 28,
  CZ: 24,
  DE: 22,
  DK: 18,
  DO: 28,
  EE: 20,
  EG: 29,
  ES: 24,
  FI: 18,
  FO: 18,
  FR: 27,
  GB: 22,
  GE: 22,
  GI: 23,
  GL: 18,
  GR: 27,
  GT: 28,
  HR: 21,
  HU: 28,
  IE: 22,
  IL: 23,
  IQ: 23,
  IS: 26,
  IT: 27,
  JO: 30,
  KW: 30,
  KZ: 20,
  LB: 28,
  LC: 32,
  LI: 21,
  LT: 20,
  LU: 20,
  LV: 21,
  MC: 27,
  MD: 24,
  ME: 22,
  MK: 19,
  MR: 27,
  MT: 31,
  MU: 30,
  NL: 18,
  NO: 15,
  PK: 24,
  PL: 28,
  PS: 29,
  PT: 25,
  QA: 29,
  RO: 24,
  RS: 22,
  SA: 24,
  SC: 31,
  SE: 24,
  SI: 19,
  SK: 24,
  SM: 27,
  ST: 25,
  SV: 28,
  TL: 23,
  TN: 24,
  TR: 26,
  UA: 29,
  VA: 22,
  VG: 24,
  XK: 20
}

/** Removes all whitespace and upper-cases the text (the electronic form of an IBAN). */
export const normalize = (text: string): string => text.replace(/\s+/g, "").toUpperCase()

const isUpper = (c: number): boolean => c >= 65 && c <= 90
const isDigit = (c: number): boolean => c >= 48 && c <= 57

/**
 * The remainder modulo 97 of the IBAN-shaped text rearranged (ISO 7064 mod-97-10: characters 5 onwards, then the
 * first four), letters counting A = 10 … Z = 35, read in place without building the rearranged text; -1 when a
 * character is neither a digit nor an upper-case letter.
 */
const rearrangedMod97 = (text: string): number => {
  const n = text.length
  let rest = 0
  for (let k = 0; k < n; k++) {
    const c = text.charCodeAt(k + 4 < n ? k + 4 : k + 4 - n)
    if (isDigit(c)) rest = (rest * 10 + (c - 48)) % 97
    else if (isUpper(c)) rest = (rest * 100 + (c - 55)) % 97
    else return -1
  }
  return rest
}

/** Whether a normalised IBAN-shaped text passes the ISO 7064 mod-97-10 check (rearranged number mod 97 = 1). */
export const isChecksumValid = (normalized: string): boolean =>
  /^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(normalized) && rearrangedMod97(normalized) === 1

/** The two check digits for a country code and BBAN (upper-case letters and digits). // => checkDigits("DE", "370400440532013000") = "89" */
export const checkDigits = (country: string, bban: string): string => {
  const value = 98 - rearrangedMod97(`${country}00${bban}`)
  return value < 10 ? `0${value}` : `${value}`
}

/**
 * Whether a normalised text is a valid IBAN: the same answer as `invalidReason(text) === undefined`, in one pass
 * over the characters without regular expressions or substrings (the bank client checks every IBAN it sends).
 */
export const isValid = (normalized: string): boolean => {
  const n = normalized.length
  if (n < 5 || n > MAX_LENGTH) return false
  const c0 = normalized.charCodeAt(0)
  const c1 = normalized.charCodeAt(1)
  const c2 = normalized.charCodeAt(2)
  const c3 = normalized.charCodeAt(3)
  if (!isUpper(c0) || !isUpper(c1) || !isDigit(c2) || !isDigit(c3)) return false
  const expected = countryLengths[normalized.slice(0, 2)]
  if (expected === undefined ? n < 15 : n !== expected) return false
  return rearrangedMod97(normalized) === 1
}

/** Why a normalised text is not a valid IBAN, or `undefined` when it is one. */
export const invalidReason = (normalized: string): string | undefined => {
  if (isValid(normalized)) return undefined
  if (normalized.length === 0) return "IBAN is empty"
  if (normalized.length > MAX_LENGTH) return `IBAN has ${normalized.length} characters, at most ${MAX_LENGTH} allowed`
  if (!/^[A-Z]{2}/.test(normalized)) return "IBAN must start with a two-letter country code"
  if (!/^[A-Z]{2}\d{2}/.test(normalized)) return "IBAN must have two check digits after the country code"
  if (!/^[A-Z0-9]+$/.test(normalized)) return "IBAN may contain only letters and digits"
  const country = normalized.slice(0, 2)
  const expected = countryLengths[country]
  if (expected !== undefined && normalized.length !== expected) {
    return `IBAN of country ${country} must have ${expected} characters, got ${normalized.length}`
  }
  if (expected === undefined && normalized.length < 15)
    return `IBAN has ${normalized.length} characters, at least 15 needed`
  if (!isChecksumValid(normalized)) return "IBAN check digits are wrong (mod-97 checksum)"
  return undefined
}

/** Parses an IBAN in print or electronic form into a normalised {@link Iban}, or explains why it is not one. */
export const parse = (text: string): Result.Result<Iban, string> => {
  const normalized = normalize(text)
  const reason = invalidReason(normalized)
  return reason === undefined ? Result.succeed(normalized as Iban) : Result.fail(reason)
}

/** Parses an IBAN; throws on an invalid one (tests and literals only). */
export const parseUnsafe = (text: string): Iban => {
  const r = parse(text)
  if (Result.isFailure(r)) throw new RangeError(r.failure)
  return r.success
}

/** The two-letter country code of an IBAN. */
export const country = (iban: Iban): string => iban.slice(0, 2)

/** The print form: groups of four characters separated by spaces. // => "SK31 1200 0000 1987 4263 7541" */
export const formatPrint = (iban: Iban): string => iban.replace(/(.{4})(?=.)/g, "$1 ")

/** The IBAN with all but the last four characters masked, for logs and messages. // => "****7541" */
export const mask = (iban: Iban): string => `****${iban.slice(-4)}`

/** The domain value: an already normalised, valid IBAN (branded). */
export const IbanFromSelf = Schema.String.check(
  Schema.makeFilter((s: string) => invalidReason(s) ?? true, { expected: "a valid IBAN" })
).pipe(Schema.brand("Iban"))

/**
 * An IBAN on the wire: decoding normalises (whitespace removed, upper case) and validates; encoding writes the
 * electronic form.
 */
export const Iban = Schema.String.pipe(
  Schema.decodeTo(
    IbanFromSelf,
    SchemaTransformation.transform({ decode: normalize, encode: (iban: string): string => iban })
  )
)
