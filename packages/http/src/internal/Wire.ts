/**
 * Private wire codecs of the balance check (sections 2.2, 2.3) and the standing-order list (sections 2.4, 2.5),
 * built from core's value schemas until core's own BalanceCheck / StandingOrder modules are available.
 */
import { Currency, DateTime, Frequency, Iban, LocalDate, Money, Text } from "@tppkit/core"
import { Result, Schema, SchemaIssue } from "effect"

/** The balance-check request body (section 2.2). */
export const BalanceCheckRequest = Schema.Struct({
  instructionIdentification: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(35)),
  creationDateTime: Schema.optionalKey(DateTime.DateTime),
  iban: Iban.Iban,
  amount: Schema.Struct({ value: Money.BalanceCheckAmountValue, currency: Currency.CurrencyCode }),
  relatedParties: Schema.optionalKey(
    Schema.Struct({
      tradingParty: Schema.optionalKey(
        Schema.Struct({
          identification: Schema.optionalKey(Text.bounded(35)),
          name: Schema.optionalKey(Text.bounded(140)),
          address: Schema.optionalKey(Text.bounded(70)),
          countryCode: Schema.optionalKey(Currency.CountryCode),
          merchantCode: Schema.optionalKey(Schema.String.check(Schema.isPattern(/^\d{4}$/)))
        })
      )
    })
  ),
  references: Schema.optionalKey(
    Schema.Struct({
      chequeNumber: Schema.optionalKey(Text.bounded(35)),
      holderName: Schema.optionalKey(Text.bounded(35))
    })
  )
})

/** The balance-check request body (section 2.2). */
export type BalanceCheckRequest = typeof BalanceCheckRequest.Type

/** The balance-check response body (section 2.3). */
export const BalanceCheckResponse = Schema.Struct({
  response: Schema.Literals(["APPR", "DECL"]),
  dateTime: DateTime.Incoming
})

/** The balance-check response body (section 2.3). */
export type BalanceCheckResponse = typeof BalanceCheckResponse.Type

/** The standing-order list request body (section 2.4); no attributes means exactly `{}`. */
export const ListRequest = Schema.Struct({
  iban: Schema.optionalKey(Iban.Iban),
  pageSize: Schema.optionalKey(Schema.Int),
  page: Schema.optionalKey(Schema.Int)
})

/** The standing-order list request body (section 2.4). */
export type ListRequest = typeof ListRequest.Type

/** One standing order of the list response (section 2.5), decoded tolerantly (long texts kept whole). */
export const StandingOrder = Schema.Struct({
  orderId: Schema.String,
  debtor: Schema.Struct({ name: Schema.String, iban: Iban.Iban }),
  creditor: Schema.Struct({
    name: Schema.optionalKey(Schema.String),
    addressLine1: Schema.optionalKey(Schema.String),
    addressLine2: Schema.optionalKey(Schema.String),
    iban: Iban.Iban
  }),
  instructedAmount: Schema.Struct({ value: Money.StandingOrderAmountValue, currency: Currency.CurrencyCode }),
  endToEndIdentification: Schema.optionalKey(Schema.String),
  remittanceInformation: Schema.optionalKey(Schema.String),
  standingOrderName: Schema.optionalKey(Schema.String),
  startDate: Schema.optionalKey(LocalDate.LocalDate),
  nextDate: Schema.optionalKey(LocalDate.LocalDate),
  endDate: Schema.optionalKey(LocalDate.LocalDate),
  frequency: Frequency.Frequency
})

/** One standing order of the list response (section 2.5). */
export type StandingOrder = typeof StandingOrder.Type

/** A record of the list that could not be decoded: where it was, its orderId when readable, and why. */
export interface RecordError {
  readonly index: number
  readonly orderId: string | undefined
  readonly path: string
  readonly message: string
}

/** A decoded page: the good records and, beside them, the malformed ones. */
export interface Page {
  readonly pageCount: number | undefined
  readonly orders: Array<StandingOrder>
  readonly errors: Array<RecordError>
}

const formatter = SchemaIssue.makeFormatterStandardSchemaV1()

/** The first issue of a schema failure as a dotted path and a message. */
export const firstIssue = (issue: SchemaIssue.Issue): { path: string; message: string } => {
  const first = formatter(issue).issues[0]
  const segments = first?.path ?? []
  const path = segments.length === 0 ? "$" : segments.map(String).join(".")
  return { path, message: first?.message ?? "invalid" }
}

const decodeOrder = Schema.decodeUnknownResult(StandingOrder)

/** Decodes a list response leniently: malformed records come back as errors beside the good ones. */
export const decodePage = (u: unknown): Result.Result<Page, { path: string; message: string }> => {
  if (typeof u !== "object" || u === null || Array.isArray(u)) {
    return Result.fail({ path: "$", message: "the body is not a JSON object" })
  }
  const body = u as Record<string, unknown>
  let pageCount: number | undefined
  const rawCount = body.pageCount
  if (typeof rawCount === "number" && Number.isInteger(rawCount) && rawCount >= 0) pageCount = rawCount
  else if (typeof rawCount === "string" && /^\d+$/.test(rawCount.trim())) pageCount = Number(rawCount)
  else if (rawCount !== undefined && rawCount !== null) {
    return Result.fail({ path: "pageCount", message: "not a non-negative integer" })
  }
  const list = body.standingOrders ?? []
  if (!Array.isArray(list)) return Result.fail({ path: "standingOrders", message: "not an array" })
  const orders: Array<StandingOrder> = []
  const errors: Array<RecordError> = []
  list.forEach((record, index) => {
    const r = decodeOrder(record)
    if (Result.isSuccess(r)) orders.push(r.success)
    else {
      const { path, message } = firstIssue(r.failure.issue)
      const id = typeof record === "object" && record !== null ? (record as { orderId?: unknown }).orderId : undefined
      errors.push({ index, orderId: typeof id === "string" ? id : undefined, path, message })
    }
  })
  return Result.succeed({ pageCount, orders, errors })
}
