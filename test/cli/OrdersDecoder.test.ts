import { readFileSync } from "node:fs"
import { join } from "node:path"
import { Project, type Render } from "@tppkit/cli"
import { Money, StandingOrder } from "@tppkit/core"
import { Result } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"

const fixture = (name: string) => readFileSync(join(import.meta.dirname, "fixtures", name), "utf8")

/**
 * The reading the streaming decoder replaced, kept as the judge: `JSON.parse` of the whole text, then the core
 * list decoders, then the two-decimal check.
 */
const wholeText = (text: string): Result.Result<Project.Decoded, string> => {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (e) {
    return Result.fail(`not valid JSON: ${String(e)}`)
  }
  if (!Array.isArray(json) && !(typeof json === "object" && json !== null && "standingOrders" in json)) {
    return Result.fail("not an orders file")
  }
  const decoded = Array.isArray(json) ? StandingOrder.decodeOrdersLenient(json) : StandingOrder.decodeListLenient(json)
  return Result.map(decoded, (d) => {
    const orders: Array<StandingOrder.StandingOrder> = []
    const skipped: Array<Render.SkippedRow> = d.errors.map((e) => ({
      orderId: e.orderId,
      reason: `record ${e.index}${e.path.length > 0 ? ` at ${e.path}` : ""}: ${e.message}`
    }))
    for (const order of d.orders) {
      const decimals = Money.fractionDigits(order.instructedAmount.value)
      if (decimals > 2) {
        skipped.push({
          orderId: order.orderId,
          reason: `instructedAmount.value ${Money.toPlainString(order.instructedAmount.value)} has ${decimals} decimals; the format allows 2, and the report does not round`
        })
      } else {
        orders.push(order)
      }
    }
    return { orders, skipped }
  })
}

/** The text pushed in pieces cut at the given positions. */
const inPieces = (text: string, cuts: ReadonlyArray<number>): Result.Result<Project.Decoded, string> => {
  const decoder = Project.ordersDecoder()
  let at = 0
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    if (!decoder.push(text.slice(at, cut))) break
    at = cut
  }
  decoder.push(text.slice(at))
  return decoder.end()
}

/** A comparable picture of an outcome: the failure's kind, or every order's wire JSON and every skipped row. */
const picture = (r: Result.Result<Project.Decoded, string>) =>
  Result.isFailure(r)
    ? {
        failure: r.failure.startsWith("not valid JSON")
          ? "not valid JSON"
          : r.failure.startsWith("not an orders file")
            ? "not an orders file"
            : r.failure
      }
    : {
        orders: r.success.orders.map((o) => ({
          orderId: o.orderId,
          frequency: o.frequency,
          startDate: o.startDate,
          nextDate: o.nextDate,
          endDate: o.endDate,
          instructedAmount: { value: o.instructedAmount.value, currency: o.instructedAmount.currency },
          debtor: { iban: o.debtor.iban },
          creditor: { iban: o.creditor.iban, name: o.creditor.name }
        })),
        skipped: r.success.skipped
      }

const order = (orderId: string, extra: Record<string, unknown> = {}) => ({
  orderId,
  debtor: { name: "Jana", iban: "SK2411000000002612345678" },
  creditor: { name: "Landlord", iban: "SK6609000000005012345678" },
  instructedAmount: { value: 12.5, currency: "EUR" },
  startDate: "2026-01-31",
  frequency: "MNTH",
  ...extra
})

/** Records of every kind: good orders (texts with escapes and non-ASCII), bad ones, scalars, nested values. */
const record = fc.oneof(
  fc
    .record({
      id: fc.string({ unit: "binary", maxLength: 8 }),
      name: fc.option(fc.string({ unit: "binary", maxLength: 12 }), { nil: undefined }),
      value: fc.oneof(fc.integer({ min: -1000, max: 100_000 }), fc.constant(7.125), fc.constant("12.50")),
      frequency: fc.constantFrom("MNTH", "WEEK", "DAIL", "FOO"),
      debtorIban: fc.constantFrom("SK2411000000002612345678", "CZ5508000000001234567899", "SK00")
    })
    .map(({ id, name, value, frequency, debtorIban }) =>
      order(id, {
        creditor:
          name === undefined ? { iban: "SK6702000000001234567890" } : { name, iban: "SK6609000000005012345678" },
        debtor: { name: 'Jana \\ "N"', iban: debtorIban },
        instructedAmount: { value, currency: "EUR" },
        frequency
      })
    ),
  fc.jsonValue({ maxDepth: 2 })
)

