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
