/**
 * The standing-order list: request body (docs/bank-interface.md, "Standing-order list") and response body with every
 * field of the standing-order object. Responses decode strictly ({@link ListResponse}: one bad record fails the page)
 * or leniently ({@link decodeListLenient}: good records are kept, each bad one is reported with its index, orderId and
 * field path), also while the text is still being read ({@link decoder}). Received texts are kept whole beyond their
 * limits (README.md, "Wire formats").
 *
 * The request, the response's every field and its strict, lenient and streaming readings are one wire concept, and
 * each field's limit is declared once here; the lenient and streaming engines are `internal/standingOrderList.ts`
 * (and the text's reader `internal/ordersText.ts`).
 *
 * @since 0.1.0
 */
import { Effect, Option, Result, Schema, SchemaIssue, SchemaParser, SchemaTransformation } from "effect"
import * as Currency from "./Currency.ts"
import * as Frequency from "./Frequency.ts"
import * as Iban from "./Iban.ts"
import type * as OrdersText from "./internal/ordersText.ts"
import * as Engine from "./internal/standingOrderList.ts"
import * as Json from "./Json.ts"
import * as LocalDate from "./LocalDate.ts"
import * as Money from "./Money.ts"
import * as Text from "./Text.ts"

/**
 * An optional received field: the key may be missing, and a JSON `null` is read as missing (tolerant reading); the
 * encoded form omits the key when there is no value.
 */
const optionalReceived = <S extends Schema.Top>(schema: S) =>
  Schema.optionalKey(Schema.NullOr(schema)).pipe(
    Schema.decodeTo(
      Schema.optionalKey(Schema.toType(schema)),
      SchemaTransformation.transformOptional({
        decode: (o: Option.Option<S["Type"] | null>) =>
          Option.filter(o, (v): v is S["Type"] => v !== null) as Option.Option<S["Type"]>,
        encode: (o: Option.Option<S["Type"]>) => o
      })
    )
  )

/** The debtor of a standing order: `debtor.name` (max 70) and `debtor.iban`. */
export const Debtor = Schema.Struct({
  name: Text.Incoming,
  iban: Iban.Iban
})

/** The creditor of a standing order: optional name (70) and address lines (35 each), mandatory IBAN. */
export const Creditor = Schema.Struct({
  name: optionalReceived(Text.Incoming),
  addressLine1: optionalReceived(Text.Incoming),
  addressLine2: optionalReceived(Text.Incoming),
  iban: Iban.Iban
})

/** `instructedAmount`: value in format [9.2] (tolerant when received) and currency. */
export const InstructedAmount = Schema.Struct({
  value: Money.StandingOrderAmountValue,
  currency: Currency.CurrencyCode
})

/**
 * A standing order as the bank lists it: every field the bank lists, dates as
 * {@link LocalDate.LocalDate} day numbers, the amount as an exact decimal, optional fields as optional keys.
 */
export class StandingOrder extends Schema.Class<StandingOrder>("StandingOrder")({
  orderId: Schema.String,
  debtor: Debtor,
  creditor: Creditor,
  instructedAmount: InstructedAmount,
  endToEndIdentification: optionalReceived(Text.Incoming),
  remittanceInformation: optionalReceived(Text.Incoming),
  standingOrderName: optionalReceived(Text.Incoming),
  startDate: optionalReceived(LocalDate.LocalDate),
  nextDate: optionalReceived(LocalDate.LocalDate),
  endDate: optionalReceived(LocalDate.LocalDate),
  frequency: Frequency.Frequency
}) {}

