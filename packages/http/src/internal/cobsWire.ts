/**
 * The Czech Open Banking Standard's wire as the client speaks it (packages/http/README.md, "Bank profiles"): the
 * balance check's body mapped field by field from core's `BalanceCheck.Request` (`exchangeIdentification` at most 18
 * characters, the amount in `transactionDetails`), its answer read back into core's `BalanceCheck.Response`, the list's
 * query and its page envelope (`pageNumber`, `pageCount`, `nextPage`) with the records passed through as the bank sent
 * them, each with its `transactionIdentification`.
 */
import { BalanceCheck, type Timestamp } from "@tppkit/core"
import { Result } from "effect"
import { type BankError, InvalidRequest } from "../BankError.ts"
import * as Wire from "./wire.ts"

type Problem = { readonly path: string; readonly message: string }

/** COBS's character set for the ids of a balance check (rule book v2.0 §3.3.1): SWIFT characters, no `//`. */
const swift = /^[a-zA-Z0-9/\-?:().,'+ ]+$/

/** The most characters `exchangeIdentification` holds (COBS: ≤ 18). */
export const maxExchangeIdentification = 18

/** The characters of a fresh `exchangeIdentification` (SWIFT characters; 32 of them, so each is 5 random bits). */
const idAlphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"

/**
 * A fresh `exchangeIdentification`: 18 characters of 32 (90 random bits), for a balance check's request after the
 * call's first. COBS refuses an id it has seen (`RF01`, "request id not unique"): the id names one query, not a
 * payment, so a request sent again (its answer lost, a 5xx) needs a new one.
 */
export const freshExchangeIdentification = (): string => {
  const bytes = crypto.getRandomValues(new Uint8Array(maxExchangeIdentification))
  let id = ""
  for (const b of bytes) id += idAlphabet[b & 31]
  return id
}

/** Whether a failure is COBS's `RF01`: the bank has seen the request's `exchangeIdentification` already. */
export const isNotUnique = (error: BankError): boolean => {
  const reason = error.reason
  return (
    reason._tag === "BadRequest" &&
    reason.body._tag === "Errors" &&
    reason.body.body.errors.some((e) => e.error === "RF01")
  )
}

const invalid = (path: string, detail: string) => Result.fail(new InvalidRequest({ path, detail }))

/**
 * The COBS balance check's JSON text of a request: `exchangeIdentification` from `instructionIdentification`
 * (refused when longer than 18 characters or outside the SWIFT set: a UUID does not fit), `debtorAccount.identification.iban`,
 * `transactionDetails` (`currency`, `totalAmount` as a JSON number written exactly), the card from `references`
 * (`maskedPan`, `cardholderName`) and the merchant from `relatedParties.tradingParty` (`identification`, `shortName`
 * and `commonName` from its name, `address`, `countryCode`, `merchantCategoryCode`). A field COBS requires that the
 * request lacks, or one longer than COBS allows, is refused before sending; nothing is cut.
 */
export const balanceCheckText = (request: BalanceCheck.Request): Result.Result<string, InvalidRequest> => {
  const encoded = BalanceCheck.encodeRequest(request)
  if (Result.isFailure(encoded)) {
    const { path, message } = Wire.firstIssue(encoded.failure)
    return invalid(path, message)
  }
  const json = encoded.success
  const id = json.instructionIdentification
  if (id.length > maxExchangeIdentification)
    return invalid(
      "instructionIdentification",
      `COBS's exchangeIdentification holds at most ${maxExchangeIdentification} characters (a UUID does not fit); got ${id.length}`
    )
  if (!swift.test(id) || id.startsWith("/") || id.endsWith("/") || id.includes("//"))
    return invalid("instructionIdentification", "COBS's exchangeIdentification takes SWIFT characters only")
  const body: Record<string, unknown> = {
    exchangeIdentification: id,
    debtorAccount: { identification: { iban: json.iban } }
  }
  const references = json.references
  if (references !== undefined) {
    if (references.chequeNumber === undefined)
      return invalid("references.chequeNumber", "COBS's card needs maskedPan, the masked card number")
    if (references.chequeNumber.length > 30)
      return invalid("references.chequeNumber", "COBS's maskedPan holds at most 30")
    if (references.holderName !== undefined && references.holderName.length > 45)
      return invalid("references.holderName", "COBS's cardholderName holds at most 45")
    body.card = {
      maskedPan: references.chequeNumber,
      ...(references.holderName === undefined ? {} : { cardholderName: references.holderName })
    }
  }
  const party = json.relatedParties?.tradingParty
  if (party !== undefined) {
    const need = (field: "identification" | "name" | "merchantCode") =>
      invalid(`relatedParties.tradingParty.${field}`, `COBS's merchant needs it`)
    if (party.identification === undefined) return need("identification")
    if (party.name === undefined) return need("name")
    if (party.merchantCode === undefined) return need("merchantCode")
    if (party.name.length > 35)
      return invalid("relatedParties.tradingParty.name", "COBS's merchant shortName holds at most 35 characters")
    body.merchant = {
      identification: party.identification,
      shortName: party.name,
      commonName: party.name,
      ...(party.address === undefined ? {} : { address: party.address }),
      ...(party.countryCode === undefined ? {} : { countryCode: party.countryCode }),
      merchantCategoryCode: party.merchantCode
    }
  }
  // the amount as core's encoding writes the seed bank's `amount.value`: a JSON number of at most [12.2]
  body.transactionDetails = { currency: json.amount.currency, totalAmount: json.amount.value }
  return Result.succeed(JSON.stringify(body))
}

/**
 * The COBS answer (`{responseIdentification, exchangeIdentification, response}`) as core's `BalanceCheck.Response`:
 * `response` APPR or DECL; the time is the answer's `Date` header (the bank's clock) or, when it sends none, the
 * time the answer was received (`receivedAt`), as COBS's answer carries no time of its own.
 */
export const decodeBalanceCheck = (
  json: unknown,
  dateHeader: string | undefined,
  receivedAt: number
): Result.Result<BalanceCheck.Response, Problem> => {
  if (typeof json !== "object" || json === null || Array.isArray(json))
    return Result.fail({ path: "$", message: "the body is not a JSON object" })
  const answer = (json as { response?: unknown }).response
  if (answer !== "APPR" && answer !== "DECL") return Result.fail({ path: "response", message: "must be APPR or DECL" })
  const dated = dateHeader === undefined ? Number.NaN : Date.parse(dateHeader)
  const at = new Date(Number.isNaN(dated) ? receivedAt : dated).toISOString() as Timestamp.Timestamp
  return Result.succeed({ response: answer, dateTime: at })
}

/** The query of a list page: the profile's size and page parameters. */
export const listQuery = (paging: { readonly page: string; readonly size: string }, page: number, size: number) =>
  `?${encodeURIComponent(paging.size)}=${size}&${encodeURIComponent(paging.page)}=${page}`

/** A record of a list page or a detail as the bank sent it, with the order's id when it carries one. */
export interface RawRecord {
  /** `standingOrderIdentification.transactionIdentification`, the id the detail is asked by. */
  readonly id: string | undefined
  readonly json: unknown
}

/** A COBS list page: its envelope and its records, raw. */
export interface RawPage {
  readonly pageNumber: number | undefined
  readonly pageCount: number | undefined
  readonly nextPage: number | undefined | null
  readonly records: ReadonlyArray<RawRecord>
}

/** The id of a COBS order record (list item or detail). */
export const recordId = (record: unknown): string | undefined => {
  if (typeof record !== "object" || record === null) return undefined
  const ident = (record as { standingOrderIdentification?: unknown }).standingOrderIdentification
  if (typeof ident !== "object" || ident === null) return undefined
  const id = (ident as { transactionIdentification?: unknown }).transactionIdentification
  return typeof id === "string" ? id : undefined
}

const wholeOrText = (value: unknown): number | undefined => {
  const n = typeof value === "string" && /^\d{1,9}$/.test(value.trim()) ? Number(value) : value
  return typeof n === "number" && Number.isInteger(n) && n >= 0 ? n : undefined
}

const errorKeys = ["errors", "error", "tppMessages", "type", "title", "status", "detail", "code"]

/**
 * Reads a list page's envelope under the profile's field names (`pageNumber`, `pageCount`, `nextPage`, the records'
 * array); the records are kept as sent. A body without the records array that looks like an error is refused, not
 * read as an empty page; a missing array otherwise reads as empty (the schema's `required` names a wrong field).
 */
export const decodePage = (
  json: unknown,
  paging: {
    readonly pageCount: string
    readonly pageNumber?: string | undefined
    readonly nextPage?: string | undefined
    readonly records: string
  }
): Result.Result<RawPage, Problem> => {
  if (typeof json !== "object" || json === null || Array.isArray(json))
    return Result.fail({ path: "$", message: "standing-order list body must be a JSON object" })
  const body = json as Record<string, unknown>
  const list = body[paging.records]
  if (list === undefined && errorKeys.some((k) => k in body))
    return Result.fail({ path: paging.records, message: "missing, and the body looks like an error" })
  if (list !== undefined && !Array.isArray(list))
    return Result.fail({ path: paging.records, message: "must be an array" })
  const count = body[paging.pageCount]
  const pageCount = wholeOrText(count)
  if (count !== undefined && count !== null && pageCount === undefined)
    return Result.fail({ path: paging.pageCount, message: "must be a whole number" })
  const number = paging.pageNumber === undefined ? undefined : body[paging.pageNumber]
  const next = paging.nextPage === undefined ? undefined : body[paging.nextPage]
  return Result.succeed({
    pageNumber: wholeOrText(number),
    pageCount,
    nextPage: next === null ? null : wholeOrText(next),
    records: ((list ?? []) as Array<unknown>).map((r) => ({ id: recordId(r), json: r }))
  })
}
