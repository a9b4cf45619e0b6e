/**
 * The standing-order list: request body (docs/bank-interface.md, "Standing-order list") and response body with every
 * field of the standing-order object. Responses decode strictly ({@link ListResponse}: one bad record fails the page)
 * or leniently ({@link decodeListLenient}: good records are kept, each bad one is reported with its index, orderId and
 * field path), also while the text is still being read ({@link decoder}). Received texts are kept whole beyond their
 * limits (README.md, "Wire formats").
 *
 * @since 0.1.0
 */
import { Effect, Option, Result, Schema, SchemaIssue, SchemaParser, SchemaTransformation } from "effect"
import * as Currency from "./Currency.ts"
import * as Frequency from "./Frequency.ts"
import * as Iban from "./Iban.ts"
import * as OrdersText from "./internal/ordersText.ts"
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
export interface RecordError {
  readonly index: number
  readonly orderId: string | undefined
  readonly path: string
  readonly message: string
}

/** The outcome of lenient decoding: every well-formed record, and one error per malformed one. */
export interface LenientList {
  readonly pageCount: number | undefined
  readonly orders: Array<StandingOrder>
  readonly errors: Array<RecordError>
}

const formatter = SchemaIssue.makeFormatterStandardSchemaV1()

const formatPath = (path: ReadonlyArray<PropertyKey>): string =>
  path.reduce<string>(
    (acc, key) => (typeof key === "number" ? `${acc}[${key}]` : acc === "" ? String(key) : `${acc}.${String(key)}`),
    ""
  )

/** The path and message of the first problem of an issue, and the paths of any further problems. */
const describeIssue = (issue: SchemaIssue.Issue): { path: string; message: string } => {
  const issues = formatter(issue).issues
  const first = issues[0]
  if (first === undefined) return { path: "", message: "invalid record" }
  const path = formatPath((first.path ?? []).map((p) => (typeof p === "object" ? p.key : p)))
  const others = issues.slice(1).map((i) => formatPath((i.path ?? []).map((p) => (typeof p === "object" ? p.key : p))))
  const more = others.length === 0 ? "" : ` (also: ${others.join(", ")})`
  return { path, message: `${first.message}${more}` }
}

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

const orderIdOf = (u: unknown): string | undefined => {
  if (!isRecord(u)) return undefined
  const id = u.orderId
  return typeof id === "string" ? id : typeof id === "number" ? String(id) : Json.isNumberText(id) ? id.text : undefined
}

const decodeOrder = Schema.decodeUnknownResult(StandingOrder)
const decodePageCount = Schema.decodeUnknownResult(PageCount)

const decodeRecords = (
  records: ReadonlyArray<unknown>
): { orders: Array<StandingOrder>; errors: Array<RecordError> } => {
  const orders: Array<StandingOrder> = []
  const errors: Array<RecordError> = []
  records.forEach((record, index) => {
    const r = decodeOrder(record, { errors: "all" })
    if (Result.isSuccess(r)) {
      orders.push(r.success)
    } else {
      const { path, message } = describeIssue(r.failure.issue)
      errors.push({ index, orderId: orderIdOf(record), path, message })
    }
  })
  return { orders, errors }
}

/**
 * Decodes a bare array of standing orders leniently: each well-formed record is returned, each malformed one is
 * reported (README.md, "Errors"). Fails only when the input is not an array.
 */
export const decodeOrdersLenient = (u: unknown): Result.Result<LenientList, string> =>
  Array.isArray(u)
    ? Result.succeed({ pageCount: undefined, ...decodeRecords(u) })
    : Result.fail("standing orders must be a JSON array")

/**
 * Decodes a standing-order list response leniently: a malformed record yields an error naming its
 * index, orderId and field while every good record is kept; a missing or `null` `standingOrders` is an empty page,
 * a malformed `pageCount` is reported with index -1. Fails only when the body is not an object or
 * `standingOrders` is not an array.
 */
export const decodeListLenient = (u: unknown): Result.Result<LenientList, string> => {
  if (!isRecord(u)) return Result.fail("standing-order list body must be a JSON object")
  const errors: Array<RecordError> = []
  let pageCount: number | undefined
  if (u.pageCount !== undefined && u.pageCount !== null) {
    const pc = decodePageCount(u.pageCount)
    if (Result.isSuccess(pc)) {
      pageCount = pc.success
    } else {
      errors.push({ index: -1, orderId: undefined, path: "pageCount", message: `pageCount: ${pc.failure.message}` })
    }
  }
  const raw = u.standingOrders
  if (raw === undefined || raw === null) return Result.succeed({ pageCount, orders: [], errors })
  if (!Array.isArray(raw)) return Result.fail("standingOrders must be a JSON array")
  const decoded = decodeRecords(raw)
  return Result.succeed({ pageCount, orders: decoded.orders, errors: [...errors, ...decoded.errors] })
}

