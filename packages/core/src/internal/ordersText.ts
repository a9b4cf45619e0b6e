/**
 * The engine of `StandingOrder.decoder`: the JSON text of a standing-order list read piece by piece (text or UTF-8
 * bytes), a bare array of records or an object whose `standingOrders` array holds them. Only the containers are
 * tokenized here (brackets, commas, colons, keys); each record's own text is found by bracket and string matching
 * and read by core's exact JSON reader (`internal/json.ts`: numbers kept as their source text, repeated keys
 * reported), so memory holds one record's text at a time instead of the whole file, and where the pieces are cut
 * never changes the outcome.
 *
 * What it never does: buffer without bound (a record, a top-level value or a run of whitespace longer than
 * `maxRecordLength` characters ends the text with its position), replace invalid UTF-8 silently (a record holding
 * some is reported with the byte offset; elsewhere the text fails with it), or lose records silently (a record
 * that is not JSON but whose end is clear is reported by position and reading goes on; a repeated top-level key
 * is reported, and the records of every `standingOrders` array are read).
 */
import * as Json from "./json.ts"

/** A record as read: its JSON value, or why it cannot be used (with its value when it has one, e.g. repeated keys). */
export type Read =
  | { readonly _tag: "Value"; readonly value: Json.Value }
  | { readonly _tag: "Unreadable"; readonly path: string; readonly message: string; readonly value?: Json.Value }

/** What the reader reports while it reads. */
export interface Handler {
  /** The next record of the orders (counted from 0 across every `standingOrders` array). */
  readonly record: (read: Read) => void
}

/** A problem of the list itself (not of a record): a repeated top-level key. */
export interface Problem {
  readonly path: string
  readonly message: string
}

/** What the whole text was, once it has ended. */
export type Shape =
  /** A bare array of records. */
  | { readonly _tag: "Array" }
  /** An object; `standingOrders` is its kind of value when the key is present, `pageCount` the value of that key. */
  | {
      readonly _tag: "Object"
      readonly standingOrders: "array" | "null" | "other" | "absent"
      readonly pageCount: Json.Value | undefined
      /** Every top-level key, in text order, once each. */
      readonly keys: ReadonlyArray<string>
      /**
       * The first value of each top-level key but `standingOrders` (each at most `maxRecordLength` characters): where
       * another standard's list envelope keeps its records (UK `Data`, YNAB `data`, Berlin Group `transactions`), or
       * the fields of a whole record given alone.
       */
      readonly members: ReadonlyMap<string, Json.Value>
      readonly problems: ReadonlyArray<Problem>
    }

/** The limits of one reading. */
export interface Limits {
  /** The longest record, top-level value or run of whitespace read, in characters; longer ends the text. */
  readonly maxRecordLength: number
  /** The deepest nesting inside a record. */
  readonly maxDepth: number
}

type State =
  | "start"
  | "arrayFirst"
  | "arrayValue"
  | "arrayNext"
  | "objectFirst"
  | "objectKey"
  | "objectColon"
  | "objectValue"
  | "objectNext"
  | "end"

const isSpace = (c: number): boolean => c === 32 || c === 10 || c === 13 || c === 9

const QUOTE = 34
const BACKSLASH = 92
const REPLACEMENT = "\uFFFD"

/**
 * Why a text is not an orders file, as a reason to branch on: `empty` (no JSON value at all), `json` (broken or cut
 * JSON), `utf8` (an invalid byte outside the records), `notAList` (neither an array of orders nor an object with a
 * `standingOrders` array, or a record or a run of whitespace past the limit), `notAnArray` (`standingOrders` is no
 * array). `detail` says where and what; `message` is the words the readers print.
 */
export interface TextFailure {
  readonly reason: "empty" | "json" | "utf8" | "notAList" | "notAnArray"
  readonly detail: string
  readonly message: string
}

const prefixes: Record<TextFailure["reason"], string> = {
  empty: "not valid JSON: ",
  json: "not valid JSON: ",
  utf8: "not valid UTF-8: ",
  notAList: "not an orders file: ",
  notAnArray: ""
}

