import { Json, Money, StandingOrder } from "@tppkit/core"
import { BigDecimal, Option, Result, Schema } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"

const parseOk = (input: string | Uint8Array, options?: Json.Options): Json.Document => {
  const r = Json.parse(input, options)
  if (Result.isFailure(r)) throw new Error(r.failure.message)
  return r.success
}

const failureOf = (input: string | Uint8Array, options?: Json.Options): Json.Failure => {
  const r = Json.parse(input, options)
  if (Result.isSuccess(r)) throw new Error("expected a failure")
  return r.failure
}

/** The value `JSON.parse` gives for the same text: every number text as a float. */
const toPlain = (v: Json.Value): unknown => {
  if (Json.isNumberText(v)) return Number(v.text)
  if (Array.isArray(v)) return v.map(toPlain)
  if (typeof v === "object" && v !== null) {
    const out: Record<string, unknown> = {}
    for (const [k, x] of Object.entries(v)) Object.defineProperty(out, k, { value: toPlain(x), enumerable: true })
    return out
  }
  return v
}

const order = (value: string, orderId = "SO-1") =>
  `{"orderId":"${orderId}","debtor":{"name":"Jana","iban":"SK3112000000198742637541"},` +
  `"creditor":{"iban":"SK8975000000000012345671"},"instructedAmount":{"value":${value},"currency":"EUR"},` +
  `"frequency":"MNTH"}`

describe("Json.parse: amounts reach the domain as exactly the decimals written", () => {
  const fourHundred = `0.${"1234567891".repeat(40)}`
  const rows: ReadonlyArray<[string, string]> = [
    ["12.345", "12.345"],
    ["1e-7", "0.0000001"],
    ["1.0000000000000000000001", "1.0000000000000000000001"],
    ["12345678901234567890.12", "12345678901234567890.12"],
    [fourHundred, fourHundred],
    ["1250.50", "1250.5"],
    ["-5", "-5"],
    ["0", "0"],
    ["1E+15", "1000000000000000"],
    ["2.5e2", "250"]
  ]
  it.each(rows)("a page with amount %s decodes to %s", (text, plain) => {
    const document = parseOk(`{"pageCount":1,"standingOrders":[${order(text)}]}`)
    const page = StandingOrder.decodeListLenient(document.value)
    if (Result.isFailure(page)) throw new Error(page.failure)
    expect(page.success.errors).toEqual([])
    const amount = page.success.orders[0]?.instructedAmount.value
    expect(amount && Money.toPlainString(amount)).toBe(plain)
    // the record is whole, so what does not fit [9.2] is left for the projection to report, never rounded
    if (amount)
      expect(Money.invalidReason(amount, Money.standingOrderFormat) === undefined).toBe(
        Money.fits(amount, Money.standingOrderFormat)
      )
  })

  it("the same texts through JSON.parse lose digits (why the reader exists)", () => {
    const lossy = JSON.parse(`[1.0000000000000000000001, 12345678901234567890.12]`) as Array<number>
    expect(lossy.map((n) => Money.toPlainString(Money.fromJsonNumber(n) as Money.Amount))).toEqual([
      "1",
      "12345678901234567000"
    ])
  })

  it("pageCount is read exactly: a whole number in any spelling, never a rounded one", () => {
    const pageCount = (text: string) => {
      const r = StandingOrder.decodeListLenient(parseOk(`{"pageCount":${text},"standingOrders":[]}`).value)
      if (Result.isFailure(r)) throw new Error(r.failure)
      return { pageCount: r.success.pageCount, errors: r.success.errors.map((e) => e.path) }
    }
    expect(pageCount("3")).toEqual({ pageCount: 3, errors: [] })
    expect(pageCount("3.0")).toEqual({ pageCount: 3, errors: [] })
    expect(pageCount("30e-1")).toEqual({ pageCount: 3, errors: [] })
    expect(pageCount("3.0000000000000000001")).toEqual({ pageCount: undefined, errors: ["pageCount"] })
    expect(pageCount("1e400")).toEqual({ pageCount: undefined, errors: ["pageCount"] })
    expect(pageCount("-1")).toEqual({ pageCount: undefined, errors: ["pageCount"] })
  })

  it("a numeric orderId is named in a record's problem by its text", () => {
    const r = StandingOrder.decodeListLenient(
      parseOk(`{"standingOrders":[${order("1", "x").replace('"x"', "12345678901234567890")}]}`).value
    )
    if (Result.isFailure(r)) throw new Error(r.failure)
    expect(r.success.errors.map((e) => [e.orderId, e.path])).toEqual([["12345678901234567890", "orderId"]])
  })

  it("JSON.stringify writes a number back as it was read", () => {
    const { value } = parseOk('{"a":[1.50,1e-7,-0,12345678901234567890.12]}')
    expect(JSON.stringify(value)).toBe('{"a":[1.50,1e-7,-0,12345678901234567890.12]}')
  })

  it("Money.fromNumberText refuses what is not a JSON number and bounds the scale", () => {
    for (const bad of ["", "+1", "01", "1.", ".5", "1e", "0x10", "NaN", "1_000", " 1"]) {
      expect(Result.isFailure(Money.fromNumberText(bad)), bad).toBe(true)
    }
    expect(Result.isFailure(Money.fromNumberText("1e99999"))).toBe(true)
    expect(Result.isFailure(Money.fromNumberText("1e-10001"))).toBe(true)
    expect(Result.map(Money.fromNumberText("1e-10000"), (a) => a.scale)).toEqual(Result.succeed(10000))
  })
})