/** Encodes a standing order to its wire JSON shape (amount as a JSON number, dates as `YYYY-MM-DD`). */
export const encode = Schema.encodeSync(StandingOrder)

/** Decodes one standing order strictly from its wire JSON shape. */
export const decode = Schema.decodeUnknownResult(StandingOrder)

// ---------------------------------------------------------------------------
// streaming decoding
// ---------------------------------------------------------------------------

/** Standing orders decoded from a whole list text by a {@link Decoder}: the kept orders and one error per bad record. */
export interface Decoded<A = StandingOrder> {
  /** The list's `pageCount` when it has a well-formed one. */
  readonly pageCount: number | undefined
  readonly orders: Array<A>
  /** A malformed `pageCount` first (index -1), then the malformed records in list order. */
  readonly errors: Array<RecordError>
}

/**
 * A standing-order list read piece by piece: `push` its text in pieces cut anywhere, then `end`. Memory holds the
 * kept orders and one record's text, never the whole text or its parsed JSON.
 */
export interface Decoder<A = StandingOrder> {
  /** Reads the next piece of the text; `false` once the text is known not to be JSON (the rest need not be read). */
  readonly push: (piece: string) => boolean
  /**
   * The decoded list, or why the text is not JSON or not a list at all (neither an array of orders nor an object
   * with a `standingOrders` array or `null`).
   */
  readonly end: () => Result.Result<Decoded<A>, string>
}

/** Options of {@link decoder}. */
export interface DecoderOptions<A> {
  /**
   * What is kept of each decoded order (default: the order itself), called once per good record in list order,
   * e.g. to keep only the fields a projection reads: the decoded order can then be collected.
   */
  readonly keep: (order: StandingOrder) => A
}

const NOT_A_LIST =
  "not an orders file: expected a JSON array of standing orders or an object with a standingOrders array"

/** Records decoded together: the reader hands them over in batches of this many. */
const BATCH = 1024

/**
 * A streaming decoder of a standing-order list response body (docs/bank-interface.md, "Standing-order list") or of
 * a bare array of standing orders, with the outcome of {@link decodeListLenient} (or {@link decodeOrdersLenient})
 * on the parsed whole text: each record is decoded as soon as it is complete, a malformed one is reported with its
 * index, orderId and field path, a good one is kept. Accepts exactly the texts `JSON.parse` accepts (a repeated
 * `standingOrders` key keeps its last value); where the text is cut never changes the outcome.
 */
export const decoder: {
  (): Decoder<StandingOrder>
  <A>(options: DecoderOptions<A>): Decoder<A>
} = <A>(options?: DecoderOptions<A>): Decoder<A> => {
  const keep = options?.keep ?? ((order: StandingOrder) => order as unknown as A)
  let pending: Array<unknown> = []
  let first = 0
  let orders: Array<A> = []
  let errors: Array<RecordError> = []
  const flush = () => {
    if (pending.length === 0) return
    const decoded = decodeRecords(pending)
    for (const e of decoded.errors) errors.push({ ...e, index: first + e.index })
    for (const order of decoded.orders) orders.push(keep(order))
    first += pending.length
    pending = []
  }
  const reader = new OrdersText.Reader({
    record: (value) => {
      pending.push(value)
      if (pending.length >= BATCH) flush()
    },
    restart: () => {
      pending = []
      first = 0
      orders = []
      errors = []
    }
  })
  return {
    push: (piece) => {
      reader.push(piece)
      return reader.error === undefined
    },
    end: () => {
      const outcome = reader.end()
      if ("error" in outcome) return Result.fail(outcome.error)
      const shape = outcome.shape
      if (shape._tag === "Other" || (shape._tag === "Object" && shape.standingOrders === "absent")) {
        return Result.fail(NOT_A_LIST)
      }
      if (shape._tag === "Object" && shape.standingOrders === "other") {
        return Result.fail("standingOrders must be a JSON array")
      }
      flush()
      // a malformed pageCount is reported first, as decodeListLenient reports it
      const page =
        shape._tag === "Object" ? decodeListLenient({ pageCount: shape.pageCount, standingOrders: [] }) : undefined
      const pageCount = page !== undefined && Result.isSuccess(page) ? page.success.pageCount : undefined
      const pageErrors = page !== undefined && Result.isSuccess(page) ? page.success.errors : []
      return Result.succeed({
        pageCount,
        orders,
        errors: pageErrors.length === 0 ? errors : [...pageErrors, ...errors]
      })
    }
  }
}
