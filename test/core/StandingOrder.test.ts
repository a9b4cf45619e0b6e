import { readFileSync } from "node:fs"
import { join } from "node:path"
import { LocalDate, Money, StandingOrder } from "@tppkit/core"
import { Result, Schema } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as Arb from "../arbitraries/core.ts"

/** A list response shaped like the document's section 2.5 (pageCount as a string, as in its reference example). */
const body = {
  pageCount: "1",
  standingOrders: [
    {
      orderId: "SO-0001",
      debtor: { name: "Jana Nováková", iban: "SK3112000000198742637541" },
      creditor: {
        name: "Bytové družstvo",
        addressLine1: "Hlavná 1",
        addressLine2: "811 01 Bratislava SK",
        iban: "SK67 0200 0000 0012 3456 7890"
      },
      instructedAmount: { value: 1250.5, currency: "EUR" },
      endToEndIdentification: "E2E-2024-01",
      remittanceInformation: "Nájom",
      standingOrderName: "Rent",
      startDate: "2024-01-31",
      nextDate: "2024-02-29",
      endDate: "2025-12-31",
      frequency: "MNTH"
    },
    {
      orderId: "SO-0002",
      debtor: { name: "Jana Nováková", iban: "SK3112000000198742637541" },
      creditor: { iban: "CZ6508000000192000145399" },
      instructedAmount: { value: 0.01, currency: "EUR" },
      frequency: "DAIL"
    }
  ]
}

