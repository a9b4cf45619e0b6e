/**
 * Standing-order records as a hostile bank or a careless file sends them, as UTF-8 bytes: good ones, ones whole but
 * out of the bank's format (an amount of 0, -12.50, 12.345, 20 digits, 400 decimals), and bad ones (a missing or
 * wrong field, text that is not JSON, a repeated key, invalid UTF-8, a bare value), each with what a reader must
 * make of it: kept, kept with a warning, or reported.
 */
import fc from "fast-check"
import { standingOrderJson } from "./core.ts"

/** What a reader must make of a record. */
export type Kind = "good" | "warning" | "error"

/** One record: its bytes, what it is, and its orderId (unique within a list). */
export interface Mixed {
  readonly bytes: Uint8Array
  readonly kind: Kind
  readonly orderId: string
  /** For a record out of format: the exact amount text it carries. */
  readonly amount?: string
}

const encoder = new TextEncoder()

/** Amounts a reader keeps exactly, but which are out of the `[9.2]` format. */
export const outOfFormatAmounts: ReadonlyArray<string> = [
  "0",
  "-12.50",
  "12.345",
  "1e-7",
  "12345678901234567890",
  "12345678901234567890.12",
  "1.0000000000000000000001",
  "1e15",
  `0.${"1".repeat(400)}`
]

const AMOUNT = '"__AMOUNT__"'

const withAmount = (json: Record<string, unknown>, amount: string): string => {
  const marked = { ...json, instructedAmount: { ...(json.instructedAmount as object), value: "__AMOUNT__" } }
  return JSON.stringify(marked).replace(AMOUNT, amount)
}

const concat = (...parts: ReadonlyArray<Uint8Array>): Uint8Array => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const p of parts) {
    out.set(p, at)
    at += p.length
  }
  return out
}

type Shape = (json: Record<string, unknown>, id: string) => { bytes: Uint8Array; kind: Kind; amount?: string }

const good: Shape = (json) => ({ bytes: encoder.encode(JSON.stringify(json)), kind: "good" })

const shapes: ReadonlyArray<fc.Arbitrary<Shape>> = [
  fc.constant(good),
  fc.constantFrom(...outOfFormatAmounts).map(
    (amount): Shape =>
      (json) => ({ bytes: encoder.encode(withAmount(json, amount)), kind: "warning", amount })
  ),
  fc.constantFrom("frequency", "debtor", "instructedAmount").map(
    (field): Shape =>
      (json) => {
        const { [field]: _, ...rest } = json
        return { bytes: encoder.encode(JSON.stringify(rest)), kind: "error" }
      }
  ),
  fc.constant<Shape>((json) => ({
    bytes: encoder.encode(JSON.stringify({ ...json, creditor: { iban: "SK00" } })),
    kind: "error"
  })),
  // not JSON, though its end is clear
  fc.constant<Shape>((json) => ({
    bytes: encoder.encode(JSON.stringify(json).replace(/}$/, ",}")),
    kind: "error"
  })),
  // a repeated key
  fc.constant<Shape>((json, id) => ({
    bytes: encoder.encode(JSON.stringify(json).replace(/^\{/, `{"orderId":${JSON.stringify(`${id}-again`)},`)),
    kind: "error"
  })),
  // invalid UTF-8 inside a text
  fc.constantFrom([0xff], [0xc3, 0x28], [0xed, 0xa0, 0x80], [0xe2, 0x82]).map(
    (bad): Shape =>
      (json) => {
        const { remittanceInformation: _, ...rest } = json
        const text = JSON.stringify({ ...rest, remittanceInformation: "@@" })
        const at = text.lastIndexOf('"remittanceInformation":"@@"') + '"remittanceInformation":"'.length
        const [before, after] = [text.slice(0, at), text.slice(at + 2)]
        return {
          bytes: concat(encoder.encode(before), Uint8Array.from(bad), encoder.encode(after)),
          kind: "error"
        }
      }
  ),
  // a bare value
  fc.constantFrom("42", '"order"', "null", "[1,2]", "true").map(
    (value): Shape =>
      () => ({ bytes: encoder.encode(value), kind: "error" })
  )
]

/** A list of records of every kind (good ones about half), with unique orderIds `R-0`, `R-1`, … (`prefix-0` …). */
export const mixedRecords = (maxLength = 30, prefix = "R"): fc.Arbitrary<Array<Mixed>> =>
  fc
    .array(
      fc.tuple(
        standingOrderJson,
        fc.oneof({ weight: shapes.length, arbitrary: fc.constant(good) }, ...shapes.slice(1))
      ),
      { maxLength }
    )
    .map((records) =>
      records.map(([json, shape], i) => {
        const orderId = `${prefix}-${i}`
        return { orderId, ...shape({ ...json, orderId }, orderId) }
      })
    )

/** A standing-order list response body of the records, as bytes (`pageCount` 1 unless given). */
export const listBody = (records: ReadonlyArray<Mixed>, pageCount: number | undefined = 1): Uint8Array => {
  const comma = encoder.encode(",\n")
  const parts: Array<Uint8Array> = [
    encoder.encode(`{${pageCount === undefined ? "" : `"pageCount":${pageCount},`}"standingOrders":[\n`)
  ]
  records.forEach((r, i) => {
    if (i > 0) parts.push(comma)
    parts.push(r.bytes)
  })
  parts.push(encoder.encode("\n]}"))
  return concat(...parts)
}