/** A text failure of a reason, its message the reason's words and the detail. */
export const textFailure = (reason: TextFailure["reason"], detail: string): TextFailure => ({
  reason,
  detail,
  message: prefixes[reason] + detail
})

/** A text that is neither an array nor an object. */
export const notAList: TextFailure = textFailure(
  "notAList",
  "expected a JSON array of standing orders or an object with a standingOrders array"
)

/** A list object whose `standingOrders` is no array. */
export const notAnArray: TextFailure = textFailure("notAnArray", "standingOrders must be a JSON array")

/** The message of a text that is neither an array nor an object. */
export const NOT_A_LIST = notAList.message

const utf8 = new TextDecoder("utf-8")

/** Where the incomplete UTF-8 sequence at the end of `bytes[from, to)` starts, or `to` when there is none. */
const incompleteTail = (bytes: Uint8Array, from: number, to: number): number => {
  let k = to - 1
  while (k >= from && k > to - 4 && ((bytes[k] as number) & 0xc0) === 0x80) k--
  if (k < from) return to
  const lead = bytes[k] as number
  const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1
  return k + need > to ? k : to
}

/** The orders-file reader: `push` pieces of text or bytes in order, then `end`. */
export class Reader {
  private readonly handler: Handler
  private readonly limits: Limits
  /** Text not consumed yet: starts at the value being scanned, if any. */
  private text = ""
  /** How many characters before `text` were consumed. */
  private base = 0
  private state: State = "start"
  private top: "array" | "object" | undefined
  private failure: TextFailure | undefined
  /** Records read so far (for messages and positions). */
  private records = 0
  private key: string | undefined
  private readonly keys = new Set<string>()
  private readonly problems: Array<Problem> = []
  private standingOrders: "array" | "null" | "other" | "absent" = "absent"
  private pageCount: Json.Value | undefined
  private readonly members = new Map<string, Json.Value>()
  /** Whether the records array being read is `standingOrders` of an object (else the bare top-level array). */
  private inList = false
  /** The absolute position of the last character that was not whitespace. */
  private mark = 0
  // the value being scanned: where it starts in `text`, how far it was scanned, bracket depth, inside a string
  private start = -1
  private scanned = 0
  private depth = 0
  private inString = false
  // bytes: the incomplete sequence kept from the last piece, the bytes read before it, and the characters (absolute
  // positions) that stand for invalid bytes with those bytes' offsets, oldest first
  private carry: Uint8Array | undefined
  private bytesRead = 0
  private readonly invalidAt: Array<number> = []
  private readonly invalidByte: Array<number> = []
  private invalidHead = 0

  constructor(handler: Handler, limits: Limits) {
    this.handler = handler
    this.limits = limits
  }

  /** Why the text is not an orders file, once known (later pieces are then ignored). */
  get error(): string | undefined {
    return this.failure?.message
  }

  /** Reads the next piece of text, or of UTF-8 bytes (a character may be split between two pieces). */
  push(piece: string | Uint8Array): void {
    if (this.failure !== undefined || piece.length === 0) return
    this.append(typeof piece === "string" ? piece : this.decode(piece, false))
  }

  /** Ends the text: its shape, or why it is not an orders file. */
  end(): { readonly shape: Shape } | { readonly error: string; readonly failure: TextFailure } {
    if (this.failure === undefined && this.carry !== undefined) {
      const carry = this.carry
      this.carry = undefined
      this.append(this.decode(carry, true))
    }
    if (this.failure === undefined) this.run(true)
    const failure =
      this.failure ??
      (this.state === "end"
        ? undefined
        : this.top === undefined
          ? textFailure("empty", "the text is empty")
          : textFailure(
              "json",
              `the text ends inside ${this.inList || this.top === "array" ? `the orders array, after ${this.records} records` : "the top-level object"} (a truncated file?)`
            ))
    if (failure !== undefined) return { error: failure.message, failure }
    return {
      shape:
        this.top === "array"
          ? { _tag: "Array" }
          : {
              _tag: "Object",
              standingOrders: this.standingOrders,
              pageCount: this.pageCount,
              keys: [...this.keys],
              members: this.members,
              problems: this.problems
            }
    }
  }