describe("StandingOrder", () => {
  it("decodes the document's fields strictly", () => {
    const list = Schema.decodeUnknownSync(StandingOrder.ListResponse)(body)
    expect(list.pageCount).toBe(1)
    const [a, b] = list.standingOrders
    expect(a).toBeInstanceOf(StandingOrder.StandingOrder)
    expect(a?.creditor.iban).toBe("SK6702000000001234567890")
    expect(a && Money.formatFixed2(a.instructedAmount.value)).toBe("1250.50")
    expect(a?.startDate).toBe(LocalDate.parseUnsafe("2024-01-31"))
    expect(a?.frequency).toBe("MNTH")
    expect(b && "creditor" in b && "name" in b.creditor).toBe(false)
    expect(b && "endDate" in b).toBe(false)
  })

  it("accepts pageCount as a number or missing, and reads null optional fields as absent", () => {
    expect(Schema.decodeUnknownSync(StandingOrder.ListResponse)({ ...body, pageCount: 3 }).pageCount).toBe(3)
    const { pageCount: _, ...noCount } = body
    expect("pageCount" in Schema.decodeUnknownSync(StandingOrder.ListResponse)(noCount)).toBe(false)
    const order = {
      ...body.standingOrders[0],
      endDate: null,
      creditor: { iban: "CZ6508000000192000145399", name: null }
    }
    const decoded = Schema.decodeUnknownSync(StandingOrder.StandingOrder)(order)
    expect("endDate" in decoded).toBe(false)
    expect("name" in decoded.creditor).toBe(false)
  })

  it("keeps over-long received texts whole and can list them", () => {
    const long = "x".repeat(200)
    const order = Schema.decodeUnknownSync(StandingOrder.StandingOrder)({
      ...body.standingOrders[1],
      remittanceInformation: long
    })
    expect(order.remittanceInformation).toBe(long)
    expect(StandingOrder.overlongFields(order)).toEqual(["remittanceInformation"])
  })

  it("encodes the wire shape (JSON number amount, ISO dates, no absent keys)", () => {
    const order = Schema.decodeUnknownSync(StandingOrder.StandingOrder)(body.standingOrders[1])
    expect(StandingOrder.encode(order)).toEqual({
      orderId: "SO-0002",
      debtor: { name: "Jana Nováková", iban: "SK3112000000198742637541" },
      creditor: { iban: "CZ6508000000192000145399" },
      instructedAmount: { value: 0.01, currency: "EUR" },
      frequency: "DAIL"
    })
  })

  it("rejects each constraint with a message naming the field", () => {
    const bad = (patch: Record<string, unknown>, field: RegExp) => {
      const r = Schema.decodeUnknownResult(StandingOrder.StandingOrder)({ ...body.standingOrders[0], ...patch })
      expect(Result.isFailure(r) && r.failure.message).toMatch(field)
    }
    bad({ orderId: undefined }, /orderId/)
    bad({ frequency: "DAILY" }, /frequency/)
    bad({ startDate: "2024-02-30" }, /startDate/)
    bad({ debtor: { name: "A", iban: "SK3112000000198742637540" } }, /check digits[\s\S]*debtor[\s\S]*iban/)
    bad({ instructedAmount: { value: 1, currency: "eur" } }, /currency/)
    bad({ instructedAmount: { value: "1,5", currency: "EUR" } }, /value/)
  })

  it("request: no attributes is exactly {}, limits on pageSize and page", () => {
    const encode = Schema.encodeSync(StandingOrder.ListRequest)
    expect(JSON.stringify(encode({}))).toBe("{}")
    expect(encode({ pageSize: 100, page: 2 })).toEqual({ pageSize: 100, page: 2 })
    const decode = Schema.decodeUnknownResult(StandingOrder.ListRequest)
    expect(Result.isSuccess(decode({ iban: "SK3112000000198742637541" }))).toBe(true)
    for (const pageSize of [0, 5, 15, 110, 50.5]) {
      const r = decode({ pageSize })
      expect(Result.isFailure(r) && r.failure.message).toMatch(/pageSize/)
    }
    const r = decode({ page: -1 })
    expect(Result.isFailure(r) && r.failure.message).toMatch(/page/)
  })

  describe("lenient decoding", () => {
    it("keeps good records and names the bad record, its orderId and field", () => {
      const broken = {
        ...body,
        standingOrders: [
          body.standingOrders[0],
          { ...body.standingOrders[1], orderId: "SO-BAD", creditor: { iban: "CZ6508000000192000145398" } },
          { ...body.standingOrders[1], orderId: "SO-0003" },
          "not an order",
          { ...body.standingOrders[1], orderId: undefined, frequency: "EVERY" }
        ]
      }
      expect(Result.isFailure(Schema.decodeUnknownResult(StandingOrder.ListResponse)(broken))).toBe(true)
      const r = StandingOrder.decodeListLenient(broken)
      if (Result.isFailure(r)) throw new Error(r.failure)
      expect(r.success.pageCount).toBe(1)
      expect(r.success.orders.map((o) => o.orderId)).toEqual(["SO-0001", "SO-0003"])
      expect(r.success.errors.map((e) => [e.index, e.orderId, e.path])).toEqual([
        [1, "SO-BAD", "creditor.iban"],
        [3, undefined, ""],
        [4, undefined, "orderId"]
      ])
      expect(r.success.errors[0]?.message).toMatch(/^IBAN check digits are wrong/)
      expect(r.success.errors[2]?.message).toMatch(/also: frequency/)
    })

    it("reports a malformed pageCount and tolerates a missing list", () => {
      const r = StandingOrder.decodeListLenient({ pageCount: "many" })
      expect(r).toEqual(
        Result.succeed({
          pageCount: undefined,
          orders: [],
          errors: [{ index: -1, orderId: undefined, path: "pageCount", message: expect.stringMatching(/pageCount/) }]
        })
      )
    })

    it("fails only on bodies that are not lists at all", () => {
      expect(Result.isFailure(StandingOrder.decodeListLenient("oops"))).toBe(true)
      expect(Result.isFailure(StandingOrder.decodeListLenient([]))).toBe(true)
      expect(Result.isFailure(StandingOrder.decodeListLenient({ standingOrders: {} }))).toBe(true)
      expect(Result.isFailure(StandingOrder.decodeOrdersLenient({}))).toBe(true)
      const bare = StandingOrder.decodeOrdersLenient(body.standingOrders)
      expect(Result.isSuccess(bare) && bare.success.orders.length).toBe(2)
    })
  })

  describe("properties", () => {
    it("decode(encode(x)) = x for generated orders, through JSON text", () => {
      fc.assert(
        fc.property(Arb.standingOrder, (order) => {
          const json = JSON.stringify(StandingOrder.encode(order))
          const back = Schema.decodeUnknownSync(StandingOrder.StandingOrder)(JSON.parse(json))
          expect(StandingOrder.encode(back)).toEqual(StandingOrder.encode(order))
          expect(Money.equals(back.instructedAmount.value, order.instructedAmount.value)).toBe(true)
        }),
        { numRuns: 2_000 }
      )
    })

    it("lenient decoding of a list with random corruptions keeps exactly the good records", () => {
      fc.assert(
        fc.property(fc.array(fc.tuple(Arb.standingOrderJson, fc.boolean()), { maxLength: 20 }), (rows) => {
          const records = rows.map(([json, corrupt], i) =>
            corrupt ? { ...json, orderId: `bad-${i}`, frequency: "NEVER" } : json
          )
          const r = StandingOrder.decodeListLenient({ pageCount: 1, standingOrders: records })
          if (Result.isFailure(r)) throw new Error(r.failure)
          expect(r.success.orders.length + r.success.errors.length).toBe(rows.length)
          expect(r.success.errors.map((e) => e.index)).toEqual(rows.flatMap(([, c], i) => (c ? [i] : [])))
          expect(r.success.errors.every((e) => e.path === "frequency" && e.orderId === `bad-${e.index}`)).toBe(true)
        }),
        { numRuns: 300 }
      )
    })

    it("list responses round-trip (pageCount number, string or absent)", () => {
      fc.assert(
        fc.property(Arb.listResponseJson, (json) => {
          const list = Schema.decodeUnknownSync(StandingOrder.ListResponse)(json)
          const again = Schema.encodeSync(StandingOrder.ListResponse)(list)
          const expected = json.pageCount === undefined ? json : { ...json, pageCount: Number(json.pageCount) }
          expect(again).toEqual(expected)
          const lenient = StandingOrder.decodeListLenient(json)
          expect(Result.isSuccess(lenient) && lenient.success.errors).toEqual([])
        }),
        { numRuns: 300 }
      )
    })

    it("request round-trips", () => {
      fc.assert(
        fc.property(Arb.listRequest, (req) => {
          const back = Schema.decodeUnknownSync(StandingOrder.ListRequest)(
            Schema.encodeSync(StandingOrder.ListRequest)(req)
          )
          expect(back).toEqual(req)
        })
      )
    })
  })
})