/** An orders file: a bare array, or an object with pageCount, other keys and standingOrders in any order. */
const ordersFile = fc
  .record({
    records: fc.array(record, { maxLength: 12 }),
    bare: fc.boolean(),
    pageCount: fc.option(fc.oneof(fc.nat(9), fc.constant("2"), fc.constant("x"), fc.constant(null)), {
      nil: undefined
    }),
    other: fc.dictionary(fc.string({ maxLength: 4 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 2 }),
    indent: fc.constantFrom(0, 1, 2, "\t")
  })
  .map(({ records, bare, pageCount, other, indent }) =>
    JSON.stringify(
      bare
        ? records
        : { ...other, ...(pageCount === undefined ? {} : { pageCount }), standingOrders: records, ...other },
      null,
      indent
    )
  )

/** Cut positions inside a text. */
const cutsOf = (text: string) => fc.array(fc.nat(text.length), { maxLength: 8 })

describe("Project.ordersDecoder", () => {
  it("gives what JSON.parse of the whole text gives, wherever the text is cut", () => {
    fc.assert(
      fc.property(
        ordersFile.chain((text) => fc.tuple(fc.constant(text), cutsOf(text))),
        ([text, cuts]) => {
          const expected = picture(wholeText(text))
          expect(picture(inPieces(text, cuts))).toEqual(expected)
          expect(
            picture(
              inPieces(
                text,
                Array.from({ length: text.length }, (_, i) => i)
              )
            )
          ).toEqual(expected)
        }
      ),
      { numRuns: 1500 }
    )
  })

  it("accepts exactly the texts JSON.parse accepts: any JSON value, and files with one character changed", () => {
    const changed = ordersFile.chain((text) =>
      fc
        .tuple(
          fc.nat(Math.max(0, text.length - 1)),
          fc.constantFrom("", ",", "]", "}", "[", "{", '"', "\\", ":", "x", " ", "1")
        )
        .map(([at, c]) => text.slice(0, at) + c + text.slice(at + 1))
    )
    fc.assert(
      fc.property(
        fc
          .oneof(fc.json({ maxDepth: 3 }), changed, fc.string({ unit: fc.constantFrom(...'[]{},:"\\ 1an') }))
          .chain((text) => fc.tuple(fc.constant(text), cutsOf(text))),
        ([text, cuts]) => {
          expect(picture(inPieces(text, cuts))).toEqual(picture(wholeText(text)))
        }
      ),
      { numRuns: 3000 }
    )
  })

  it("keeps every good order around bad records in the middle of a large stream", () => {
    const records: Array<unknown> = Array.from({ length: 20_000 }, (_, i) => order(`SO-${i}`))
    records[4_000] = order("BAD-DATE", { startDate: "2026-02-30" })
    records[12_345] = 42
    records[19_999] = order("BAD-IBAN", { creditor: { iban: "SK00" } })
    const text = JSON.stringify({ pageCount: 1, standingOrders: records }, null, 1)
    const decoder = Project.ordersDecoder()
    for (let at = 0; at < text.length; at += 4093) expect(decoder.push(text.slice(at, at + 4093))).toBe(true)
    const decoded = Result.getOrThrow(decoder.end())
    expect(decoded.orders).toHaveLength(19_997)
    expect(decoded.orders[3_999]!.orderId).toBe("SO-3999")
    expect(decoded.orders[4_000]!.orderId).toBe("SO-4001")
    // one debtor and one creditor object for twenty thousand orders of one pair of accounts
    expect(new Set(decoded.orders.map((o) => o.debtor)).size).toBe(1)
    expect(new Set(decoded.orders.map((o) => o.creditor)).size).toBe(1)
    expect(decoded.skipped.map((s) => [s.orderId, s.reason.split(":")[0]])).toEqual([
      ["BAD-DATE", "record 4000 at startDate"],
      [undefined, "record 12345"],
      ["BAD-IBAN", "record 19999 at creditor.iban"]
    ])
  })

  it("refuses a truncated file, wherever it was cut, naming how far it got", () => {
    const text = fixture("orders.json").trimEnd()
    for (let length = 0; length < text.length; length++) {
      const r = inPieces(text.slice(0, length), [length >> 1])
      expect(Result.isFailure(r) && r.failure.startsWith("not valid JSON")).toBe(true)
    }
    for (const empty of ["", " \n\t"])
      expect(inPieces(empty, [1])).toEqual(Result.fail("not valid JSON: the text is empty"))
    const records = JSON.stringify(Array.from({ length: 1000 }, (_, i) => order(`SO-${i}`)))
    const cut = inPieces(records.slice(0, records.indexOf('"SO-500"')), [])
    expect(Result.isFailure(cut) && cut.failure).toMatch(/^not valid JSON: .*after 500 records/)
  })

  it("names the record and the character where the text stops being JSON, and stops reading there", () => {
    const good = JSON.stringify(order("A"))
    const text = `[${good},\n${good.replace('"MNTH"', '"MNTH" "x"')},${good}]`
    const decoder = Project.ordersDecoder()
    expect(decoder.push(text.slice(0, good.length + 10))).toBe(true)
    expect(decoder.push(text.slice(good.length + 10))).toBe(false)
    const r = decoder.end()
    expect(Result.isFailure(r) && r.failure).toMatch(
      new RegExp(`^not valid JSON: record 1: .* at character ${good.length + 3}$`)
    )
    expect(Result.isFailure(inPieces(`[${good}] x`, [3])) && inPieces(`[${good}] x`, [3])).toBeTruthy()
  })

  it("keeps the last of repeated standingOrders keys, as JSON.parse does", () => {
    const text = `{"standingOrders":[${JSON.stringify(order("A"))}],"pageCount":"x","standingOrders":[${JSON.stringify(order("B"))}]}`
    const d = Result.getOrThrow(inPieces(text, [20, 40]))
    expect(d.orders.map((o) => o.orderId)).toEqual(["B"])
    expect(d.skipped.map((s) => s.reason.split(":")[0])).toEqual(["record -1 at pageCount"])
    expect(picture(inPieces(text, [7]))).toEqual(picture(wholeText(text)))
  })
})