  /**
   * The text of UTF-8 bytes (after the incomplete sequence kept from the last piece), each invalid byte as U+FFFD
   * remembered with its offset; an incomplete sequence at the end is kept for the next piece unless `atEnd`.
   */
  private decode(piece: Uint8Array, atEnd: boolean): string {
    let bytes = piece
    if (this.carry !== undefined && !atEnd) {
      bytes = new Uint8Array(this.carry.length + piece.length)
      bytes.set(this.carry)
      bytes.set(piece, this.carry.length)
      this.carry = undefined
    }
    const origin = this.bytesRead
    const firstAt = this.base + this.text.length
    const to = atEnd ? bytes.length : incompleteTail(bytes, 0, bytes.length)
    let out = ""
    let from = 0
    for (;;) {
      const bad = Json.invalidUtf8Offset(bytes, from, to, true)
      if (bad < 0) {
        out += utf8.decode(bytes.subarray(from, to))
        break
      }
      out += utf8.decode(bytes.subarray(from, bad))
      this.invalidAt.push(firstAt + out.length)
      this.invalidByte.push(origin + bad)
      out += REPLACEMENT
      from = bad + 1
    }
    if (to < bytes.length) this.carry = bytes.slice(to)
    this.bytesRead = origin + to
    return out
  }

  private append(piece: string): void {
    const keep = this.start >= 0 ? this.start : this.text.length
    this.base += keep
    this.text = this.text.slice(keep) + piece
    if (this.start >= 0) {
      this.scanned -= this.start
      this.start = 0
    }
    this.run(false)
    if (this.failure !== undefined) return
    const max = this.limits.maxRecordLength
    if (this.start >= 0) {
      if (this.text.length - this.start > max) this.failure = this.tooLong(this.start)
      return
    }
    const end = this.base + this.text.length
    if (end - this.mark > max) {
      this.failure = textFailure(
        "notAList",
        `more than ${max} characters of whitespace from character ${this.mark + 1}, after ${this.records} records`
      )
      return
    }
    this.base = end
    this.text = ""
  }

  /** Whether the value being read is a record (else a key or value of the top-level object). */
  private recordNames(): boolean {
    return this.state === "arrayFirst" || this.state === "arrayValue"
  }

  /** The offset of the first invalid byte at a position in `[from, to)` (absolute), or -1; older ones are dropped. */
  private invalidIn(from: number, to: number): number {
    while (this.invalidHead < this.invalidAt.length && (this.invalidAt[this.invalidHead] as number) < from) {
      this.invalidHead++
    }
    if (this.invalidHead > 1024) {
      this.invalidAt.splice(0, this.invalidHead)
      this.invalidByte.splice(0, this.invalidHead)
      this.invalidHead = 0
    }
    const at = this.invalidAt[this.invalidHead]
    return at !== undefined && at < to ? (this.invalidByte[this.invalidHead] as number) : -1
  }

  private fail(at: number, what: string): undefined {
    const byte = this.invalidIn(0, this.base + at + 1)
    this.failure =
      byte >= 0
        ? textFailure("utf8", `an invalid byte at byte offset ${byte}, after ${this.records} records`)
        : textFailure("json", `${what} at character ${this.base + at}`)
    return undefined
  }