describe("StandingOrder wire entry points", () => {
  it("a list response encoded with encodeListResponse decodes leniently to the same orders, pageCount as number or text", () => {
    const decoded = Schema.decodeUnknownSync(StandingOrder.ListResponse)(body)
    for (const pageCountAsText of [false, true]) {
      const json = StandingOrder.encodeListResponse(decoded, { pageCountAsText })
      expect(Result.isSuccess(json)).toBe(true)
      if (Result.isFailure(json)) continue
      expect(typeof json.success.pageCount).toBe(pageCountAsText ? "string" : "number")
      const back = StandingOrder.decodeListLenient(JSON.parse(JSON.stringify(json.success)))
      expect(Result.isSuccess(back) && back.success.errors).toEqual([])
      expect(Result.isSuccess(back) && back.success.orders).toEqual(decoded.standingOrders)
    }
  })

  it("list requests: encodeListRequest writes {} without attributes and decodeListRequest reads it back", () => {
    expect(Result.getOrThrow(StandingOrder.encodeListRequest({}))).toEqual({})
    expect(Result.getOrThrow(StandingOrder.decodeListRequest({ pageSize: 20, page: 1 }))).toEqual({
      pageSize: 20,
      page: 1
    })
    expect(Result.isFailure(StandingOrder.decodeListRequest({ pageSize: 15 }))).toBe(true)
  })
})

// ---------------------------------------------------------------------------
// streaming decoding
// ---------------------------------------------------------------------------

/**
 * The reading the streaming decoder replaced, kept as the judge: `JSON.parse` of the whole text, then the lenient
 * list decoders.
 */
const wholeText = (text: string): Result.Result<StandingOrder.Decoded, string> => {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (e) {
    return Result.fail(`not valid JSON: ${String(e)}`)
  }
  if (!Array.isArray(json) && !(typeof json === "object" && json !== null && "standingOrders" in json)) {
    return Result.fail("not an orders file")
  }
  return Array.isArray(json) ? StandingOrder.decodeOrdersLenient(json) : StandingOrder.decodeListLenient(json)
}

/** The text pushed in pieces cut at the given positions. */
const inPieces = (text: string, cuts: ReadonlyArray<number>): Result.Result<StandingOrder.Decoded, string> => {
  const decoder = StandingOrder.decoder()
  let at = 0
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    if (!decoder.push(text.slice(at, cut))) break
    at = cut
  }
  decoder.push(text.slice(at))
  return decoder.end()
}

/** A comparable picture of an outcome: the failure's kind, or every order's wire JSON and every record error. */
const picture = (r: Result.Result<StandingOrder.Decoded, string>) =>
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
        pageCount: r.success.pageCount,
        errors: r.success.errors
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

describe("StandingOrder.decoder", () => {
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
    const decoder = StandingOrder.decoder()
    for (let at = 0; at < text.length; at += 4093) expect(decoder.push(text.slice(at, at + 4093))).toBe(true)
    const decoded = Result.getOrThrow(decoder.end())
    expect(decoded.orders).toHaveLength(19_997)
    expect(decoded.orders[3_999]!.orderId).toBe("SO-3999")
    expect(decoded.orders[4_000]!.orderId).toBe("SO-4001")
    expect(decoded.errors.map((e) => [e.orderId, e.index, e.path])).toEqual([
      ["BAD-DATE", 4000, "startDate"],
      [undefined, 12345, ""],
      ["BAD-IBAN", 19999, "creditor.iban"]
    ])
  })

  it("refuses a truncated file, wherever it was cut, naming how far it got", () => {
    const text = readFileSync(join(import.meta.dirname, "..", "cli", "fixtures", "orders.json"), "utf8").trimEnd()
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
    const decoder = StandingOrder.decoder()
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
    expect(d.errors.map((e) => [e.index, e.path])).toEqual([[-1, "pageCount"]])
    expect(picture(inPieces(text, [7]))).toEqual(picture(wholeText(text)))
  })
})
