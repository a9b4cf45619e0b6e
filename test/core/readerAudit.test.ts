/**
 * The readers' audit (issue 34, item 3) walked: every row of packages/core/README.md's "What each reader says" that is
 * said as a warning has a record here that raises it, naming the part; every record here has its row; and a record
 * of the bank's own standard that follows the schedule spec to the letter (each code, with and without an end, anchored
 * on startDate or on nextDate) is read without a word.
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { AccountMap, Frequency, Orders } from "@tppkit/core"
import { Result } from "effect"
import { describe, expect, it } from "vitest"
import { expectBankList } from "./bankList.ts"

const parties = {
  orderId: "X",
  debtor: { name: "Jana", iban: "SK2411000000002612345678" },
  creditor: { name: "Landlord", iban: "SK6609000000005012345678" },
  instructedAmount: { value: 5, currency: "EUR" }
}
const cobs = (execution: object, more: object = {}) => ({
  ...parties,
  requestedExecutionDate: "2026-01-15",
  standingOrder: { execution, ...more }
})
const berlin = (details: object) => ({
  ...parties,
  additionalInformationStructured: { standingOrderDetails: { startDate: "2026-01-15", ...details } }
})
const rrule = (text: string) => ({ ...parties, rrule: text })

/** Reader and part as the table's first two cells say them, the warning's kind and field, and a record raising it. */
const said: ReadonlyArray<{
  readonly row: readonly [string, string]
  readonly warning: readonly ["Tolerated" | "Lost", string]
  readonly record: object
}> = [
  {
    row: ["sbas", "`frequency`"],
    warning: ["Tolerated", "frequency"],
    record: { ...parties, frequency: " mnth", startDate: "2026-01-15" }
  },
  {
    row: ["sbas", "a field the record's schema does not name"],
    warning: ["Lost", "memo"],
    record: { ...parties, frequency: "MNTH", startDate: "2026-01-15", memo: "rent" }
  },
  {
    row: ["sbas", "a field the record's schema does not name"],
    warning: ["Lost", "creditor.bic"],
    record: {
      ...parties,
      creditor: { ...parties.creditor, bic: "TATRSKBX" },
      frequency: "MNTH",
      startDate: "2026-01-15"
    }
  },
  {
    row: ["rrule", "a content line other than"],
    warning: ["Lost", "SUMMARY"],
    record: rrule("DTSTART;VALUE=DATE:20260115\nRRULE:FREQ=MONTHLY\nSUMMARY:Rent")
  },
  {
    row: ["rrule", "`DTSTART`"],
    warning: ["Lost", "DTSTART"],
    record: rrule("DTSTART:20260115T090000Z\nRRULE:FREQ=MONTHLY")
  },
  {
    row: ["rrule", "`UNTIL`"],
    warning: ["Lost", "UNTIL"],
    record: rrule("DTSTART;VALUE=DATE:20260115\nRRULE:FREQ=MONTHLY;UNTIL=20261215T090000Z")
  },
  {
    row: ["rrule", "the business-day convention"],
    warning: ["Lost", "convention"],
    record: rrule("DTSTART;VALUE=DATE:20260115\nRRULE:FREQ=MONTHLY")
  },
  {
    row: ["cobs", "`modeDue` absent"],
    warning: ["Lost", "convention"],
    record: cobs({ interval: "MONTHLY", intervalDue: "15", mode: "UNTIL_CANCELLATION" })
  },
  {
    row: ["berlin-group", "`executionRule` absent"],
    warning: ["Lost", "convention"],
    record: berlin({ frequency: "Monthly", dayOfExecution: "15" })
  },
  {
    row: ["iso20022", "the business-day convention"],
    warning: ["Lost", "convention"],
    record: { ...parties, frequency: { PtInTm: { Tp: "MNTH", PtInTm: "15" } }, startDate: "2026-01-15" }
  },
  { row: ["cobs", "`mode`"], warning: ["Tolerated", "mode"], record: cobs({ interval: "MONTHLY", intervalDue: "15" }) },
  {
    row: ["cobs", "`lastExecutionDate`"],
    warning: ["Tolerated", "lastExecutionDate"],
    record: cobs({ interval: "MONTHLY", intervalDue: "15", mode: "UNTIL_DATE" })
  },
  {
    row: ["cobs", "`maxIterations`"],
    warning: ["Tolerated", "maxIterations"],
    record: cobs({ interval: "MONTHLY", intervalDue: "15", mode: "AFTER_MAX_ITERATION_EXCEEDED" })
  },
  {
    row: ["cobs", "`stopages`"],
    warning: ["Tolerated", "stopages"],
    record: cobs(
      { interval: "MONTHLY", intervalDue: "15", mode: "UNTIL_CANCELLATION" },
      { exceptions: { stoppages: ["JULY"] } }
    )
  },
  {
    row: ["cobs", "`interval`"],
    warning: ["Lost", "interval"],
    record: cobs({ interval: "DAILY", mode: "UNTIL_CANCELLATION" })
  },
  {
    row: ["cobs", "`intervalDue`"],
    warning: ["Lost", "intervalDue"],
    record: cobs({ interval: "QUARTERLY", intervalDue: "3", mode: "UNTIL_CANCELLATION" })
  },
  {
    row: ["cobs", "`maxAmount`"],
    warning: ["Lost", "maxAmount"],
    record: cobs({ interval: "MONTHLY", intervalDue: "15", mode: "MAX_AMOUNT_EXCEEDED" })
  },
  {
    row: ["berlin-group", "`monthsOfExecution`"],
    warning: ["Tolerated", "monthsOfExecution"],
    record: berlin({ frequency: "Monthly", dayOfExecution: "15", monthsOfExecution: ["1"] })
  },
  { row: ["berlin-group", "`frequency`"], warning: ["Lost", "frequency"], record: berlin({ frequency: "Daily" }) },
  {
    row: ["berlin-group", "`dayOfExecution`"],
    warning: ["Tolerated", "dayOfExecution"],
    record: berlin({ frequency: "Monthly", dayOfExecution: 15 })
  },
  {
    row: ["iso20022", "`Tp`"],
    warning: ["Tolerated", "Tp"],
    record: { ...parties, frequency: { PtInTm: { Tp: "mnth", PtInTm: "15" } }, startDate: "2026-01-15" }
  },
  {
    row: ["iso20022", "`PtInTm`"],
    warning: ["Tolerated", "PtInTm"],
    record: { ...parties, frequency: { PtInTm: { Tp: "MNTH", PtInTm: "5" } }, startDate: "2026-01-05" }
  },
  {
    row: ["iso20022", "`PtInTm` of a weekly code"],
    warning: ["Lost", "PtInTm"],
    record: { ...parties, frequency: { PtInTm: { Tp: "WEEK", PtInTm: "01" } }, startDate: "2026-01-05" }
  },
  {
    row: ["ynab", "`missing`"],
    warning: ["Lost", "missing"],
    record: { ...parties, frequency: "monthly", date_first: "2026-01-31" }
  },
  {
    row: ["actual", "`missing`"],
    warning: ["Lost", "missing"],
    record: { ...parties, frequency: "monthly", interval: 1, start: "2026-01-31" }
  },
  {
    row: ["whole records", "a field of a UK"],
    warning: ["Lost", "Reference"],
    record: {
      AccountId: "22289",
      StandingOrderId: "SO-1",
      Frequency: "IntrvlMnthDay:01:03",
      Reference: "FLAT 2 RENT",
      FirstPaymentDateTime: "2025-04-03T00:00:00+00:00",
      LastPaymentDateTime: "2026-11-03T00:00:00+00:00",
      NextPaymentAmount: { Amount: "850.00", Currency: "GBP" }
    }
  },
  {
    row: ["uk-v3", "`Frequency`"],
    warning: ["Tolerated", "Frequency"],
    record: { ...parties, Frequency: " IntrvlMnthDay:01:15 ", FirstPaymentDateTime: "2026-01-15T00:00:00+00:00" }
  }
]

