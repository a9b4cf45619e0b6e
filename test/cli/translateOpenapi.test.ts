/**
 * What `tppkit translate --to T` writes, checked independently against the standards' OpenAPI descriptions (issue 36):
 * the COBS page as the answer of `GET /my/standingorders`, the UK lists as the answer of
 * `GET /accounts/{AccountId}/standing-orders` (v3.1 and v4), each Berlin Group periodic payment body as the request of
 * `POST /v1/periodic-payments/{product}` and the Berlin Group transactions answer as the answer of
 * `GET /v1/accounts/{id}/transactions`, validated by openapi-backend against the OpenAPI fixtures of test/openapi
 * (written from the shared field tables: the standards' own files cannot be fetched here). Every source file of
 * examples/records and the seed's orders file, through the CLI; then generated orders through core's
 * `SourceRecord.write` and `list`, which translate prints.
 */
import { join } from "node:path"
import { SourceRecord, Translation } from "@tppkit/core"
import * as fc from "fast-check"
import type { OpenAPIBackend } from "openapi-backend"
import { beforeAll, describe, expect, it } from "vitest"
import { iban, standingOrderAmount } from "../arbitraries/core.ts"
import { recurrence } from "../arbitraries/recurrence.ts"
import { errorsOf, load } from "../openapi/validators.ts"
import { run } from "./inProcess.ts"

const apis = new Map<string, OpenAPIBackend>()
beforeAll(async () => {
  for (const name of ["cobs", "uk-v3", "uk-v4", "berlin-group"] as const) apis.set(name, await load(name))
}, 120_000)
const api = (name: string): OpenAPIBackend => apis.get(name) as OpenAPIBackend

type Target = "cobs" | "uk-v3" | "uk-v4" | "berlin-group" | "berlin-group-ais"

/** The errors of a translated document against its standard's description, one entry per record or list. */
const check = (target: Target, document: unknown): Array<string> => {
  switch (target) {
    case "cobs":
      return [errorsOf(api("cobs").validateResponse(document, "getStandingorders", 200))]
    case "uk-v3":
    case "uk-v4":
      return [errorsOf(api(target).validateResponse(document, "GetAccountStandingOrders", 200))]
    case "berlin-group-ais":
      return [errorsOf(api("berlin-group").validateResponse(document, "getTransactionList", 200))]
    case "berlin-group":
      return (document as Array<unknown>).map((body) =>
        errorsOf(
          api("berlin-group").validateRequest(
            {
              method: "post",
              path: "/v1/periodic-payments/sepa-credit-transfers",
              headers: {
                "content-type": "application/json",
                "x-request-id": "99391c7e-ad88-49ec-a2ad-99ddcb1f7721",
                "psu-ip-address": "192.0.2.10"
              },
              body
            },
            "initiatePeriodicPayment"
          )
        )
      )
  }
}

const targets: ReadonlyArray<Target> = ["cobs", "uk-v3", "uk-v4", "berlin-group", "berlin-group-ais"]
const records = join(import.meta.dirname, "..", "..", "examples", "records")
const files: ReadonlyArray<{ readonly file: string; readonly flags: ReadonlyArray<string> }> = [
  { file: join(records, "cobs-page.json"), flags: ["--listed-on", "2026-11-29"] },
  { file: join(records, "cobs-detail.json"), flags: [] },
  { file: join(records, "uk-v3-list.json"), flags: ["--accounts", join(records, "accounts.json")] },
  { file: join(records, "uk-v4-list.json"), flags: ["--accounts", join(records, "accounts.json")] },
  { file: join(records, "bg-periodic.json"), flags: [] },
  { file: join(records, "bg-transactions.json"), flags: [] },
  { file: join(records, "ynab-answer.json"), flags: ["--accounts", join(records, "accounts.json")] },
  { file: join(import.meta.dirname, "fixtures", "orders.json"), flags: [] }
]

describe("translate's output is valid against the standards' OpenAPI descriptions", () => {
  for (const to of targets) {
    it(`--to ${to}: every example file`, async () => {
      let written = 0
      for (const f of files) {
        const r = await run(["translate", "--orders", f.file, "--to", to, ...f.flags])
        expect([0, 7, 8], r.stderr).toContain(r.code)
        const document = JSON.parse(r.stdout) as unknown
        written += SourceRecord.envelope(document).records.length
        for (const errors of check(to, document)) expect(errors, `${f.file} --to ${to}`).toBe("")
      }
      expect(written).toBeGreaterThan(4)
    }, 120_000)
  }

  const writable = fc.record({
    orderId: fc.stringMatching(/^[A-Z0-9-]{1,35}$/),
    recurrence,
    instructedAmount: fc.record({ value: standingOrderAmount, currency: fc.constantFrom("EUR", "CZK", "GBP") }),
    debtor: fc.record({ iban }),
    creditor: fc.option(fc.record({ iban, name: fc.stringMatching(/^[A-Za-z][A-Za-z .]{0,39}$/) }), {
      nil: undefined
    })
  })
  for (const to of targets) {
    it(`--to ${to}: generated orders (with and without a creditor)`, () => {
      let written = 0
      fc.assert(
        fc.property(writable, (o) => {
          const record = Translation.getValue(
            SourceRecord.write(to, { ...o, creditor: o.creditor ?? { iban: undefined } })
          )
          if (record === undefined) return
          written++
          const document = JSON.parse(JSON.stringify(SourceRecord.list(to, [record])))
          for (const errors of check(to, document)) expect(errors).toBe("")
        }),
        { numRuns: 1000 }
      )
      expect(written).toBeGreaterThan(10)
    })
  }

  it("the check bites: the rule book's own traps are refused", () => {
    // intervalDue as text (every COBS example writes it so), an execution without its modeDue
    const page = {
      pageNumber: 0,
      pageCount: 1,
      pageSize: 1,
      standingOrders: [
        {
          standingOrderIdentification: { transactionIdentification: "SO-1" },
          amount: { instructedAmount: { value: 1, currency: "CZK" } },
          standingOrder: { execution: { mode: "UNTIL_CANCELLATION", interval: "MONTHLY", intervalDue: "25" } },
          debtorAccount: { identification: { iban: "CZ4608000000002345678908" } }
        }
      ]
    }
    expect(check("cobs", page)[0]).toContain("modeDue")
    const execution = {
      mode: "UNTIL_CANCELLATION",
      modeDue: "DUE_DAY_OF_MONTH",
      interval: "MONTHLY",
      intervalDue: "25"
    }
    const [first] = page.standingOrders
    const textDue = { ...page, standingOrders: [{ ...first, standingOrder: { execution } }] }
    expect(check("cobs", textDue)[0]).toContain("intervalDue")
    // a Berlin Group body without its required creditorName
    const [bg] = check("berlin-group", [
      {
        debtorAccount: { iban: "DE76500105175403741272" },
        instructedAmount: { currency: "EUR", amount: "1.00" },
        creditorAccount: { iban: "DE75120300001020304050" },
        startDate: "2026-02-01",
        frequency: "Monthly"
      }
    ])
    expect(bg).toContain("creditorName")
  })
})
