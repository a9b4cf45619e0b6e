import { assert, describe, it } from "@effect/vitest"
import { LocalDate } from "@tppkit/core"
import { CheckFailure, type Checks, DayReport, Sweep } from "@tppkit/worker"

const d = LocalDate.parseUnsafe

const summary: Sweep.Summary = {
  day: "2026-11-17",
  consents: [
    { consent: "ok", planned: 3, pages: 1 },
    {
      consent: "down",
      planned: 0,
      failure: new Sweep.InvalidIban({ iban: "SK00" }),
      pagesUnread: "unknown"
    },
    {
      consent: "part",
      planned: 4,
      pagesKept: 1,
      pagesUnread: [1],
      plannedFrom: "2026-11-16",
      plannedFromEarlier: 2,
      detailsPending: ["D1"],
      unread: { count: 1, first: [{ position: "record 2", reason: "no amount" }], nothingRead: false },
      skipped: { count: 1, first: [{ position: "record 3 (S)", reason: "inactive" }] },
      warnings: [{ field: "frequency", reason: "lower case", count: 2, orderIds: ["A", "B"] }]
    },
    { consent: "none", planned: 0, unread: { count: 2, first: [], nothingRead: true } }
  ]
}

const row = (over: Partial<Checks.Row>): Checks.Row =>
  ({
    consent: "ok",
    orderId: "O",
    nominalDate: d("2026-11-20"),
    outcome: undefined,
    failure: undefined,
    attempts: 1,
    unconfirmed: 0,
    listedOn: undefined,
    ...over
  }) as Checks.Row

describe("DayReport", () => {
  it("names the consents not listed or listed in part, and the records of the listings, consent by consent", () => {
    assert.deepStrictEqual(
      DayReport.unlisted(summary).map((c) => c.consent),
      ["down"]
    )
    assert.deepStrictEqual(
      DayReport.partial(summary).map((c) => c.consent),
      ["down", "part"]
    )
    assert.strictEqual(DayReport.standIns(summary), 2)
    const records = DayReport.records(summary)
    assert.deepStrictEqual(records.detailsPending, [{ consent: "part", orders: ["D1"] }])
    // nothingRead only where no record of the listing could be read
    assert.deepStrictEqual(records.unread, [
      { consent: "part", count: 1, first: [{ position: "record 2", reason: "no amount" }] },
      { consent: "none", count: 2, first: [], nothingRead: true }
    ])
    assert.deepStrictEqual(records.skipped, [
      { consent: "part", count: 1, first: [{ position: "record 3 (S)", reason: "inactive" }] }
    ])
    assert.deepStrictEqual(records.warnings, [
      { consent: "part", field: "frequency", reason: "lower case", count: 2, orderIds: ["A", "B"] }
    ])
  })

  it("counts the checks still waiting for an answer, and names those asked twice or planned from an earlier day", () => {
    const invalid = new CheckFailure.InvalidPayment({ amount: "1.234", currency: "EUR", debtorIban: "SK00" })
    const rows = [
      row({ outcome: "APPR" }),
      // a final failure is an answer; one without a recorded failure (an older row) may still pass
      row({ orderId: "F", outcome: "failed", failure: invalid }),
      row({ orderId: "T", outcome: "failed", attempts: 2, unconfirmed: 1 }),
      row({ orderId: "E", listedOn: d("2026-11-16") })
    ]
    assert.strictEqual(DayReport.unanswered(rows), 1)
    assert.deepStrictEqual(DayReport.checks(rows), {
      repeats: [{ consent: "ok", orderId: "T", nominalDate: "2026-11-20", attempts: 2, unconfirmed: 1 }],
      listedOn: [{ consent: "ok", orderId: "E", nominalDate: "2026-11-20", listedOn: "2026-11-16", outcome: null }]
    })
  })
})
