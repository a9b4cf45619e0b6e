/**
 * The engine of `StandingOrder.decoder`: the JSON text of a standing-order list read piece by piece, a bare array
 * of records or an object whose `standingOrders` array holds them. Only the containers are tokenized here (brackets, commas, colons, keys); each
 * record's own text is found by bracket and string matching and handed to the native `JSON.parse`, so the reader
 * costs little more than parsing the records one by one, and memory holds one record's text at a time instead of
 * the whole file. Accepts exactly the texts `JSON.parse` accepts, with the same values (a repeated key keeps its
 * last value, as `JSON.parse` does); where the pieces are cut never changes the outcome.
 */

/** What the reader reports while it reads. */
export interface Handler {
  /** The next record of the orders array (its position counts from 0 in the current array). */
  readonly record: (value: unknown) => void
  /** A `standingOrders` key starts again (a repeated key): the records reported so far are not part of the result. */
  readonly restart: () => void
}

/** What the whole text was, once it has ended. */
export type Shape =
  /** A bare array of records. */
  | { readonly _tag: "Array" }
  /** An object; `standingOrders` is its kind of value when the key is present, `pageCount` the value of that key. */
  | {
      readonly _tag: "Object"
      readonly standingOrders: "array" | "null" | "other" | "absent"
      readonly pageCount: unknown
    }
  /** Some other JSON value (a number, a string, `true`, `false`, `null`). */
  | { readonly _tag: "Other" }

type State =
  | "start"
  | "other"
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

/** The orders-file reader: `push` pieces of text in order, then `end`. */
export class Reader {
  private readonly handler: Handler
  /** Text not consumed yet: starts at the value being scanned, if any. */
  private text = ""
  /** How many characters before `text` were consumed. */
  private base = 0
  private state: State = "start"
  private top: "array" | "object" | "other" | undefined
  private failure: string | undefined
  /** Records of the current array read so far (for messages). */
  private records = 0
  private key: string | undefined
  private standingOrders: "array" | "null" | "other" | "absent" = "absent"
  private pageCount: unknown
  /** Whether the records array being read is `standingOrders` of an object (else the bare top-level array). */
  private inList = false
  // the value being scanned: where it starts in `text`, how far it was scanned, bracket depth, inside a string
  private start = -1
  private scanned = 0
  private depth = 0
  private inString = false

  constructor(handler: Handler) {
    this.handler = handler
  }

  /** Why the text is not JSON, once known (later pieces are then ignored). */
  get error(): string | undefined {
    return this.failure
  }

  /** Reads the next piece of text. */
  push(piece: string): void {
    if (this.failure !== undefined || piece.length === 0) return
    if (this.state === "other") {
      this.text += piece
      return
    }
    const keep = this.start >= 0 ? this.start : this.text.length
    this.base += keep
    this.text = this.text.slice(keep) + piece
    if (this.start >= 0) {
      this.scanned -= this.start
      this.start = 0
    }
    this.run(false)
    if (this.failure === undefined && this.start < 0 && (this.state as State) !== "other") {
      this.base += this.text.length
      this.text = ""
    }
  }

  /** Ends the text: its shape, or why it is not JSON. */
  end(): { readonly shape: Shape } | { readonly error: string } {
    if (this.failure === undefined) {
      if (this.state === "other") {
        try {
          JSON.parse(this.text)
        } catch (e) {
          return { error: `not valid JSON: ${messageOf(e)}` }
        }
        this.state = "end"
      } else {
        this.run(true)
      }
    }
    if (this.failure !== undefined) return { error: this.failure }
    if (this.state !== "end") {
      return {
        error:
          this.top === undefined
            ? "not valid JSON: the text is empty"
            : `not valid JSON: the text ends inside ${this.inList || this.top === "array" ? `the orders array, after ${this.records} records` : "the top-level object"} (a truncated file?)`
      }
    }
    return {
      shape:
        this.top === "array"
          ? { _tag: "Array" }
          : this.top === "object"
            ? { _tag: "Object", standingOrders: this.standingOrders, pageCount: this.pageCount }
            : { _tag: "Other" }
    }
  }

  private fail(at: number, what: string): undefined {
    this.failure = `not valid JSON: ${what} at character ${this.base + at}`
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

  /**
   * The value starting at `i` (or the one whose scan a former piece began): scanned to its end and parsed with
   * `JSON.parse`; `undefined` when the text ends first (the scan resumes with the next piece) or the value is
   * not JSON (the reader then fails naming `what` and where).
   */
  private value(
    i: number,
    final: boolean,
    what: string
  ): { readonly value: unknown; readonly end: number } | undefined {
    if (this.start < 0) {
      this.start = i
      this.scanned = i
      this.depth = 0
      this.inString = false
    }
    const end = this.scan(final)
    if (end < 0) return undefined
    const start = this.start
    this.start = -1
    try {
      return { value: JSON.parse(this.text.slice(start, end)), end }
    } catch (e) {
      this.fail(start, `${what}: ${messageOf(e)}`)
      return undefined
    }
  }

  private run(final: boolean): undefined {
    const text = this.text
    const n = text.length
    let i = Math.max(this.start, 0)
    while (this.failure === undefined) {
      if (this.start < 0) {
        while (i < n && isSpace(text.charCodeAt(i))) i++
        if (i >= n) return
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
            // not an orders file if it is JSON at all: the rest is kept and parsed at the end
            this.top = "other"
            this.state = "other"
            this.text = text.slice(i)
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
            const v = this.value(i, final, `record ${this.records}`)
            if (v === undefined) return
            this.records++
            this.handler.record(v.value)
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
            const v = this.value(i, final, "a key of the top-level object")
            if (v === undefined) return
            this.key = v.value as string
            this.state = "objectColon"
            i = v.end
          }
          break
        case "objectColon":
          if (c !== 58) return this.fail(i, `expected : after the key ${JSON.stringify(this.key)}`)
          this.state = "objectValue"
          i++
          break
        case "objectValue":
          if (this.key === "standingOrders" && this.start < 0) {
            if (this.standingOrders !== "absent") this.handler.restart()
            this.records = 0
            if (c === 91) {
              this.standingOrders = "array"
              this.inList = true
              this.state = "arrayFirst"
              i++
              break
            }
          }
          {
            const v = this.value(i, final, `the value of ${JSON.stringify(this.key)}`)
            if (v === undefined) return
            if (this.key === "standingOrders") this.standingOrders = v.value === null ? "null" : "other"
            else if (this.key === "pageCount") this.pageCount = v.value
            this.state = "objectNext"
            i = v.end
          }
          break
        case "objectNext":
          if (c === 44) this.state = "objectKey"
          else if (c === 125) this.state = "end"
          else return this.fail(i, "expected , or } in the top-level object")
          i++
          break
        case "end":
          return this.fail(i, "unexpected text after the end of the JSON value")
        case "other":
          return
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

const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e))