  /**
   * Scans the value starting at `this.start` (a string, array, object or scalar) as far as the text goes; returns
   * the position just after it, or -1 when the text ends first (the scan resumes on the next piece).
   */
  private scan(final: boolean): number {
    const text = this.text
    const n = text.length
    let j = this.scanned
    const first = text.charCodeAt(this.start)
    if (first !== QUOTE && first !== 123 && first !== 91) {
      // a scalar: up to the next delimiter
      while (j < n) {
        const c = text.charCodeAt(j)
        if (c === 44 || c === 93 || c === 125 || c === 58 || isSpace(c)) return j
        j++
      }
      this.scanned = j
      return final ? n : -1
    }
    if (j === this.start) {
      j++
      if (first === QUOTE) this.inString = true
      else this.depth = 1
    }
    for (;;) {
      if (this.inString) {
        // the closing quote: the next quote not escaped by an odd run of backslashes
        let q = text.indexOf('"', j)
        for (;;) {
          if (q < 0) break
          let b = q - 1
          while (b > this.start && text.charCodeAt(b) === BACKSLASH) b--
          if ((q - 1 - b) % 2 === 0) break
          q = text.indexOf('"', q + 1)
        }
        if (q < 0) {
          this.scanned = n
          return -1
        }
        this.inString = false
        j = q + 1
        if (this.depth === 0) return j
      }
      for (; j < n; j++) {
        const c = text.charCodeAt(j)
        if (c === QUOTE) break
        if (c === 123 || c === 91) this.depth++
        else if (c === 125 || c === 93) {
          if (--this.depth === 0) return j + 1
        }
      }
      if (j >= n) {
        this.scanned = n
        return -1
      }
      this.inString = true
      j++
    }
  }

  /** The extent of the value starting at `i` (or the one a former piece began), or `undefined` when the text ends first. */
  private extent(i: number, final: boolean): { readonly start: number; readonly end: number } | undefined {
    if (this.start < 0) {
      this.start = i
      this.scanned = i
      this.depth = 0
      this.inString = false
    }
    const end = this.scan(final)
    if (end < 0) return undefined
    const start = this.start
    if (end - start > this.limits.maxRecordLength) {
      this.failure = this.tooLong(start)
      return undefined
    }
    this.start = -1
    return { start, end }
  }

  private tooLong(start: number): TextFailure {
    const what = this.recordNames() ? `record ${this.records}` : "a value of the top-level object"
    return textFailure(
      "notAList",
      `${what}, from character ${this.base + start}, is longer than ${this.limits.maxRecordLength} characters (a standing order is a few hundred)`
    )
  }

  /** A record: read exactly, or reported (not JSON, repeated keys, invalid UTF-8) while reading goes on. */
  private record(start: number, end: number): void {
    const at = this.base + start
    const byte = this.invalidIn(at, this.base + end)
    this.invalidIn(this.base + end, this.base + end)
    if (byte >= 0) {
      this.handler.record({
        _tag: "Unreadable",
        path: "",
        message: `invalid UTF-8 at byte offset ${byte}; the record is not read (never with a character replaced)`
      })
      return
    }
    const read = Json.parse(this.text.slice(start, end), { maxDepth: this.limits.maxDepth, duplicateKeys: "report" })
    if (!read.ok) {
      const what = read.failure.message.replace(/ at position \d+$/, "")
      this.handler.record({
        _tag: "Unreadable",
        path: "",
        message: `not JSON: ${what} at character ${at + read.failure.offset}`
      })
      return
    }
    const duplicates = read.document.duplicates
    if (duplicates.length === 0) {
      this.handler.record({ _tag: "Value", value: read.document.value })
      return
    }
    const first = duplicates[0] as Json.Duplicate
    this.handler.record({
      _tag: "Unreadable",
      path: first.path.replace(/^\$\.?/, ""),
      message: `repeated key at character ${at + first.offset}${duplicates.length > 1 ? ` (and ${duplicates.length - 1} more)` : ""}; the record is not read, its values are ambiguous`,
      value: read.document.value
    })
  }

  /** A key or a value of the top-level object, read exactly; `undefined` (and the text failed) when it is not JSON. */
  private topValue(start: number, end: number, what: string): { readonly value: Json.Value } | undefined {
    const byte = this.invalidIn(this.base + start, this.base + end)
    this.invalidIn(this.base + end, this.base + end)
    if (byte >= 0) {
      this.failure = textFailure("utf8", `an invalid byte at byte offset ${byte}, in ${what}`)
      return undefined
    }
    const read = Json.parse(this.text.slice(start, end), { maxDepth: this.limits.maxDepth, duplicateKeys: "report" })
    if (!read.ok) {
      this.fail(start + read.failure.offset, `${what}: ${read.failure.message.replace(/ at position \d+$/, "")}`)
      return undefined
    }
    return { value: read.document.value }
  }

