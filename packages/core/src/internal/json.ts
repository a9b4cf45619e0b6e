/**
 * The engine of `Json.parse`: a recursive-descent reader of JSON text (RFC 8259) that keeps every number as its
 * source text, keeps the first value of a repeated key and reports the repeated one, bounds nesting, and reads
 * bytes as strict UTF-8 (the offset of the first invalid byte, never a silent U+FFFD). It accepts exactly the texts
 * `JSON.parse` accepts, with the same strings, and the same structure up to numbers and repeated keys.
 */

/** A JSON number kept as its source text, e.g. `12.345`, `1e-7`, `-0`: never converted to a binary float. */
export class NumberText {
  /** The number exactly as written in the JSON text (the JSON number grammar, RFC 8259 section 6). */
  readonly text: string
  constructor(text: string) {
    this.text = text
  }
  /** Writes the number back with `JSON.stringify` exactly as it was read (where the runtime has `JSON.rawJSON`). */
  toJSON(): unknown {
    return rawJSON === undefined ? this.text : rawJSON(this.text)
  }
}

const rawJSON = (JSON as { rawJSON?: (text: string) => unknown }).rawJSON

/** A JSON value as read: numbers as {@link NumberText}, objects with the first value of each key. */
export type Value = null | boolean | string | NumberText | ReadonlyArray<Value> | { readonly [key: string]: Value }

/** A key given again in the same object: the later value was not kept. */
export interface Duplicate {
  /** Where the repeated key is: `$` for the top level, then `.key` or `["key"]` and `[index]` steps. */
  readonly path: string
  /** The offset of the repeated key's opening quote (a byte offset when bytes were read). */
  readonly offset: number
}

/** Why a text could not be read. */
export type Failure =
  | { readonly _tag: "Syntax"; readonly offset: number; readonly message: string }
  | { readonly _tag: "InvalidUtf8"; readonly offset: number; readonly message: string }
  | { readonly _tag: "TooDeep"; readonly offset: number; readonly message: string }
  | { readonly _tag: "DuplicateKey"; readonly offset: number; readonly path: string; readonly message: string }

/** A text read whole. */
export interface Document {
  readonly value: Value
  /** Every repeated key, in text order (empty when none). */
  readonly duplicates: ReadonlyArray<Duplicate>
}

/** Options of {@link parse}. */
export interface Options {
  /** The deepest nesting of arrays and objects read (default 256, at most 1024); deeper fails with `TooDeep`. */
  readonly maxDepth?: number
  /** A repeated key is reported in `duplicates` (default) or fails the whole text (`"fail"`). */
  readonly duplicateKeys?: "report" | "fail"
}

const DEFAULT_DEPTH = 256
const MAX_DEPTH = 1024

/** Thrown inside the reader only, caught by `parse`: what went wrong where (the message adds the offset's unit). */
class Stop {
  readonly tag: Failure["_tag"]
  readonly offset: number
  readonly what: string
  readonly path: string
  constructor(tag: Failure["_tag"], offset: number, what: string, path = "") {
    this.tag = tag
    this.offset = offset
    this.what = what
    this.path = path
  }
}

const describe = (text: string, pos: number): string => {
  if (pos >= text.length) return "unexpected end of JSON text"
  const c = text.charCodeAt(pos)
  const shown = c < 32 || c === 127 ? `\\u${c.toString(16).padStart(4, "0")}` : text[pos]
  return `unexpected character '${shown}'`
}

/** The failure a stop stands for, its offset in `unit`s (`position`: UTF-16 code units; `byte`). */
const failureOf = (stop: Stop, offset: number, unit: "position" | "byte"): Failure => {
  const message = `${stop.what} at ${unit} ${offset}`
  return stop.tag === "DuplicateKey"
    ? { _tag: "DuplicateKey", offset, path: stop.path, message }
    : { _tag: stop.tag, offset, message }
}

const ESCAPES: Readonly<Record<number, string>> = {
  34: '"',
  92: "\\",
  47: "/",
  98: "\b",
  102: "\f",
  110: "\n",
  114: "\r",
  116: "\t"
}

