/**
 * internal/jsonPieces: a JSON document written in pieces is byte for byte `JSON.stringify(value, null, 2)`, its lazy
 * lists written as the arrays of their items (issue 40: forecast JSON written as it is made, Ctrl-C between pieces).
 */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as JsonPieces from "../../packages/cli/src/internal/jsonPieces.ts"

const text = (v: unknown) => [...JsonPieces.pieces(v)].join("")

/** The value with every array of the value turned into a lazy list of the same items (recursively). */
const lazily = (v: unknown): unknown => {
  if (Array.isArray(v)) return JsonPieces.lazy(v, lazily)
  if (typeof v === "object" && v !== null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, lazily(x)]))
  return v
}

describe("JsonPieces", () => {
  it("writes what JSON.stringify(value, null, 2) writes, with lists made lazily or not", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 5 }), (v) => {
        const expected = `${JSON.stringify(v, null, 2)}\n`
        expect(text(v)).toBe(expected)
        expect(text(lazily(v))).toBe(expected)
      }),
      { numRuns: 2_000 }
    )
  })

  it("writes a lazy list below the levels it looks at whole, as its items (fast-check found it written as {})", () => {
    const deep = { "": { "": { "": { "": [] } } }, b: { c: { d: { e: [1, { f: [2] }] } } } }
    expect(text(lazily(deep))).toBe(`${JSON.stringify(deep, null, 2)}\n`)
  })

  it("leaves out undefined keys, writes undefined items as null, and pauses in long lists", () => {
    const doc = { a: undefined, b: JsonPieces.lazy([1, undefined, 3], (x) => x), c: JsonPieces.lazy([], (x) => x) }
    expect(text(doc)).toBe(`${JSON.stringify({ b: [1, null, 3], c: [] }, null, 2)}\n`)
    const long = [
      ...JsonPieces.pieces({
        list: JsonPieces.lazy(
          Array.from({ length: 2_000 }, (_, i) => i),
          (i) => ({ i })
        )
      })
    ]
    expect(long.filter((p) => p === "").length).toBe(4)
  })
})