/** The rows of the README's audit table: reader, part, what tppkit does, said. */
const rows = (): Array<ReadonlyArray<string>> => {
  const text = readFileSync(join(import.meta.dirname, "../../packages/core/README.md"), "utf8")
  const section = text.slice(text.indexOf("## What each reader says"), text.indexOf("## Whole records"))
  return section
    .split("\n")
    .filter((l) => l.startsWith("| ") && !l.startsWith("| Reader ") && !/^\|[\s|:-]+\|$/.test(l))
    .map((l) =>
      l
        .slice(2, -2)
        .split(" | ")
        .map((c) => c.trim())
    )
}

/** The warnings of a record read as the CLI reads it: with the projection's convention (here the default). */
const warningsOf = (record: object) => {
  const read = Result.getOrThrow(Orders.decode(JSON.stringify([record]), { convention: "following" }))
  expect(read.unread).toEqual([])
  expect(read.skipped).toEqual([])
  return read.orders.flatMap((o) => o.warnings.map((w) => [w._tag, w.field] as const))
}

describe("the readers' audit (packages/core/README.md, What each reader says)", () => {
  it("each row said as a warning raises it, naming the part; each record checked here has its row", () => {
    const table = rows()
    expect(table.length).toBeGreaterThan(20)
    for (const row of table) {
      expect(row, row.join(" | ")).toHaveLength(4)
      const said_ = row[3]!
      expect(said_.startsWith("warning (") || said_.startsWith("silent: ") || /^[*_]open[*_]$/.test(said_), said_).toBe(
        true
      )
      if (!said_.startsWith("warning (")) continue
      const c = said.find((s) => s.row[0] === row[0] && row[1]!.startsWith(s.row[1]) && said_.includes(s.warning[0]))
      expect(c, `no record checks ${row.join(" | ")}`).toBeDefined()
    }
    for (const c of said) {
      expect(
        table.some((r) => r[0] === c.row[0] && r[1]!.startsWith(c.row[1]) && r[3] === `warning (${c.warning[0]})`),
        c.row.join(" ")
      ).toBe(true)
      expect(warningsOf(c.record), c.row.join(" ")).toContainEqual(c.warning)
    }
  })

  it("a record of the bank's standard as the schedule spec states it is read without a word, every code", () => {
    for (const frequency of Frequency.codes) {
      const records = [
        { ...parties, orderId: `${frequency}-S`, frequency, startDate: "2024-01-31" },
        { ...parties, orderId: `${frequency}-E`, frequency, startDate: "2024-02-29", endDate: "2027-03-01" },
        { ...parties, orderId: `${frequency}-N`, frequency, nextDate: "2026-12-19" },
        { ...parties, orderId: `${frequency}-SN`, frequency, startDate: "2026-12-23", nextDate: "2026-12-28" },
        // a whole record as the bank lists it: every field of its schema
        {
          ...parties,
          orderId: `${frequency}-W`,
          creditor: { ...parties.creditor, addressLine1: "Main 1", addressLine2: "Bratislava" },
          endToEndIdentification: "E2E-1",
          remittanceInformation: "rent",
          standingOrderName: "Rent",
          frequency,
          startDate: "2026-12-31",
          endDate: "2027-01-02",
          nextDate: "2026-12-31"
        }
      ]
      const text = JSON.stringify(records)
      const read = Result.getOrThrow(Orders.decode(text))
      expect([read.unread, read.skipped], frequency).toEqual([[], []])
      expect(read.orders.map((o) => o.orderId)).toEqual(records.map((r) => r.orderId))
      expect(
        read.orders.flatMap((o) => o.warnings),
        frequency
      ).toEqual([])
      const bank = Result.getOrThrow(Orders.decodeBankList(text))
      expect([bank.errors, bank.warnings, bank.skipped], frequency).toEqual([[], [], []])
    }
  })
})