const hexValue = (c: number): number =>
  c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : c >= 65 && c <= 70 ? c - 55 : -1

const KEY_SLOTS_MASK = 1023
/** Keys read before, by a hash of their characters (shared by every reading: keys repeat across texts too). */
const keyCache: Array<string | undefined> = new Array(KEY_SLOTS_MASK + 1).fill(undefined)

/** One reading of one text. */
class Reader {
  readonly text: string
  pos = 0
  readonly maxDepth: number
  readonly failOnDuplicate: boolean
  /** The repeated keys met so far, when any (their paths empty on the first reading). */
  duplicates: Array<Duplicate> | undefined
  /** The path to the value being read, kept only on the second reading that names the repeated keys. */
  readonly path: Array<string | number> | undefined

  constructor(text: string, maxDepth: number, failOnDuplicate: boolean, trackPaths: boolean) {
    this.text = text
    this.maxDepth = maxDepth
    this.failOnDuplicate = failOnDuplicate
    this.path = trackPaths ? [] : undefined
  }

  fail(pos: number, what?: string): never {
    throw new Stop("Syntax", pos, what ?? describe(this.text, pos))
  }

  /** Skips whitespace; returns the next character code (NaN at the end). */
  space(): number {
    const text = this.text
    let pos = this.pos
    let c = text.charCodeAt(pos)
    while (c === 32 || c === 10 || c === 13 || c === 9) c = text.charCodeAt(++pos)
    this.pos = pos
    return c
  }

  value(depth: number): Value {
    const c = this.space()
    switch (c) {
      case 34:
        return this.string()
      case 123:
        return this.object(depth + 1)
      case 91:
        return this.array(depth + 1)
      case 116:
        return this.word("true", true)
      case 102:
        return this.word("false", false)
      case 110:
        return this.word("null", null)
      default:
        if (c === 45 || (c >= 48 && c <= 57)) return this.number()
        return this.fail(this.pos)
    }
  }

  word<A>(word: string, value: A): A {
    if (!this.text.startsWith(word, this.pos)) {
      let i = 0
      while (i < word.length && this.text.charCodeAt(this.pos + i) === word.charCodeAt(i)) i++
      this.fail(this.pos + i)
    }
    this.pos += word.length
    return value
  }

  number(): NumberText {
    const text = this.text
    const start = this.pos
    let pos = start
    let c = text.charCodeAt(pos)
    if (c === 45) c = text.charCodeAt(++pos)
    if (c === 48) c = text.charCodeAt(++pos)
    else if (c >= 49 && c <= 57) {
      do c = text.charCodeAt(++pos)
      while (c >= 48 && c <= 57)
    } else this.fail(pos, pos >= text.length ? undefined : "no digit after the minus sign")
    if (c === 46) {
      c = text.charCodeAt(++pos)
      if (!(c >= 48 && c <= 57)) this.fail(pos, pos >= text.length ? undefined : "no digit after the decimal point")
      do c = text.charCodeAt(++pos)
      while (c >= 48 && c <= 57)
    }
    if (c === 101 || c === 69) {
      c = text.charCodeAt(++pos)
      if (c === 43 || c === 45) c = text.charCodeAt(++pos)
      if (!(c >= 48 && c <= 57)) this.fail(pos, pos >= text.length ? undefined : "no digit in the exponent")
      do c = text.charCodeAt(++pos)
      while (c >= 48 && c <= 57)
    }
    this.pos = pos
    return new NumberText(text.slice(start, pos))
  }

  /** A string; `pos` is at its opening quote. */
  string(): string {
    const text = this.text
    const start = this.pos + 1
    let pos = start
    const length = text.length
    // the usual case: no escape and no control character, one slice
    while (pos < length) {
      const c = text.charCodeAt(pos)
      if (c === 34) {
        this.pos = pos + 1
        return text.slice(start, pos)
      }
      if (c === 92 || c < 32) break
      pos++
    }
    return this.escaped(start, pos)
  }