/** The fields of a standing order that exceed the document's length limits (they are kept whole; for warnings). */
export const overlongFields = (order: StandingOrder): Array<string> => {
  const checks: Array<[string, string | undefined, number]> = [
    ["debtor.name", order.debtor.name, Text.limits.partyName],
    ["creditor.name", order.creditor.name, Text.limits.partyName],
    ["creditor.addressLine1", order.creditor.addressLine1, Text.limits.addressLine],
    ["creditor.addressLine2", order.creditor.addressLine2, Text.limits.addressLine],
    ["endToEndIdentification", order.endToEndIdentification, Text.limits.endToEndIdentification],
    ["remittanceInformation", order.remittanceInformation, Text.limits.remittanceInformation],
    ["standingOrderName", order.standingOrderName, Text.limits.standingOrderName]
  ]
  return checks.filter(([, v, max]) => v !== undefined && v.length > max).map(([name]) => name)
}

// ---------------------------------------------------------------------------
// request
// ---------------------------------------------------------------------------

/** The default page size. */
export const DEFAULT_PAGE_SIZE = 50

/** The largest page size the bank supports. */
export const MAX_PAGE_SIZE = 100

/**
 * A page size: an integer from 10 to 100 and a multiple of 10 (docs/bank-interface.md, "Standing-order list",
 * "Limits at a glance").
 */
export const PageSize = Schema.Int.check(
  Schema.makeFilter(
    (n: number) => (n >= 10 && n <= MAX_PAGE_SIZE && n % 10 === 0) || "pageSize must be a multiple of 10 from 10 to 100"
  )
)

/** A zero-based page number. */
export const Page = Schema.Int.check(Schema.makeFilter((n: number) => n >= 0 || "page must be zero or more"))

/**
 * The standing-order list request body. Every attribute is optional (`iban` is a filter: README.md, "Wire formats"),
 * so a request without attributes encodes to exactly `{}`.
 */
export const ListRequest = Schema.Struct({
  iban: Schema.optionalKey(Iban.Iban),
  pageSize: Schema.optionalKey(PageSize),
  page: Schema.optionalKey(Page)
})

/** A standing-order list request. */
export type ListRequest = typeof ListRequest.Type

const encodeListRequestSchema = SchemaParser.encodeResult(ListRequest)
const decodeListRequestSchema = SchemaParser.decodeUnknownResult(ListRequest)

/** Encodes a list request to its JSON form, the one encoder the client uses; `{}` without attributes. */
export const encodeListRequest = (request: ListRequest): Result.Result<typeof ListRequest.Encoded, SchemaIssue.Issue> =>
  encodeListRequestSchema(request)

/** Decodes a list request from parsed JSON, the one decoder the mock bank uses. */
export const decodeListRequest = (json: unknown): Result.Result<ListRequest, SchemaIssue.Issue> =>
  decodeListRequestSchema(json)

// ---------------------------------------------------------------------------
// response
// ---------------------------------------------------------------------------

/** A non-negative integer in decimal text, as the reference example sends `pageCount`. */
const CountText = Schema.String.check(Schema.isPattern(/^\d+$/, { message: "pageCount must be a whole number" }))

/** A whole number written as a JSON number's text (`3`, `3.0`, `3e0`), exactly: `3.0000000000000000001` is none. */
const wholeNumber = (n: Json.NumberText) => {
  const r = Money.fromNumberText(n.text)
  const whole =
    Result.isSuccess(r) && r.success.scale <= 0 && r.success.scale > -16
      ? Number(Money.toPlainString(r.success))
      : Number.NaN
  return Number.isSafeInteger(whole)
    ? Effect.succeed(whole)
    : Effect.fail(new SchemaIssue.InvalidValue({ message: `pageCount must be a whole number, got ${n.text}` }))
}

/**
 * `pageCount`: a JSON number (a float, or its `Json.NumberText` read exactly) or a numeric string on the wire, a
 * number in the domain; encoded as a number (README.md, "Wire formats").
 */
export const PageCount = Schema.Union([Schema.Int, CountText, Json.NumberTextFromSelf]).pipe(
  Schema.decodeTo(
    Schema.Int.check(Schema.makeFilter((n: number) => n >= 0 || "pageCount must be zero or more")),
    SchemaTransformation.transformEffect({
      decode: (v: number | string | Json.NumberText) =>
        typeof v === "number" ? Effect.succeed(v) : typeof v === "string" ? Effect.succeed(Number(v)) : wholeNumber(v),
      encode: (n: number) => Effect.succeed<number | string | Json.NumberText>(n)
    })
  )
)