describe("the bank's record: a field its schema does not name (issue 34)", () => {
  it("is a Lost warning naming it, in an orders file and in the bank's list, never a failure", () => {
    const records = [
      { ...parties, orderId: "A", frequency: "MNTH", startDate: "2026-01-15", memo: "rent", note: null },
      { ...parties, orderId: "B", frequency: "MNTH", startDate: "2026-01-15" }
    ]
    const read = Result.getOrThrow(Orders.decode(JSON.stringify(records)))
    expect(read.orders.map((o) => [o.orderId, o.warnings])).toEqual([
      [
        "A",
        [
          {
            _tag: "Lost",
            standard: "sbas",
            field: "memo",
            from: "rent",
            to: "not read",
            why: "the bank's standing order (docs/bank-interface.md) has no such field: it is not used"
          }
        ]
      ],
      ["B", []]
    ])
    expectBankList(JSON.stringify(records), ["A", "B"], "warnings", [
      {
        index: 0,
        orderId: "A",
        path: "memo",
        message: "is not a field of the bank's standing order: not read, not kept"
      }
    ])
  })
})

describe("the business-day convention a record leaves unstated (issue 34)", () => {
  const records = [
    { ...parties, orderId: "R", rrule: "DTSTART;VALUE=DATE:20260115\nRRULE:FREQ=MONTHLY" },
    cobs({ interval: "MONTHLY", intervalDue: "15", mode: "UNTIL_CANCELLATION" }),
    cobs({ interval: "MONTHLY", intervalDue: "15", mode: "UNTIL_CANCELLATION", modeDue: "DUE_OR_BEFORE_DAY_OF_MONTH" }),
    berlin({ frequency: "Monthly", dayOfExecution: "15", executionRule: "preceding" }),
    { ...parties, frequency: { PtInTm: { Tp: "DAIL", PtInTm: "01" } }, startDate: "2026-01-15" },
    { ...parties, orderId: "S", frequency: "MNTH", startDate: "2026-01-15" }
  ]
  const conventions = (convention?: "preceding" | "none") =>
    Result.getOrThrow(Orders.decode(JSON.stringify(records), { convention })).orders.map((o) =>
      o.warnings.flatMap((w) => (w._tag === "Lost" && w.field === "convention" ? [`${w.from} -> ${w.to}`] : []))
    )

  it("is said naming the convention applied; a record that states or fixes its own, and the bank's codes, are silent", () => {
    // a reader given no convention leaves an RRULE's dates as they are (Orders.withConvention moves it, said then)
    expect(conventions()).toEqual([[], ["not stated -> following"], [], [], [], []])
    expect(conventions("preceding")).toEqual([["none -> preceding"], ["not stated -> preceding"], [], [], [], []])
    // an RRULE left unmoved keeps its meaning: nothing to say
    expect(conventions("none")).toEqual([[], ["not stated -> none"], [], [], [], []])
  })

  it("Orders.withConvention moves the warning with the order", () => {
    const read = Result.getOrThrow(Orders.decode(JSON.stringify(records.slice(0, 2))))
    // moved by the projection's convention (the CLI's way): said, naming it
    const said = (c: "preceding" | "none") =>
      read.orders.map((o) => Orders.withConvention(o, c).warnings.map((w) => (w._tag === "Lost" ? w.to : w._tag)))
    expect(said("preceding")).toEqual([["preceding"], ["preceding"]])
    expect(said("none")).toEqual([[], ["none"]])
  })
})