  /**
   * A key; `pos` is at its opening quote. A key without escapes is taken from a small cache of keys read before
   * when one matches, so that the objects' keys are the same strings each time (records repeat their keys).
   */
  key(): string {
    const text = this.text
    const start = this.pos + 1
    let pos = start
    const length = text.length
    let hash = 0
    while (pos < length) {
      const c = text.charCodeAt(pos)
      if (c === 34) {
        this.pos = pos + 1
        const slot = (hash ^ (pos - start)) & KEY_SLOTS_MASK
        const cached = keyCache[slot]
        if (cached !== undefined && cached.length === pos - start && text.startsWith(cached, start)) return cached
        const key = text.slice(start, pos)
        if (key.length <= 64) keyCache[slot] = key
        return key
      }
      if (c === 92 || c < 32) break
      hash = (hash * 31 + c) | 0
      pos++
    }
    return this.escaped(start, pos)
  }

  /** The rest of a string from `pos`, with escapes; `start` is after the opening quote. */
  escaped(start: number, from: number): string {
    const text = this.text
    const length = text.length
    let out = text.slice(start, from)
    let pos = from
    let run = pos
    for (;;) {
      if (pos >= length) this.fail(start - 1, "unterminated string")
      const c = text.charCodeAt(pos)
      if (c === 34) {
        this.pos = pos + 1
        return out + text.slice(run, pos)
      }
      if (c < 32) this.fail(pos, `control character U+${c.toString(16).padStart(4, "0")} in a string`)
      if (c !== 92) {
        pos++
        continue
      }
      out += text.slice(run, pos)
      const e = text.charCodeAt(pos + 1)
      const simple = ESCAPES[e]
      if (simple !== undefined) {
        out += simple
        pos += 2
      } else if (e === 117) {
        let code = 0
        for (let k = 2; k < 6; k++) {
          const h = hexValue(text.charCodeAt(pos + k))
          if (h < 0) this.fail(pos, pos + k >= length ? "unterminated string" : "bad \\u escape")
          code = code * 16 + h
        }
        out += String.fromCharCode(code)
        pos += 6
      } else this.fail(pos, pos + 1 >= length ? "unterminated string" : "bad escape")
      run = pos
    }
  }

  array(depth: number): Array<Value> {
    if (depth > this.maxDepth) this.tooDeep()
    const out: Array<Value> = []
    this.pos++
    if (this.space() === 93) {
      this.pos++
      return out
    }
    const path = this.path
    if (path !== undefined) path.push(0)
    for (;;) {
      out.push(this.value(depth))
      const c = this.space()
      if (c === 44) {
        this.pos++
        if (path !== undefined) path[path.length - 1] = out.length
      } else if (c === 93) {
        this.pos++
        if (path !== undefined) path.pop()
        return out
      } else this.fail(this.pos)
    }
  }

  object(depth: number): { [key: string]: Value } {
    if (depth > this.maxDepth) this.tooDeep()
    const out: { [key: string]: Value } = {}
    this.pos++
    let c = this.space()
    if (c === 125) {
      this.pos++
      return out
    }
    const path = this.path
    if (path !== undefined) path.push("")
    for (;;) {
      if (c !== 34) this.fail(this.pos)
      const at = this.pos
      const key = this.key()
      if (this.text.charCodeAt(this.pos) === 58) this.pos++
      else if (this.space() === 58) this.pos++
      else this.fail(this.pos)
      if (path !== undefined) path[path.length - 1] = key
      // a string value, the usual case, without the general dispatch
      const value = this.text.charCodeAt(this.pos) === 34 ? this.string() : this.value(depth)
      const previous = out[key]
      if (previous !== undefined && Object.hasOwn(out, key)) this.duplicate(at)
      else if (key === "__proto__")
        Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true })
      else out[key] = value
      c = this.space()
      if (c === 44) {
        this.pos++
        c = this.space()
      } else if (c === 125) {
        this.pos++
        if (path !== undefined) path.pop()
        return out
      } else this.fail(this.pos)
    }
  }

  /**
   * A repeated key at `at`. Its path is known only on a second reading that follows the path, which `parse` makes
   * when the first one met a repeated key: the usual reading, without any, does not pay for paths.
   */
  duplicate(at: number): void {
    const path = this.path === undefined ? "" : pathText(this.path)
    if (this.failOnDuplicate) throw new Stop("DuplicateKey", at, `repeated key ${path}`, path)
    if (this.duplicates === undefined) this.duplicates = []
    this.duplicates.push({ path, offset: at })
  }

  tooDeep(): never {
    throw new Stop("TooDeep", this.pos, `nesting deeper than ${this.maxDepth} levels`)
  }
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/