/** The standing-order list response body, decoded strictly: every record must be valid. */
export const ListResponse = Schema.Struct({
  pageCount: optionalReceived(PageCount),
  standingOrders: Schema.Array(StandingOrder)
})

/** A strictly decoded standing-order list response. */
export type ListResponse = typeof ListResponse.Type

/** A list response in its JSON form. */
export type ListResponseJson = typeof ListResponse.Encoded

const encodeListResponseSchema = SchemaParser.encodeResult(ListResponse)

/**
 * Encodes a list response to its JSON form, the one encoder the mock bank uses; the client reads it
 * with {@link decodeListLenient}. `pageCountAsText` writes `pageCount` as a numeric string, as the document's
 * reference example does (README.md, "Wire formats": both are read).
 */
export const encodeListResponse = (
  response: ListResponse,
  options: { readonly pageCountAsText?: boolean } = {}
): Result.Result<ListResponseJson, SchemaIssue.Issue> => {
  const encoded = encodeListResponseSchema(response)
  return options.pageCountAsText === true && Result.isSuccess(encoded) && typeof encoded.success.pageCount === "number"
    ? Result.succeed({ ...encoded.success, pageCount: String(encoded.success.pageCount) })
    : encoded
}

// ---------------------------------------------------------------------------
// lenient decoding
// ---------------------------------------------------------------------------

/**
 * A record of a list that could not be decoded: its position in `standingOrders` (-1 for the page itself, e.g. a
 * malformed `pageCount`), its `orderId` when it has one, the path of the offending field (`creditor.iban`) and why.
 */
export type { RecordError } from "./internal/standingOrderList.ts"

/**
 * The outcome of lenient decoding: every well-formed record, one error per malformed one, and one warning per
 * record kept whole although out of the bank's format (an amount that is not a positive `[9.2]`: kept with its
 * exact value, for the caller to refuse where it must, e.g. a projection), and the records listed whole that pay
 * nothing (`skipped`).
 */
export interface LenientList extends Engine.LenientList<StandingOrder> {}

/**
 * Why a received order is out of the bank's format although whole (README.md, "Wire formats"): an amount that is
 * not positive or has more than 9 digits before the point or more than 2 after it; `undefined` when it fits.
 */
export const formatWarning = (
  order: StandingOrder
): { readonly path: string; readonly message: string } | undefined => {
  const reason = Money.invalidReason(order.instructedAmount.value, Money.standingOrderFormat)
  return reason === undefined
    ? undefined
    : {
        path: "instructedAmount.value",
        message: `${Money.toPlainString(order.instructedAmount.value)}: ${reason} (format [9.2]); kept exactly as received`
      }
}

const reading: Engine.Reading<StandingOrder> = {
  decodeOrder: Schema.decodeUnknownResult(StandingOrder),
  decodePageCount: Schema.decodeUnknownResult(PageCount),
  formatWarning
}

/**
 * Decodes a bare array of standing orders leniently: each well-formed record is returned, each malformed one is
 * reported (README.md, "Errors"). Fails only when the input is not an array.
 */
export const decodeOrdersLenient = (u: unknown): Result.Result<LenientList, string> =>
  Engine.decodeOrdersLenient(reading, u)

/**
 * Decodes a standing-order list response leniently: a malformed record yields an error naming its
 * index, orderId and field while every good record is kept; a missing or `null` `standingOrders` is an empty page,
 * a malformed `pageCount` is reported with index -1. Fails only when the body is not an object or
 * `standingOrders` is not an array.
 */
export const decodeListLenient = (u: unknown): Result.Result<LenientList, string> =>
  Engine.decodeListLenient(reading, u)

