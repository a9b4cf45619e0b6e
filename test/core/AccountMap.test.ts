/**
 * The accounts file: account ids mapped to an IBAN and a currency, every wrong entry named; applied to whole records,
 * it gives UK's `AccountId` its IBAN and YNAB's and Actual's amounts their currency, and without it an order keeps the
 * source's id and one without a currency cannot be projected, the reason naming the flag.
 */
import { AccountMap, SourceRecord } from "@tppkit/core"
import { Result } from "effect"
import { describe, expect, it } from "vitest"
import { document } from "./sourceRecordFixtures.ts"

const map = Result.getOrThrow(
  AccountMap.decode({
    "22289": { iban: "GB33BUKB20201555555555", currency: "GBP" },
    "5d1e9a70-2c3b-4f8e-8a61-7b0c4d2e9f13": { iban: "CZ4608000000002345678908", currency: "CZK" }
  })
)
const readings = (name: string) =>
  SourceRecord.envelope(document(name)).records.flatMap((r) => {
    const read = SourceRecord.read(r)
    return read?._tag === "Order" ? [read.reading] : []
  })

describe("AccountMap", () => {
  it("names every wrong entry", () => {
    expect(
      AccountMap.decode({ a: { iban: "GB00BUKB20201555555555" }, b: { currency: "gbp" }, c: {}, d: 3, e: { x: 1 } })
    ).toEqual(
      Result.fail([
        "a.iban: IBAN check digits are wrong (mod-97 checksum)",
        "b.currency: expected three capital letters (ISO 4217)",
        "c: expected iban and/or currency",
        "d: expected an object with iban and/or currency",
        "e: unknown field x (expected iban, currency)",
        "e: expected iban and/or currency"
      ])
    )
    expect(Result.isFailure(AccountMap.decode([]))).toBe(true)
  })
  it("gives a UK AccountId its IBAN", () => {
    const [uk] = readings("uk-v3-list.json")
    const resolved = AccountMap.resolve(map, uk!)
    expect(resolved._tag === "Resolved" && resolved.reading.debtor.account).toEqual({
      id: "22289",
      scheme: "account-id",
      iban: "GB33BUKB20201555555555",
      currency: "GBP"
    })
  })
  it("gives YNAB's amounts their account's currency, money in and out", () => {
    const [out, income] = readings("ynab-answer.json")
    const a = AccountMap.resolve(map, out!)
    const b = AccountMap.resolve(map, income!)
    expect(a._tag === "Resolved" && [a.reading.amount.currency, a.reading.debtor.account?.iban]).toEqual([
      "CZK",
      "CZ4608000000002345678908"
    ])
    expect(b._tag === "Resolved" && [b.reading.amount.currency, b.reading.creditor.account?.iban]).toEqual([
      "CZK",
      "CZ4608000000002345678908"
    ])
  })
  it("without the file, an order keeps the source's id, and one without a currency names the flag", () => {
    const [uk] = readings("uk-v3-list.json")
    const kept = AccountMap.resolve(AccountMap.empty, uk!)
    expect(kept._tag === "Resolved" && kept.reading.debtor.account).toEqual({ id: "22289", scheme: "account-id" })
    const [actual] = readings("actual-schedules.json")
    expect(AccountMap.resolve(AccountMap.empty, actual!)).toEqual({
      _tag: "Unresolved",
      reason:
        "the record gives no currency: tppkit expects the currency of account e41a7c2d-3b4e-4f5a-9b6c-0d1e2f3a4b5c in the accounts file (--accounts FILE)"
    })
  })
})

describe("AccountMap.parse", () => {
  it("reads an accounts file's text as decode reads its JSON; text that is no JSON is one problem", () => {
    expect(AccountMap.parse('{"22289":{"currency":"GBP"}}')).toEqual(
      AccountMap.decode({ "22289": { currency: "GBP" } })
    )
    const broken = AccountMap.parse("{")
    expect(Result.isFailure(broken) && broken.failure).toHaveLength(1)
    expect(Result.isFailure(broken) && broken.failure[0]).toMatch(/^not JSON: /)
    expect(AccountMap.parse("[]")).toEqual(AccountMap.decode([]))
  })
})