/** `$.standingOrders[3]["odd key"]`. */
const pathText = (path: ReadonlyArray<string | number>): string => {
  let out = "$"
  for (const step of path) {
    out += typeof step === "number" ? `[${step}]` : IDENTIFIER.test(step) ? `.${step}` : `[${JSON.stringify(step)}]`
  }
  return out
}

/** One reading of the whole text: the value, or where it stopped. */
const readWhole = (text: string, maxDepth: number, failOnDuplicate: boolean, trackPaths: boolean) => {
  const reader = new Reader(text, maxDepth, failOnDuplicate, trackPaths)
  try {
    const value = reader.value(0)
    reader.space()
    if (reader.pos < text.length) reader.fail(reader.pos, "unexpected text after the JSON value")
    return { value, duplicates: reader.duplicates }
  } catch (e) {
    if (e instanceof Stop) return e
    // a stack smaller than the depth allowed (a runtime's own limit) is the same failure as too deep a text
    if (e instanceof RangeError) return new Stop("TooDeep", reader.pos, "nesting deeper than the stack allows")
    throw e
  }
}

/** The value and repeated keys of a text, or why it is not JSON (offsets in UTF-16 code units of `text`). */
const parseString = (text: string, options: Options | undefined): Document | Stop => {
  const maxDepth = Math.min(MAX_DEPTH, Math.max(0, options?.maxDepth ?? DEFAULT_DEPTH))
  const failOnDuplicate = options?.duplicateKeys === "fail"
  const first = readWhole(text, maxDepth, failOnDuplicate, false)
  if (first instanceof Stop) {
    if (first.tag !== "DuplicateKey") return first
  } else if (first.duplicates === undefined) return { value: first.value, duplicates: [] }
  // repeated keys: read again, following the path, to name them
  const second = readWhole(text, maxDepth, failOnDuplicate, true)
  return second instanceof Stop ? second : { value: second.value, duplicates: second.duplicates ?? [] }
}

// ---------------------------------------------------------------------------
// bytes
// ---------------------------------------------------------------------------

const fatalDecoder = new TextDecoder("utf-8", { fatal: true })

/**
 * The offset of the first byte in `bytes[from, to)` that does not start or continue a well-formed UTF-8 sequence
 * (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF), or -1; a sequence cut by `to` counts as
 * invalid when `atEnd`, else it is left for the next piece (and -1 returned).
 */
export const invalidUtf8Offset = (bytes: Uint8Array, from = 0, to = bytes.length, atEnd = true): number => {
  let i = from
  while (i < to) {
    const b = bytes[i] as number
    if (b < 0x80) {
      i++
      continue
    }
    let need: number
    let low = 0x80
    let high = 0xbf
    if (b >= 0xc2 && b <= 0xdf) need = 1
    else if (b >= 0xe0 && b <= 0xef) {
      need = 2
      if (b === 0xe0) low = 0xa0
      else if (b === 0xed) high = 0x9f
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3
      if (b === 0xf0) low = 0x90
      else if (b === 0xf4) high = 0x8f
    } else return i
    for (let k = 1; k <= need; k++) {
      if (i + k >= to) return atEnd ? i : -1
      const c = bytes[i + k] as number
      if (c < low || c > high) return i
      low = 0x80
      high = 0xbf
    }
    i += need + 1
  }
  return -1
}

/** How many of the last bytes of `tail` begin a UTF-8 sequence that the next bytes must complete (0 to 3). */
const openSequence = (tail: ReadonlyArray<number>): number => {
  for (let k = 1; k <= Math.min(3, tail.length); k++) {
    const b = tail[tail.length - k] as number
    if (b >= 0x80 && b <= 0xbf) continue
    const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1
    return need > k ? k : 0
  }
  return 0
}