describe("Json.parse: repeated keys, depth, UTF-8 and syntax", () => {
  it("keeps the first value of a repeated key and reports every later one by path and offset", () => {
    const text = '{"standingOrders":[1],"pageCount":2,"standingOrders":[],"x":{"a b":[{"k":1,"k":2}]}}'
    const { value, duplicates } = parseOk(text)
    expect(toPlain(value)).toEqual({ standingOrders: [1], pageCount: 2, x: { "a b": [{ k: 1 }] } })
    expect(duplicates).toEqual([
      { path: "$.standingOrders", offset: text.indexOf('"standingOrders"', 5) },
      { path: '$.x["a b"][0].k', offset: text.lastIndexOf('"k"') }
    ])
    const failed = failureOf(text, { duplicateKeys: "fail" })
    const at = text.indexOf('"standingOrders"', 5)
    expect(failed).toMatchObject({ _tag: "DuplicateKey", path: "$.standingOrders", offset: at })
    expect(failed.message).toBe(`repeated key $.standingOrders at position ${at}`)
  })

  it("a key named __proto__ is an own property, as with JSON.parse, and changes no prototype", () => {
    const { value } = parseOk('{"__proto__":{"polluted":true},"a":1}')
    const object = value as Record<string, unknown>
    expect(Object.getPrototypeOf(object)).toBe(Object.prototype)
    expect(Object.keys(object)).toEqual(["__proto__", "a"])
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(parseOk('{"toString":1,"toString":2}').duplicates.map((d) => d.path)).toEqual(["$.toString"])
  })

  it("bounds nesting: 256 levels by default, fewer on request, never a stack overflow", () => {
    const nested = (n: number) => "[".repeat(n) + "]".repeat(n)
    expect(Result.isSuccess(Json.parse(nested(256)))).toBe(true)
    expect(failureOf(nested(257))).toMatchObject({ _tag: "TooDeep", offset: 256 })
    expect(failureOf('{"a":{"b":1}}', { maxDepth: 1 })._tag).toBe("TooDeep")
    expect(failureOf(nested(1_000_000))._tag).toBe("TooDeep")
    expect(failureOf(nested(100_000), { maxDepth: 1_000_000 })._tag).toBe("TooDeep")
  })

  it("names invalid UTF-8 by the offset of its first bad byte, never replacing it", () => {
    const bytes = (...b: Array<number>) => new Uint8Array(b)
    const quoted = (...b: Array<number>) => bytes(0x5b, 0x22, 0x61, ...b, 0x22, 0x5d) // ["a…"]
    const cases: ReadonlyArray<[Uint8Array, number]> = [
      [quoted(0xff), 3], // never a UTF-8 byte
      [quoted(0x80), 3], // a continuation without a lead
      [quoted(0xc0, 0x80), 3], // an overlong NUL
      [quoted(0xe0, 0x80, 0x80), 3], // an overlong three-byte form
      [quoted(0xed, 0xa0, 0x80), 3], // a surrogate
      [quoted(0xf4, 0x90, 0x80, 0x80), 3], // above U+10FFFF
      [quoted(0xc3, 0xa9, 0xe2, 0x82), 5], // é, then a cut three-byte form
      [bytes(0x22, 0xe2, 0x82), 1] // cut at the end
    ]
    for (const [input, offset] of cases) {
      expect(failureOf(input)).toEqual({ _tag: "InvalidUtf8", offset, message: `invalid UTF-8 at byte ${offset}` })
      expect(Json.invalidUtf8Offset(input)).toBe(offset)
    }
    expect(Json.invalidUtf8Offset(bytes(0x61, 0xe2, 0x82), 0, 3, false)).toBe(-1)
    expect(toPlain(parseOk(bytes(0xef, 0xbb, 0xbf, 0x5b, 0x31, 0x5d)).value)).toEqual([1])
  })

  it("gives syntax failures with the offset in the unit read: positions in a string, bytes in bytes", () => {
    expect(failureOf('{"é":x}')).toMatchObject({ _tag: "Syntax", offset: 5 })
    expect(failureOf(new TextEncoder().encode('{"é":x}'))).toEqual({
      _tag: "Syntax",
      offset: 6,
      message: "unexpected character 'x' at byte 6"
    })
    expect(failureOf("[1,]").message).toBe("unexpected character ']' at position 3")
    expect(failureOf('"a').message).toBe("unterminated string at position 0")
    expect(failureOf("[1] 2").message).toBe("unexpected text after the JSON value at position 4")
    expect(failureOf("").message).toBe("unexpected end of JSON text at position 0")
  })
})

