/**
 * JSON read exactly (RFC 8259): every number kept as its source text ({@link NumberText}, never a binary float), a
 * repeated key reported with its path (the first value is kept), invalid UTF-8 named by its byte offset (never a
 * silent U+FFFD), nesting bounded. For the bank's bodies and orders files, whose amounts must reach the domain as
 * exactly the decimals written: `Money`'s and `StandingOrder`'s schemas read a {@link NumberText} exactly.
 *
 * @since 0.1.0
 */
import { Result, Schema, SchemaGetter } from "effect"
import * as internal from "./internal/json.ts"

/** A JSON number kept as its source text (`12.345`, `1e-7`); `JSON.stringify` writes it back as it was read. */
export const NumberText = internal.NumberText

/**
 * A JSON number kept as its source text. Declared here (not an alias of the engine's class) so that the types of
 * schemas built on it, in this package and others, name this public module and never `internal/`.
 */
export interface NumberText extends internal.NumberText {}

/** A JSON value as read: numbers as {@link NumberText}, objects with the first value of each key. */
export type Value = internal.Value

/** A key given again in the same object, e.g. `{ path: "$.standingOrders", offset: 812 }`: its value was not kept. */
export type Duplicate = internal.Duplicate

/**
 * Why a text could not be read: `Syntax` (not JSON), `InvalidUtf8` (bytes only), `TooDeep` (nesting beyond
 * `maxDepth`) or `DuplicateKey` (with `duplicateKeys: "fail"`); `offset` counts bytes when bytes were read, UTF-16
 * code units of the string otherwise, and the message says which (`at byte 3`, `at position 3`).
 */
export type Failure = internal.Failure

/** A text read whole: its value and every repeated key, in text order. */
export type Document = internal.Document

/** Options of {@link parse}: `maxDepth` (default 256), `duplicateKeys` (`"report"`, the default, or `"fail"`). */
export type Options = internal.Options

/**
 * Reads a JSON text, a string or UTF-8 bytes (a leading byte-order mark is skipped), accepting exactly what
 * `JSON.parse` accepts. // => Json.parse('{"v":12.345}') ⇒ value { v: NumberText("12.345") }, duplicates []
 */
export const parse = (input: string | Uint8Array, options?: Options): Result.Result<Document, Failure> => {
  const read = internal.parse(input, options)
  return read.ok ? Result.succeed(read.document) : Result.fail(read.failure)
}

/** Whether a value is a {@link NumberText}. */
export const isNumberText = (u: unknown): u is NumberText => u instanceof internal.NumberText

/**
 * The offset of the first byte that is not well-formed UTF-8 in `bytes[from, to)`, or -1 (RFC 3629: no overlong
 * form, surrogate or code point above U+10FFFF). A sequence cut off by `to` is invalid when `atEnd` (the default),
 * else left for the next piece, for callers that check a stream piece by piece.
 */
export const invalidUtf8Offset: (bytes: Uint8Array, from?: number, to?: number, atEnd?: boolean) => number =
  internal.invalidUtf8Offset

/** A UTF-8 text read in pieces (`push` each, then `end`), failing at the first invalid byte of the whole stream. */
export type Utf8Decoder = internal.Utf8Decoder

/**
 * A strict UTF-8 decoder for a stream read in pieces cut anywhere, e.g. an orders file: `push` gives the characters
 * each piece completes, or an `InvalidUtf8` failure whose offset counts bytes from the stream's start (never a
 * silent U+FFFD); `end` fails when the stream stops inside a character. A leading byte-order mark is skipped.
 */
export const utf8Decoder: () => Utf8Decoder = internal.utf8Decoder

/**
 * A {@link NumberText} as a schema's encoded side, for schemas that read numbers exactly (`Money`'s amounts,
 * `StandingOrder.PageCount`). Its JSON form (and JSON Schema) is a JSON number.
 */
export const NumberTextFromSelf = Schema.declare(isNumberText, {
  expected: "a JSON number",
  toCodecJson: () =>
    Schema.link<NumberText>()(Schema.Finite, {
      decode: SchemaGetter.transform((n: number) => new internal.NumberText(String(n))),
      encode: SchemaGetter.transform((t: NumberText) => Number(t.text))
    })
})