/** A UTF-8 text read in pieces: each piece's characters as soon as they are whole, or the first invalid byte. */
export interface Utf8Decoder {
  /** The characters the piece completes, or the failure (also for every later piece) naming the stream's byte. */
  readonly push: (bytes: Uint8Array) => { ok: true; text: string } | { ok: false; failure: Failure }
  /** The end of the stream: fails when it ends inside a sequence. */
  readonly end: () => { ok: true; text: string } | { ok: false; failure: Failure }
}

/** A strict UTF-8 decoder for a stream read in pieces cut anywhere (a leading byte-order mark is skipped). */
export const utf8Decoder = (): Utf8Decoder => {
  // the byte-order mark is skipped here: a streaming decoder that skips it may also drop a U+FEFF right after a
  // mark cut between pieces
  const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true })
  let started = false
  const skipMark = (text: string): string => {
    if (started || text.length === 0) return text
    started = true
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
  }
  /** Bytes of the stream before the current piece, and the last (up to 3) of them. */
  let consumed = 0
  let tail: Array<number> = []
  let failed: { ok: false; failure: Failure } | undefined
  const fail = (offset: number) => {
    failed = { ok: false, failure: { _tag: "InvalidUtf8", offset, message: `invalid UTF-8 at byte ${offset}` } }
    return failed
  }
  return {
    push: (bytes) => {
      if (failed !== undefined) return failed
      try {
        const text = skipMark(decoder.decode(bytes, { stream: true }))
        consumed += bytes.length
        tail = [...tail, ...bytes.subarray(Math.max(0, bytes.length - 3))].slice(-3)
        return { ok: true, text }
      } catch {
        // the open sequence carried from before, then this piece: the first byte that cannot be (or continue) one
        const carried = openSequence(tail)
        const joined = new Uint8Array(carried + bytes.length)
        joined.set(tail.slice(tail.length - carried), 0)
        joined.set(bytes, carried)
        const at = invalidUtf8Offset(joined, 0, joined.length, false)
        return fail(consumed - carried + Math.max(0, at))
      }
    },
    end: () => {
      if (failed !== undefined) return failed
      try {
        return { ok: true, text: skipMark(decoder.decode()) }
      } catch {
        return fail(consumed - openSequence(tail))
      }
    }
  }
}

/** The UTF-8 byte length of `text[0, end)` (for byte offsets of failures). */
const utf8Length = (text: string, end: number): number => {
  let n = 0
  for (let i = 0; i < end; i++) {
    const c = text.charCodeAt(i)
    if (c < 0x80) n += 1
    else if (c < 0x800) n += 2
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < end) {
      n += 4
      i++
    } else n += 3
  }
  return n
}

/** Reads a JSON text, given as a string or as UTF-8 bytes (a leading byte-order mark is skipped). */
export const parse = (
  input: string | Uint8Array,
  options?: Options
): { readonly ok: true; readonly document: Document } | { readonly ok: false; readonly failure: Failure } => {
  if (typeof input === "string") {
    const read = parseString(input, options)
    return read instanceof Stop
      ? { ok: false, failure: failureOf(read, read.offset, "position") }
      : { ok: true, document: read }
  }
  let text: string
  try {
    text = fatalDecoder.decode(input)
  } catch {
    const offset = Math.max(0, invalidUtf8Offset(input))
    return { ok: false, failure: { _tag: "InvalidUtf8", offset, message: `invalid UTF-8 at byte ${offset}` } }
  }
  const read = parseString(text, options)
  const bom = input.length >= 3 && input[0] === 0xef && input[1] === 0xbb && input[2] === 0xbf ? 3 : 0
  const toBytes = (offset: number) => bom + utf8Length(text, offset)
  if (read instanceof Stop) return { ok: false, failure: failureOf(read, toBytes(read.offset), "byte") }
  if (read.duplicates.length === 0) return { ok: true, document: read }
  const duplicates = read.duplicates.map((d) => ({ path: d.path, offset: toBytes(d.offset) }))
  return { ok: true, document: { value: read.value, duplicates } }
}