// ---------------------------------------------------------------------------
// properties
// ---------------------------------------------------------------------------

/** A JSON number's text by its parts: sign, integer digits, fraction digits, exponent (with its spelling). */
const numberText = fc
  .record({
    negative: fc.boolean(),
    integer: fc.oneof(fc.constant("0"), fc.stringMatching(/^[1-9][0-9]{0,40}$/)),
    fraction: fc.option(fc.stringMatching(/^[0-9]{1,60}$/), { nil: undefined }),
    exponent: fc.option(
      fc.record({
        e: fc.constantFrom("e", "E"),
        sign: fc.constantFrom("", "+", "-"),
        digits: fc.stringMatching(/^[0-9]{1,3}$/)
      }),
      { nil: undefined }
    )
  })
  .map((p) => ({
    ...p,
    text: `${p.negative ? "-" : ""}${p.integer}${p.fraction === undefined ? "" : `.${p.fraction}`}${
      p.exponent === undefined ? "" : `${p.exponent.e}${p.exponent.sign}${p.exponent.digits}`
    }`
  }))

/** Escapes some characters of a JSON text's strings as `\uXXXX`, as a bank may write them. */
const withEscapes = (value: unknown, pick: (i: number) => boolean): string =>
  JSON.stringify(value, (_, v) => v).replace(/"(?:[^"\\]|\\.)*"/g, (s) => {
    let i = 0
    // an escape stays as it is; a character may become one
    return s.replace(/\\u[0-9a-fA-F]{4}|\\.|[^"\\]/g, (c) =>
      c.length === 1 && pick(i++) ? `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}` : c
    )
  })

