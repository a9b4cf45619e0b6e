/**
 * Whole records against JSON Schemas written from the standards' field tables (test/core/schemas: COBS 7/8 page and
 * detail, UK Open Banking OBReadStandingOrder6 v3.1 and v4, Berlin Group periodic payment and transactions answer),
 * validated with ajv: the fixtures of each source validate (the trap fixture, whose intervalDue is text, does not), and
 * so does every list `SourceRecord.write` and `SourceRecord.list` make of generated orders — which `SourceRecord.read`
 * reads back to the same order (ID, amount, accounts) and, where the translation was exact, the same dates.
 */
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { type Recurrence, SourceRecord, Standard, Translation } from "@tppkit/core"
import { Ajv } from "ajv"
import addFormats from "ajv-formats"
import { BigDecimal } from "effect"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { iban, standingOrderAmount } from "../arbitraries/core.ts"
import { recurrence } from "../arbitraries/recurrence.ts"
import { projected } from "../arbitraries/standards.ts"
import { document } from "./sourceRecordFixtures.ts"

const schemas = fileURLToPath(new URL("./schemas/", import.meta.url))
const ajv = new Ajv({ allErrors: true, strict: true, strictRequired: false })
addFormats.default(ajv)
const validator = (name: string) => ajv.compile(JSON.parse(readFileSync(`${schemas}${name}`, "utf8")))
const validators = {
  cobs: validator("cobs-standing-orders.schema.json"),
  uk: validator("uk-standing-orders.schema.json"),
  "berlin-group": validator("berlin-group.schema.json")
}
type Kind = keyof typeof validators

const valid = (kind: Kind, value: unknown): string => {
  const v = validators[kind]
  return v(value) ? "valid" : ajv.errorsText(v.errors)
}
/** The document as JSON text read back (exact numbers written as numbers). */
const json = (u: unknown): unknown => JSON.parse(JSON.stringify(u))

describe("the fixtures validate against the schemas written from the field tables", () => {
  it.each([
    ["cobs", "cobs-page.json"],
    ["cobs", "cobs-detail.json"],
    ["uk", "uk-v3-list.json"],
    ["uk", "uk-v4-list.json"],
    ["berlin-group", "bg-periodic.json"],
    ["berlin-group", "bg-transactions.json"]
  ] as const)("%s %s", (kind, name) => {
    expect(valid(kind, json(document(name)))).toBe("valid")
  })
  it("the traps do not: intervalDue as text, a list item without amount value", () => {
    const errors = valid("cobs", json(document("cobs-page-traps.json")))
    expect(errors).toContain("/standingOrders/0/standingOrder/execution/intervalDue must be number")
  })
})

const writable = fc.record({
  orderId: fc.stringMatching(/^[A-Z0-9-]{1,35}$/),
  recurrence,
  instructedAmount: fc.record({ value: standingOrderAmount, currency: fc.constantFrom("EUR", "CZK", "GBP") }),
  debtor: fc.record({ iban }),
  creditor: fc.record({ iban, name: fc.stringMatching(/^[A-Za-z][A-Za-z .]{0,39}$/) })
})

const kindOf = (target: SourceRecord.Target): Kind | undefined =>
  target === "cobs"
    ? "cobs"
    : target === "uk-v3" || target === "uk-v4"
      ? "uk"
      : target === "berlin-group" || target === "berlin-group-ais"
        ? "berlin-group"
        : undefined

describe("translate's whole records: valid records of the target, read back to the same order", () => {
  for (const target of ["cobs", "uk-v3", "uk-v4", "berlin-group", "berlin-group-ais"] as const) {
    it(`${target}`, () => {
      let written = 0
      fc.assert(
        fc.property(writable, (order) => {
          const t = SourceRecord.write(target, order)
          const record = Translation.getValue(t)
          if (record === undefined) return
          written++
          const list = json(SourceRecord.list(target, [record]))
          // Berlin Group lists no periodic payments: each body of the array is one (periodicPaymentInitiation_json)
          for (const each of Array.isArray(list) ? list : [list]) expect(valid(kindOf(target)!, each)).toBe("valid")
          const env = SourceRecord.envelope(list)
          expect(env.records).toHaveLength(1)
          const read = SourceRecord.read(env.records[0], {
            standard: target === "berlin-group-ais" ? "berlin-group" : target,
            account: env.account
          })
          if (read?._tag !== "Order") throw new Error(`not read back: ${JSON.stringify(read)}`)
          const r = read.reading
          expect(r.orderId).toBe(order.orderId)
          expect(r.direction).toBe("out")
          expect(r.amount.currency).toBe(order.instructedAmount.currency)
          expect(BigDecimal.equals(r.amount.value, order.instructedAmount.value)).toBe(true)
          expect(r.debtor.account?.iban).toBe(order.debtor.iban)
          expect(r.creditor.account?.iban).toBe(order.creditor.iban)
          if (t._tag === "Exact") {
            // the convention a standard leaves to the bank (UK) is the reader's, as the CLI's --convention gives it
            const back = Translation.getValue(
              Standard.decode(r.schedule, { standard: r.standard, convention: order.recurrence.convention }).translation
            )
            expect(back && projected(back as Recurrence.Recurrence, 48)).toEqual(projected(order.recurrence, 48))
          }
        }),
        // COBS can say few generated recurrences (about one in thirty is written): 1,000 runs keep the floor below
        // well clear of chance (300 runs wrote exactly 10 COBS records once in CI)
        { numRuns: 1000 }
      )
      expect(written).toBeGreaterThan(10)
    })
  }
  it("a list of several orders is one envelope (a COBS page counts them)", () => {
    const records = [1, 2, 3].map((i) => ({ i }))
    expect(SourceRecord.list("cobs", records)).toMatchObject({
      pageNumber: 0,
      pageCount: 1,
      pageSize: 3,
      totalCount: 3
    })
  })
})
