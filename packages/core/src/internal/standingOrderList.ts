/**
 * The engine of `StandingOrder`'s lenient and streaming readings: each record of a list decoded on its own by the
 * order's schema (a bad one reported with its index, orderId and field path, a good one kept, one out of the bank's
 * format kept with a warning), and the decoder that reads a list's text piece by piece with `ordersText`'s reader.
 * The schemas are the public module's, handed over as a `Reading` (this file imports only its types).
 */
import { Result, type SchemaIssue } from "effect"
import * as Json from "../Json.ts"
import type { Decoder, DecoderOptions, LenientList, RecordError, StandingOrder } from "../StandingOrder.ts"
import * as OrdersText from "./ordersText.ts"
import { describeIssue, orderIdOf } from "./records.ts"

/** What the engine decodes with: the public module's schemas and its format warning. */
export interface Reading {
  readonly decodeOrder: (
    u: unknown,
    options: { readonly errors: "all" }
  ) => Result.Result<StandingOrder, { readonly issue: SchemaIssue.Issue }>
  readonly decodePageCount: (u: unknown) => Result.Result<number, { readonly message: string }>
  readonly formatWarning: (order: StandingOrder) => { readonly path: string; readonly message: string } | undefined
}

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

const decodeRecords = (
  reading: Reading,
  records: ReadonlyArray<unknown>
): { orders: Array<StandingOrder>; errors: Array<RecordError>; warnings: Array<RecordError> } => {
  const orders: Array<StandingOrder> = []
  const errors: Array<RecordError> = []
  const warnings: Array<RecordError> = []
  records.forEach((record, index) => {
    // a bare number is not an order: said as for any number, whatever its digits
    const r = reading.decodeOrder(Json.isNumberText(record) ? Number(record.text) : record, { errors: "all" })
    if (Result.isSuccess(r)) {
      orders.push(r.success)
      const warning = reading.formatWarning(r.success)
      if (warning !== undefined) warnings.push({ index, orderId: r.success.orderId, ...warning })
    } else {
      const { path, message } = describeIssue(r.failure.issue)
      errors.push({ index, orderId: orderIdOf(record), path, message })
    }
  })
  return { orders, errors, warnings }
}

/** A bare array of standing orders decoded leniently (see `StandingOrder.decodeOrdersLenient`). */
export const decodeOrdersLenient = (reading: Reading, u: unknown): Result.Result<LenientList, string> =>
  Array.isArray(u)
    ? Result.succeed({ pageCount: undefined, ...decodeRecords(reading, u) })
    : Result.fail("standing orders must be a JSON array")

/** A list response decoded leniently (see `StandingOrder.decodeListLenient`). */
export const decodeListLenient = (reading: Reading, u: unknown): Result.Result<LenientList, string> => {
  if (!isRecord(u)) return Result.fail("standing-order list body must be a JSON object")
  const errors: Array<RecordError> = []
  let pageCount: number | undefined
  if (u.pageCount !== undefined && u.pageCount !== null) {
    const pc = reading.decodePageCount(u.pageCount)
    if (Result.isSuccess(pc)) {
      pageCount = pc.success
    } else {
      errors.push({ index: -1, orderId: undefined, path: "pageCount", message: `pageCount: ${pc.failure.message}` })
    }
  }
  const raw = u.standingOrders
  if (raw === undefined || raw === null) return Result.succeed({ pageCount, orders: [], errors, warnings: [] })
  if (!Array.isArray(raw)) return Result.fail("standingOrders must be a JSON array")
  const decoded = decodeRecords(reading, raw)
  return Result.succeed({
    pageCount,
    orders: decoded.orders,
    errors: [...errors, ...decoded.errors],
    warnings: decoded.warnings
  })
}

/** The longest record a decoder reads by default, in characters (see `StandingOrder.MAX_RECORD_LENGTH`). */
export const MAX_RECORD_LENGTH = 1 << 20

/** Records decoded together: the reader hands them over in batches of this many. */
const BATCH = 1024

/** A streaming decoder of a list's text (see `StandingOrder.decoder`). */
export const decoder = <A>(reading: Reading, options?: DecoderOptions<A>): Decoder<A> => {
  const keep = options?.keep ?? ((order: StandingOrder) => order as unknown as A)
  let pending: Array<OrdersText.Read> = []
  let first = 0
  const orders: Array<A> = []
  const errors: Array<RecordError> = []
  const warnings: Array<RecordError> = []
  const flush = () => {
    if (pending.length === 0) return
    const values: Array<unknown> = []
    const at: Array<number> = []
    const unreadable: Array<RecordError> = []
    const prepare = options?.prepare
    pending.forEach((read, i) => {
      if (read._tag === "Value") {
        values.push(prepare === undefined ? read.value : prepare(read.value))
        at.push(first + i)
      } else {
        unreadable.push({ index: first + i, orderId: orderIdOf(read.value), path: read.path, message: read.message })
      }
    })
    const decoded = decodeRecords(reading, values)
    const failed = decoded.errors.map((e) => ({ ...e, index: at[e.index] as number }))
    if (unreadable.length === 0) errors.push(...failed)
    else errors.push(...[...failed, ...unreadable].sort((a, b) => a.index - b.index))
    for (const w of decoded.warnings) warnings.push({ ...w, index: at[w.index] as number })
    if (decoded.errors.length === 0) {
      decoded.orders.forEach((order, i) => {
        orders.push(keep(order, values[i]))
      })
    } else {
      // one error per failed record: the decoded orders are the other records, in order
      const failedAt = new Set(decoded.errors.map((e) => e.index))
      let j = 0
      values.forEach((record, i) => {
        if (!failedAt.has(i)) orders.push(keep(decoded.orders[j++]!, record))
      })
    }
    first += pending.length
    pending = []
  }
  const reader = new OrdersText.Reader(
    {
      record: (read) => {
        pending.push(read)
        if (pending.length >= BATCH) flush()
      }
    },
    { maxRecordLength: options?.maxRecordLength ?? MAX_RECORD_LENGTH, maxDepth: options?.maxDepth ?? 64 }
  )
  return {
    push: (piece) => {
      reader.push(piece)
      return reader.error === undefined
    },
    end: () => {
      const outcome = reader.end()
      if ("error" in outcome) return Result.fail(outcome.failure)
      const shape = outcome.shape
      const missing = shape._tag === "Object" && (shape.standingOrders === "absent" || shape.standingOrders === "null")
      if (shape._tag === "Object" && shape.standingOrders === "absent" && options?.body !== true) {
        return Result.fail(OrdersText.notAList)
      }
      if (shape._tag === "Object" && shape.standingOrders === "other") {
        return Result.fail(OrdersText.notAnArray)
      }
      flush()
      // a malformed pageCount is reported first, as decodeListLenient reports it, then the list's own problems
      const page =
        shape._tag === "Object"
          ? decodeListLenient(reading, { pageCount: shape.pageCount, standingOrders: [] })
          : undefined
      const pageCount = page !== undefined && Result.isSuccess(page) ? page.success.pageCount : undefined
      const listErrors: Array<RecordError> = page !== undefined && Result.isSuccess(page) ? page.success.errors : []
      if (shape._tag === "Object") {
        for (const p of shape.problems) listErrors.push({ index: -1, orderId: undefined, ...p })
      }
      return Result.succeed({
        pageCount,
        orders,
        errors: listErrors.length === 0 ? errors : [...listErrors, ...errors],
        warnings,
        listMissing: missing,
        keys: shape._tag === "Object" ? shape.keys : []
      })
    }
  }
}