describe("properties", () => {
  it("every number text is kept as written and read as exactly its decimal (10,000 runs)", () => {
    fc.assert(
      fc.property(numberText, (p) => {
        const { value } = parseOk(`[${p.text}]`)
        const n = (value as ReadonlyArray<Json.Value>)[0]
        if (!Json.isNumberText(n) || n.text !== p.text) return false
        // the exact decimal by its parts: digits as an integer, the scale from fraction and exponent
        const exponent =
          p.exponent === undefined ? 0 : Number(`${p.exponent.sign === "-" ? "-" : ""}${p.exponent.digits}`)
        const digits = BigInt(`${p.negative ? "-" : ""}${p.integer}${p.fraction ?? ""}`)
        const expected = BigDecimal.make(digits, (p.fraction?.length ?? 0) - exponent)
        const read = Money.fromNumberText(n.text)
        const other = BigDecimal.fromString(p.text)
        return (
          Result.isSuccess(read) &&
          BigDecimal.equals(read.success, expected) &&
          Option.isSome(other) &&
          BigDecimal.equals(read.success, other.value)
        )
      }),
      { numRuns: 10_000 }
    )
  })

  it("the amount schema reads a number text as Money.fromNumberText does", () => {
    const decode = Schema.decodeUnknownSync(Money.StandingOrderAmountValue)
    fc.assert(
      fc.property(numberText, (p) => {
        const read = Money.fromNumberText(p.text)
        return Result.isSuccess(read) && BigDecimal.equals(decode(new Json.NumberText(p.text)), read.success)
      }),
      { numRuns: 2_000 }
    )
  })

  it("reads every JSON text as JSON.parse does, up to numbers, with or without escapes and spaces", () => {
    fc.assert(
      fc.property(
        fc.jsonValue({ stringUnit: "binary" }),
        fc.func(fc.boolean()),
        fc.constantFrom(0, 2),
        (value, pick, indent) => {
          const texts = [JSON.stringify(value, null, indent), withEscapes(value, (i) => pick(i))]
          return texts.every((text) => {
            const read = Json.parse(text)
            if (Result.isFailure(read) || read.success.duplicates.length > 0) return false
            expect(toPlain(read.success.value)).toEqual(JSON.parse(text))
            return true
          })
        }
      ),
      { numRuns: 3_000 }
    )
  })

  it("accepts exactly the texts JSON.parse accepts (JSON texts with one character changed)", () => {
    const alphabet = fc.constantFrom(...'{}[]:,"\\ \t\n0123456789-+.eEtrufalsn\u0000\u001fxé')
    fc.assert(
      fc.property(
        fc.jsonValue({ maxDepth: 3 }),
        fc.nat(),
        alphabet,
        fc.constantFrom("insert", "replace", "delete"),
        (value, at, c, how) => {
          const base = JSON.stringify(value)
          const i = at % (base.length + 1)
          const text =
            how === "insert"
              ? base.slice(0, i) + c + base.slice(i)
              : how === "replace"
                ? base.slice(0, i) + c + base.slice(i + 1)
                : base.slice(0, i) + base.slice(i + 1)
          let expected: unknown
          let native = true
          try {
            expected = JSON.parse(text)
          } catch {
            native = false
          }
          const read = Json.parse(text)
          if (Result.isSuccess(read) !== native) return false
          if (Result.isFailure(read) || read.success.duplicates.length > 0) return true
          expect(toPlain(read.success.value)).toEqual(expected)
          return true
        }
      ),
      { numRuns: 10_000 }
    )
  })

  it("a UTF-8 stream cut anywhere decodes as the whole does, failing at the same byte (10,000 runs)", () => {
    const strict = new TextDecoder("utf-8", { fatal: true })
    const piece = fc.oneof(
      fc.string({ unit: "binary", maxLength: 6 }).map((s) => Array.from(new TextEncoder().encode(s))),
      fc.array(fc.integer({ min: 0x80, max: 0xff }), { maxLength: 3 }),
      fc.constant([0xef, 0xbb, 0xbf])
    )
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 6 }), fc.array(fc.nat(), { maxLength: 5 }), (pieces, cuts) => {
        const bytes = new Uint8Array(pieces.flat())
        const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b)
        const decoder = Json.utf8Decoder()
        let text = ""
        let failure: Json.Failure | undefined
        for (const [i, from] of [0, ...at].entries()) {
          const r = decoder.push(bytes.subarray(from, at[i] ?? bytes.length))
          if (!r.ok) {
            failure = r.failure
            break
          }
          text += r.text
        }
        if (failure === undefined) {
          const r = decoder.end()
          if (r.ok) text += r.text
          else failure = r.failure
        }
        const offset = Json.invalidUtf8Offset(bytes)
        if (offset === -1) return failure === undefined && text === strict.decode(bytes)
        return failure?._tag === "InvalidUtf8" && failure.offset === offset
      }),
      { numRuns: 10_000 }
    )
  })

  it("finds the first invalid UTF-8 byte exactly where a strict decoder stops (10,000 runs)", () => {
    const strict = new TextDecoder("utf-8", { fatal: true })
    const lax = new TextDecoder("utf-8", { ignoreBOM: true })
    const piece = fc.oneof(
      fc.string({ unit: "binary", maxLength: 6 }).map((s) => Array.from(new TextEncoder().encode(s))),
      fc.array(fc.integer({ min: 0x80, max: 0xff }), { maxLength: 4 })
    )
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 6 }), (pieces) => {
        const bytes = new Uint8Array(pieces.flat())
        const offset = Json.invalidUtf8Offset(bytes)
        let valid = true
        try {
          strict.decode(bytes)
        } catch {
          valid = false
        }
        if (offset === -1) return valid
        // the bytes before are well-formed, and a decoder that replaces starts with a replacement at the offset
        strict.decode(bytes.subarray(0, offset))
        const parsed = Json.parse(bytes)
        return (
          !valid &&
          lax.decode(bytes.subarray(offset)).startsWith("\uFFFD") &&
          Result.isFailure(parsed) &&
          parsed.failure._tag === "InvalidUtf8" &&
          parsed.failure.offset === offset
        )
      }),
      { numRuns: 10_000 }
    )
  })
})