describe("a whole record's fields not used for who pays what and when (issue 34)", () => {
  it("a UK v3 count read without its first payment still leaves the other fields' reading to the reader", () => {
    // the record seen without NumberOfPayments must not take every field (a spread did: Memo went unsaid)
    const list = JSON.parse(readFileSync(join(import.meta.dirname, "fixtures/records/uk-v3-list.json"), "utf8"))
    const { FirstPaymentDateTime: _, ...order } = list.Data.StandingOrder[0]
    list.Data.StandingOrder = [{ ...order, Memo: "garage" }]
    const read = Result.getOrThrow(Orders.decode(JSON.stringify(list)))
    expect(read.orders[0]!.warnings.map((w) => [w._tag, w.field])).toEqual([
      ["Tolerated", "NumberOfPayments"],
      ["Lost", "Reference"],
      ["Lost", "LastPaymentDateTime"],
      ["Lost", "Memo"]
    ])
  })

  it("are each a Lost warning naming the field; the fields read are not named", () => {
    const accounts = Result.getOrThrow(
      AccountMap.decode({ "5d1e9a70-2c3b-4f8e-8a61-7b0c4d2e9f13": { iban: parties.debtor.iban, currency: "CZK" } })
    )
    const text = readFileSync(join(import.meta.dirname, "fixtures/records/ynab-answer.json"), "utf8")
    const read = Result.getOrThrow(Orders.decode(text, { accounts }))
    const notRead = read.orders.map((o) =>
      o.warnings.flatMap((w) => (w._tag === "Lost" && w.to === "not read" ? [w.field] : []))
    )
    // memo is the order's own text, not kept; flag_color null and subtransactions [] say nothing
    expect(notRead).toEqual([["amount_currency", "memo", "payee_id", "category_id", "category_name"], ["memo"]])
    const memo = read.orders[0]!.warnings.find((w) => w._tag === "Lost" && w.field === "memo")
    expect(memo).toEqual({
      _tag: "Lost",
      standard: "ynab",
      field: "memo",
      from: "Garage rent",
      to: "not read",
      why: "tppkit reads who pays what and when: this field is not used"
    })
  })
})