  private run(final: boolean): undefined {
    const text = this.text
    const n = text.length
    let i = Math.max(this.start, 0)
    while (this.failure === undefined) {
      if (this.start < 0) {
        while (i < n && isSpace(text.charCodeAt(i))) i++
        if (i >= n) return
        this.mark = this.base + i
      }
      const c = text.charCodeAt(i)
      switch (this.state) {
        case "start":
          if (c === 91) {
            this.top = "array"
            this.state = "arrayFirst"
            i++
          } else if (c === 123) {
            this.top = "object"
            this.state = "objectFirst"
            i++
          } else {
            // neither an array nor an object: not an orders file, whatever follows (nothing more is read)
            const byte = this.invalidIn(0, this.base + i + 1)
            this.failure =
              byte >= 0 ? textFailure("utf8", `an invalid byte at byte offset ${byte}, at the start`) : notAList
            return
          }
          break
        case "arrayFirst":
        case "arrayValue":
          if (c === 93 && this.state === "arrayFirst") {
            i++
            this.closeArray()
            break
          }
          {
            const v = this.extent(i, final)
            if (v === undefined) return
            this.record(v.start, v.end)
            this.records++
            this.state = "arrayNext"
            i = v.end
          }
          break
        case "arrayNext":
          if (c === 44) this.state = "arrayValue"
          else if (c === 93) this.closeArray()
          else return this.fail(i, `expected , or ] after record ${this.records - 1}`)
          i++
          break
        case "objectFirst":
        case "objectKey":
          if (c === 125 && this.state === "objectFirst") {
            this.state = "end"
            i++
            break
          }
          if (c !== QUOTE) return this.fail(i, "expected a key of the top-level object")
          {
            const v = this.extent(i, final)
            if (v === undefined) return
            const key = this.topValue(v.start, v.end, "a key of the top-level object")
            if (key === undefined) return
            this.key = key.value as string
            this.state = "objectColon"
            i = v.end
          }
          break
        case "objectColon":
          if (c !== 58) return this.fail(i, `expected : after the key ${JSON.stringify(this.key)}`)
          this.state = "objectValue"
          i++
          break
        case "objectValue": {
          const key = this.key as string
          if (this.start < 0) {
            const repeated = this.keys.has(key)
            this.keys.add(key)
            if (repeated) {
              this.problems.push({
                path: key,
                message: `the key ${JSON.stringify(key)} is repeated (at character ${this.base + i})${key === "standingOrders" ? "; the records of every standingOrders array are read" : "; its first value is kept"}`
              })
            }
            if (key === "standingOrders" && c === 91) {
              this.standingOrders = "array"
              this.inList = true
              this.state = "arrayFirst"
              i++
              break
            }
          }
          const v = this.extent(i, final)
          if (v === undefined) return
          const read = this.topValue(v.start, v.end, `the value of ${JSON.stringify(key)}`)
          if (read === undefined) return
          if (key === "standingOrders") {
            if (this.standingOrders === "absent") this.standingOrders = read.value === null ? "null" : "other"
          } else {
            if (key === "pageCount" && this.pageCount === undefined) this.pageCount = read.value
            if (!this.members.has(key)) this.members.set(key, read.value)
          }
          this.state = "objectNext"
          i = v.end
          break
        }
        case "objectNext":
          if (c === 44) this.state = "objectKey"
          else if (c === 125) this.state = "end"
          else return this.fail(i, "expected , or } in the top-level object")
          i++
          break
        case "end":
          return this.fail(i, "unexpected text after the end of the JSON value")
      }
    }
  }

  private closeArray(): void {
    if (this.inList) {
      this.inList = false
      this.state = "objectNext"
    } else {
      this.state = "end"
    }
  }
}
