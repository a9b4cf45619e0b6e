/**
 * The engine of `StandingOrder`'s lenient and streaming readings: each record of a list decoded on its own by the
 * order's schema (a bad one reported with its index, orderId and field path, a good one kept, one out of the bank's
 * format kept with a warning), and the decoder that reads a list's text piece by piece with `ordersText`'s reader.
 * The schemas are the public module's, handed over as a `Reading`; the readings' types are declared here over the
 * order `O` they decode (the public module re-exports them for its `StandingOrder`), so this file imports nothing of
 * the public module.
 */
import { Result, type SchemaIssue } from "effect"
import * as Json from "../Json.ts"
import * as OrdersText from "./ordersText.ts"
import { describeIssue, orderIdOf } from "./records.ts"

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

/**
 * The outcome of lenient decoding: every well-formed record, one error per malformed one, and one warning per
 * record kept whole although out of the bank's format (an amount that is not a positive `[9.2]`: kept with its
 * exact value, for the caller to refuse where it must, e.g. a projection).
 */
export interface LenientList<O> {
  readonly pageCount: number | undefined
  readonly orders: Array<O>
  readonly errors: Array<RecordError>
  readonly warnings: Array<RecordError>
  /**
   * The records listed whole that pay nothing (no `startDate` and `nextDate`, an `endDate` before them), each with
   * the field and the reason (packages/core/README.md, "Anchor"); they are in `orders` too, as the bank listed them.
   */
  readonly skipped?: Array<RecordError> | undefined
}

/**
 * Standing orders decoded from a whole list text by a decoder: the kept orders, one error per bad record
 * and one warning per record kept although out of format.
 */
export interface Decoded<A> {
  /** The list's `pageCount` when it has a well-formed one. */
  readonly pageCount: number | undefined
  readonly orders: Array<A>
  /**
   * Problems of the list itself first (index -1: a malformed `pageCount`, a repeated top-level key), then the
   * malformed records in list order: not an order, a field out of place, not JSON, repeated keys, invalid UTF-8.
   */
  readonly errors: Array<RecordError>
  /** The records kept whole although out of the bank's format (see `StandingOrder.formatWarning`), in list order. */
  readonly warnings: Array<RecordError>
  /** The records kept whole that pay nothing, with the field and the reason, in list order (see `StandingOrder.LenientList`). */
  readonly skipped?: Array<RecordError> | undefined
  /** Whether the text was an object whose `standingOrders` key is absent or `null` (only with `body: true`). */
  readonly listMissing: boolean
  /** The top-level keys of an object text, once each in text order (empty for a bare array). */
  readonly keys: ReadonlyArray<string>
}

/**
 * A standing-order list read piece by piece: `push` its text or UTF-8 bytes in pieces cut anywhere, then `end`.
 * Memory holds the kept orders and one record's text, never the whole text or its parsed JSON.
 */
export interface Decoder<A> {
  /** Reads the next piece; `false` once the text is known not to be an orders list (the rest need not be read). */
  readonly push: (piece: string | Uint8Array) => boolean
  /**
   * The decoded list, or why the text is not an orders list at all: not JSON in its structure, neither an array of
   * orders nor an object with a `standingOrders` array (or `null`), a record or a run of whitespace longer than the
   * limit, invalid UTF-8 outside the records.
   */
  readonly end: () => Result.Result<Decoded<A>, OrdersText.TextFailure>
}

/** Options of a decoder (`StandingOrder.decoder`), `O` the order it decodes. */
export interface DecoderOptions<O, A> {
  /**
   * What is kept of each decoded order (default: the order itself), called once per good record in list order,
   * e.g. to keep only the fields a projection reads: the decoded order can then be collected.
   */
  readonly keep?: (order: O, record: unknown) => A
  /**
   * Each record's parsed JSON rewritten before it is decoded (default: as it is), e.g. to read fields beside the
   * bank's own; `keep` receives the rewritten record beside the decoded order.
   */
  readonly prepare?: (record: unknown) => unknown
  /** The longest record read, in characters (default `MAX_RECORD_LENGTH`); a longer one ends the text. */
  readonly maxRecordLength?: number
  /** The deepest nesting inside a record (default 64). */
  readonly maxDepth?: number
  /**
   * Read a list response body (docs/bank-interface.md, "Standing-order list"): an object whose `standingOrders` may
   * be absent or `null` (an empty page, `listMissing`); a bare array is still read. Default: an orders file, where
   * an object without `standingOrders` is not one.
   */
  readonly body?: boolean
}

/** What the engine decodes with: the public module's schemas and its format warning, `O` the order they decode. */
export interface Reading<O extends { readonly orderId: string }> {
  readonly decodeOrder: (
    u: unknown,
    options: { readonly errors: "all" }
  ) => Result.Result<O, { readonly issue: SchemaIssue.Issue }>
  readonly decodePageCount: (u: unknown) => Result.Result<number, { readonly message: string }>
  readonly formatWarning: (order: O) => { readonly path: string; readonly message: string } | undefined
}

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

const decodeRecords = <O extends { readonly orderId: string }>(
  reading: Reading<O>,
  records: ReadonlyArray<unknown>
): { orders: Array<O>; errors: Array<RecordError>; warnings: Array<RecordError> } => {
  const orders: Array<O> = []
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
export const decodeOrdersLenient = <O extends { readonly orderId: string }>(
  reading: Reading<O>,
  u: unknown
): Result.Result<LenientList<O>, string> =>
  Array.isArray(u)
    ? Result.succeed({ pageCount: undefined, ...decodeRecords(reading, u) })
    : Result.fail("standing orders must be a JSON array")

/** A list response decoded leniently (see `StandingOrder.decodeListLenient`). */
export const decodeListLenient = <O extends { readonly orderId: string }>(
  reading: Reading<O>,
  u: unknown
): Result.Result<LenientList<O>, string> => {
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
export const decoder = <O extends { readonly orderId: string }, A>(
  reading: Reading<O>,
  options?: DecoderOptions<O, A>
): Decoder<A> => {
  const keep = options?.keep ?? ((order: O) => order as unknown as A)
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