/**
 * Encodes a standing order to its wire JSON shape (amount as a JSON number, dates as `YYYY-MM-DD`); throws for an
 * amount out of the `[9.2]` format (what we send). For what was received, see {@link encodeReceived}.
 */
export const encode = Schema.encodeSync(StandingOrder)

/**
 * Encodes a received standing order to its wire JSON shape, never failing: an amount out of the `[9.2]` format (kept
 * exactly when received) is written as a `Json.NumberText` of its exact decimal, which `JSON.stringify` writes as
 * those digits. For the orders a listing prints and stores, exactly as the bank sent them.
 */
export const encodeReceived = (order: StandingOrder): typeof StandingOrder.Encoded => {
  const value = order.instructedAmount.value
  if (Money.fits(value, Money.standingOrderFormat)) return encode(order)
  const fitting = new StandingOrder({ ...order, instructedAmount: { ...order.instructedAmount, value: ONE } })
  const encoded = encode(fitting)
  return {
    ...encoded,
    instructedAmount: { ...encoded.instructedAmount, value: new Json.NumberText(Money.toPlainString(value)) }
  }
}

const ONE = Money.parseUnsafe("1")

/** Decodes one standing order strictly from its wire JSON shape. */
export const decode = Schema.decodeUnknownResult(StandingOrder)

// ---------------------------------------------------------------------------
// streaming decoding
// ---------------------------------------------------------------------------

/**
 * Standing orders decoded from a whole list text by a {@link Decoder}: the kept orders, one error per bad record
 * and one warning per record kept although out of format.
 */
export interface Decoded<A = StandingOrder> extends Engine.Decoded<A> {}

/**
 * A standing-order list read piece by piece: `push` its text or UTF-8 bytes in pieces cut anywhere, then `end`.
 * Memory holds the kept orders and one record's text, never the whole text or its parsed JSON.
 */
export interface Decoder<A = StandingOrder> extends Engine.Decoder<A> {}

/**
 * Why a text is not an orders list, as a `reason` to branch on (`empty`, `json`, `utf8`, `notAList`, `notAnArray`),
 * a `detail` (where and what) and the `message` in words.
 */
export type TextFailure = OrdersText.TextFailure

/** Options of {@link decoder}: what is kept of each order, a record's rewriting, the limits, a body or a file. */
export interface DecoderOptions<A> extends Engine.DecoderOptions<StandingOrder, A> {}

/**
 * The longest record a {@link decoder} reads by default, in characters: the bank's longest field is 140 characters
 * and a whole standing order a few hundred; a record of megabytes is refused with its position (README.md,
 * "Wire formats"), never buffered without bound.
 */
export const MAX_RECORD_LENGTH: number = Engine.MAX_RECORD_LENGTH

/**
 * A streaming decoder of a standing-order list response body (docs/bank-interface.md, "Standing-order list") or of
 * a bare array of standing orders, read exactly: numbers from their source text (`12.345` stays 12.345), each
 * record decoded as soon as it is complete, a malformed one reported with its index, orderId and field path (a
 * record that is not JSON, holds a repeated key or invalid UTF-8 too, with its position), a good one kept, one out
 * of the bank's format kept with a warning. A repeated top-level key is reported (index -1); the records of every
 * `standingOrders` array are kept. Where the text is cut never changes the outcome.
 */
export const decoder: {
  (): Decoder<StandingOrder>
  <A>(options: DecoderOptions<A> & { readonly keep: (order: StandingOrder, record: unknown) => A }): Decoder<A>
  (options: DecoderOptions<StandingOrder>): Decoder<StandingOrder>
} = <A>(options?: DecoderOptions<A>): Decoder<A> => Engine.decoder(reading, options)

/** A whole list text (or its UTF-8 bytes) through a {@link decoder}: the same outcome as pushing it in pieces. */
export const decodeText = (
  text: string | Uint8Array,
  options?: Omit<DecoderOptions<StandingOrder>, "keep">
): Result.Result<Decoded, TextFailure> => {
  const d = decoder(options ?? {})
  d.push(text)
  return d.end()
}
