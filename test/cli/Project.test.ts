import { readFileSync } from "node:fs"
import { join } from "node:path"
import { Project, ProjectionFormats, Render } from "@tppkit/cli"
import { LocalDate, Money, type Orders, Recurrence, Standard, Translation } from "@tppkit/core"
import { Export } from "@tppkit/schedule"
import { Result } from "effect"
import { describe, expect, it } from "vitest"
import { projected } from "../arbitraries/standards.ts"
import { largeListing, pushInPieces } from "../core/largeListing.ts"
import { listText, orderText } from "./orderText.ts"

const fixture = (name: string) => readFileSync(join(import.meta.dirname, "fixtures", name), "utf8")
const base = { from: "2024-01-01", to: "2024-06-30", calendar: "target", convention: "following" }

const failure = <A>(r: Result.Result<A, string>): string => {
  if (Result.isSuccess(r)) throw new Error("expected a failure")
  return r.failure
}

describe("Project.settings", () => {
  it("accepts the defaults and normalises the calendar name", () => {
    const s = Result.getOrThrow(Project.settings({ ...base, calendar: " Target " }))
    expect(s.calendarName).toBe("target")
    expect(LocalDate.format(s.from)).toBe("2024-01-01")
    expect(Result.getOrThrow(Project.settings({ ...base, calendar: "sk" })).calendarName).toBe("SK")
    expect(Result.getOrThrow(Project.settings({ ...base, calendar: "WEEKENDS" })).calendarName).toBe("weekends")
  })

  it("adds --holidays to the calendar", () => {
    const s = Result.getOrThrow(Project.settings({ ...base, calendar: "weekends", holidays: "2024-05-31, 2024-06-03" }))
    if (typeof s.calendar === "function") throw new Error("expected one calendar")
    expect(s.calendar.isHoliday(LocalDate.parseUnsafe("2024-05-31"))).toBe(true)
    expect(s.calendar.isHoliday(LocalDate.parseUnsafe("2024-06-03"))).toBe(true)
    expect(s.calendar.isHoliday(LocalDate.parseUnsafe("2024-06-04"))).toBe(false)
  })

  it("with auto gives each currency its own calendar, --holidays added to each", () => {
    const s = Result.getOrThrow(Project.settings({ ...base, calendar: " Auto ", holidays: "2024-05-31" }))
    expect(s.calendarName).toBe(Project.AUTO)
    if (typeof s.calendar !== "function") throw new Error("expected a calendar per currency")
    expect(s.calendar("CZK").name).toBe("CZ")
    expect(s.calendar("EUR").isHoliday(LocalDate.parseUnsafe("2024-05-31"))).toBe(true)
    expect(s.calendar("CZK").isHoliday(LocalDate.parseUnsafe("2024-05-31"))).toBe(true)
    // 28 October is a Czech public holiday, not a TARGET one
    expect(s.calendar("CZK").isHoliday(LocalDate.parseUnsafe("2024-10-28"))).toBe(true)
    expect(s.calendar("EUR").isHoliday(LocalDate.parseUnsafe("2024-10-28"))).toBe(false)
  })

  it.each([
    [{ from: "2026-02-30" }, '--from "2026-02-30"'],
    [{ to: "yesterday" }, '--to "yesterday"'],
    [{ from: "2024-07-01" }, "--from 2024-07-01 is after --to 2024-06-30"],
    [{ calendar: "mars" }, '--calendar "mars"'],
    [{ calendar: "XX" }, "--calendar: unknown country"],
    [{ holidays: "2024-01-01,2024-13-01" }, '--holidays "2024-13-01"'],
    [{ convention: "sideways" }, '--convention "sideways"']
  ])("refuses %o naming the flag", (change, message) => {
    expect(failure(Project.settings({ ...base, ...change }))).toContain(message)
  })
})

describe("Project.decodeOrders", () => {
  it("keeps the good orders and reports each bad one with its orderId", () => {
    const d = Result.getOrThrow(Project.decodeOrders(fixture("orders.json")))
    expect(d.orders.map((o) => o.orderId)).toEqual(["SO-RENT", "SO-GYM", "SO-NO-ANCHOR", "SO-CZK"])
    expect(d.unread.map((s) => s.orderId)).toEqual(["SO-BAD-FREQ", "SO-BAD-DATE"])
    expect(d.unread[0]!.reason).toMatch(/^record 3 at frequency/)
  })

  it("skips an order whose amount cannot be projected exactly, with its reason, instead of rounding or totalling it", () => {
    const values = ["7.125", "12.5", "-5", "0", "1e15", "1.0000000000000000000001", "999999999.99"]
    const d = Result.getOrThrow(Project.decodeOrders(listText(values.map((v, i) => orderText(`O${i}`, v)))))
    expect(d.orders.map((o) => o.orderId)).toEqual(["O0", "O1", "O2", "O3", "O4", "O5", "O6"])
    const s = Result.getOrThrow(Project.settings({ ...base, from: "2026-12-01", to: "2026-12-31" }))
    const r = Project.report(d, s)
    expect(r.skipped.map((k) => k.orderId)).toEqual(["O0", "O2", "O3", "O4", "O5"])
    expect(r.skipped[0]!.reason).toBe(
      "instructedAmount.value 7.125: amount has 3 decimals, at most 2 allowed (format [9.2]); not projected, nothing rounded"
    )
    expect(r.skipped[3]!.reason).toMatch(/^instructedAmount.value 1000000000000000: amount has 16 digits before/)
    expect([...Export.payments(r)].map((p) => [p.orderId, Money.toPlainString(p.amount)])).toEqual([
      ["O1", "12.5"],
      ["O6", "999999999.99"]
    ])
  })

  it("keeps every good order of a large stream as projectable orders sharing their accounts", () => {
    const decoded = Result.getOrThrow(pushInPieces(Project.ordersDecoder(), largeListing()))
    expect(decoded.orders).toHaveLength(19_997)
    expect(decoded.orders[4_000]!.orderId).toBe("SO-4001")
    // one debtor and one creditor object for twenty thousand orders of one pair of accounts
    expect(new Set(decoded.orders.map((o) => o.debtor)).size).toBe(1)
    expect(new Set(decoded.orders.map((o) => o.creditor)).size).toBe(1)
    expect(decoded.unread.map((s) => [s.orderId, s.reason.split(":")[0]])).toEqual([
      ["BAD-DATE", "record 4001 at startDate"],
      [undefined, "record 12346"],
      ["BAD-IBAN", "record 20000 at creditor.iban"]
    ])
  })

  it("reads a bare array", () => {
    expect(Result.getOrThrow(Project.decodeOrders(fixture("bare-array.json"))).orders).toHaveLength(2)
  })

  it("fails on text that is not JSON or not a standing-order list", () => {
    expect(failure(Project.decodeOrders(fixture("malformed.json")))).toMatch(/^not valid JSON/)
    expect(failure(Project.decodeOrders(fixture("not-a-list.json")))).not.toBe("")
  })

  it("refuses a top level that is neither an array nor an object with standingOrders", () => {
    for (const text of ['{"foo":1}', "{}", "42", '"orders"', "null"]) {
      expect(failure(Project.decodeOrders(text))).toMatch(/^not an orders file/)
    }
    expect(Result.getOrThrow(Project.decodeOrders('{"standingOrders":null}')).orders).toEqual([])
    expect(Result.getOrThrow(Project.decodeOrders('{"standingOrders":[]}')).orders).toEqual([])
  })
})

describe("Project.report", () => {
  it("projects the window and lists decoding failures before unprojectable orders", () => {
    const s = Result.getOrThrow(Project.settings(base))
    const d = Result.getOrThrow(Project.decodeOrders(fixture("orders.json")))
    const r = Project.report(d, s)
    const payments = [...Export.payments(r)]
    expect(payments).toHaveLength(6)
    // then an order that pays, but not in this window (issue 34)
    expect(r.skipped.map((x) => x.orderId)).toEqual(["SO-BAD-FREQ", "SO-BAD-DATE", "SO-NO-ANCHOR", "SO-GYM"])
    expect(r.skipped[3]?.reason).toBe("no payment in this window (2024-01-01 to 2024-06-30): the next is on 2026-12-21")
    expect([r.calendarName, r.convention]).toEqual(["target", "following"])
    const key = (p: ProjectionFormats.PaymentRow) =>
      `${p.orderId} ${p.nominalDate} ${p.executionDate} ${Money.formatFixed2(p.amount)}`
    expect([...Export.payments(Project.report(d, s))].map(key)).toEqual(payments.map(key))
    let counted = 0
    const live = Project.report(d, s, (n) => {
      counted += n
    })
    expect([...Export.payments(live)].map(key)).toEqual(payments.map(key))
    expect(counted).toBe(6)
  })

  it("can be read again and again, in every format, each read the whole projection", () => {
    const r = Project.report(
      Result.getOrThrow(Project.decodeOrders(fixture("orders.json"))),
      Result.getOrThrow(Project.settings(base))
    )
    for (const format of ProjectionFormats.projectionFormats) {
      const render = ProjectionFormats.projectionRenderers[format].render
      const first = Render.text(render(r))
      expect(first.length, format).toBeGreaterThan(0)
      expect(first, format).not.toContain("No payments fall in this window.")
      expect(Render.text(render(r)), format).toBe(first)
      expect(Render.text(render(r)), format).toBe(first)
    }
    // the formats read one after the other from one report, as the README's example does
    expect(ProjectionFormats.projectionTable(r)).toContain("Totals (6 payments)")
    expect(Render.text(Export.csv(r)).split("\r\n")).toHaveLength(8)
    expect([...Export.payments(r)]).toHaveLength(6)
  })
})

describe("orders given as RRULEs (issue 22)", () => {
  const text = readFileSync(join(import.meta.dirname, "golden", "inputs", "rrule-orders.json"), "utf8")
  it("reads an rrule field beside the bank's fields, and names a rule the model cannot say", () => {
    const decoded = Result.getOrThrow(Project.decodeOrders(text))
    // the bank's record's recurrence remembers its code (planned by it; core's Orders: a recurrence always)
    const codeOf = (o: Project.Order) => (o.recurrence === undefined ? undefined : Recurrence.code(o.recurrence))
    expect(decoded.orders.map((o) => [o.orderId, o.recurrence?.rule._tag, codeOf(o)])).toEqual([
      ["SO-R1", "MonthlyOnWeekday", undefined],
      ["SO-R2", "MonthlyOnDay", undefined],
      ["SO-C", "Weekly", "WEEK"]
    ])
    expect(decoded.unread).toMatchObject([
      {
        orderId: "SO-R3",
        position: 3,
        reason: "rrule: FREQ=HOURLY (tppkit's dates have no time of day) is not part of tppkit's recurrence model",
        kind: "schedule"
      }
    ])
  })

  it("projects them with the bank's codes, moved by the projection's convention", () => {
    const decoded = Result.getOrThrow(Project.decodeOrders(text))
    const settings = Result.getOrThrow(
      Project.settings({ from: "2027-03-01", to: "2027-03-31", calendar: "target", convention: "following" })
    )
    const payments = [...Export.payments(Project.report(decoded, settings))]
    const of = (id: string) =>
      payments
        .filter((p) => p.orderId === id)
        .map((p) => [LocalDate.format(p.nominalDate), LocalDate.format(p.executionDate)])
    // the last Friday of March 2027 is Good Friday: the payment moves to Tuesday 30 March (Easter Monday between)
    expect(of("SO-R1")).toEqual([["2027-03-26", "2027-03-30"]])
    // day 30 clamped, from 31 January: 28 February (a Sunday, then Monday 1 March) and 30 March
    expect(of("SO-R2")).toEqual([
      ["2027-02-28", "2027-03-01"],
      ["2027-03-30", "2027-03-30"]
    ])
  })
})

describe("orders in any standard (issue 23)", () => {
  const text = readFileSync(join(import.meta.dirname, "golden", "inputs", "mixed-orders.json"), "utf8")
  const window = { from: "2027-01-01", to: "2027-06-30", calendar: "target" }
  const paid = (r: Project.Report) => {
    const out = new Map<string, Array<string>>()
    for (const p of Export.payments(r)) {
      const dates = out.get(p.orderId ?? "") ?? []
      dates.push(`${LocalDate.format(p.nominalDate)}>${LocalDate.format(p.executionDate)}`)
      out.set(p.orderId ?? "", dates)
    }
    return out
  }

  it("projects a mixed file as each record's own recurrence, projected directly", () => {
    const decoded = Result.getOrThrow(Project.decodeOrders(text))
    expect(decoded.unread).toMatchObject([
      {
        orderId: "SO-X",
        position: 8,
        reason: "iso20022: INDA: several times a day, at times not given",
        kind: "schedule"
      }
    ])
    // read without a convention: the RRULE's dates stay as they are; the ISO 20022 records' unstated one is said
    expect(decoded.warnings?.map((w) => w.orderId)).toEqual(["SO-U3", "SO-U3", "SO-BG", "SO-I", "SO-ID"])
    const got = paid(
      Project.report(decoded, Result.getOrThrow(Project.settings({ ...window, convention: "following" })))
    )
    const records = JSON.parse(text) as ReadonlyArray<Record<string, unknown>>
    const standards = new Set<string>()
    for (const record of records) {
      const id = record.orderId as string
      if (id === "SO-X") continue
      const said = record.standard as Standard.Standard | undefined
      const d = Standard.decode(record, { standard: said, convention: "following" })
      standards.add(d.standard!)
      const r = Translation.getValue(d.translation)!
      // an RRULE carries no convention: the projection's moves it, as it moves the bank's codes
      const want = projected(d.standard === "rrule" ? { ...r, convention: "following" } : r, 400).filter((x) => {
        const execution = x.slice(11)
        return execution >= window.from && execution <= window.to
      })
      expect(want.length, id).toBeGreaterThan(0)
      expect(got.get(id), id).toEqual(want)
    }
    expect([...standards].sort()).toEqual(["berlin-group", "cobs", "iso20022", "rrule", "sbas", "uk-v3"])
  })

  it("keeps a record's own convention (Berlin Group executionRule, COBS modeDue); the others take --convention", () => {
    const decoded = Result.getOrThrow(Project.decodeOrders(text))
    for (const convention of ["following", "modified-following", "preceding"]) {
      const got = paid(Project.report(decoded, Result.getOrThrow(Project.settings({ ...window, convention }))))
      // 1 May 2027 is a Saturday and a TARGET holiday: executionRule preceding pays on Friday 30 April
      expect(got.get("SO-BG"), convention).toContain("2027-05-01>2027-04-30")
      // modeDue DUE_OR_BEFORE_DAY_OF_MONTH: Sunday 10 January is paid on Friday 8 January
      expect(got.get("SO-CB"), convention).toContain("2027-01-10>2027-01-08")
      // ISO 20022 leaves the convention to the bank: Saturday 20 February moves as the projection says
      expect(got.get("SO-I"), convention).toContain(
        convention === "preceding" ? "2027-02-20>2027-02-19" : "2027-02-20>2027-02-22"
      )
    }
  })

  it("--standard forces one standard for every record", () => {
    const dail = JSON.stringify([
      {
        orderId: "SO-D",
        frequency: "DAIL",
        startDate: "2027-01-01",
        debtor: { name: "A", iban: "SK3112000000198742637541" },
        creditor: { name: "B", iban: "CZ6508000000192000145399" },
        instructedAmount: { value: 1, currency: "EUR" }
      }
    ])
    const settings = Result.getOrThrow(
      Project.settings({ from: "2027-01-04", to: "2027-01-10", calendar: "target", convention: "following" })
    )
    const days = (options?: Orders.Options) =>
      [...Export.payments(Project.report(Result.getOrThrow(Project.decodeOrders(dail, options)), settings))].length
    // the bank's DAIL is every working day, ISO 20022's every calendar day
    expect(days()).toBe(5)
    expect(days({ standard: "sbas" })).toBe(5)
    expect(days({ standard: "iso20022" })).toBe(7)
    // a record that is not in the forced standard is unread, with the reason
    const forced = Result.getOrThrow(Project.decodeOrders(dail, { standard: "uk-v3" }))
    expect(forced.orders).toEqual([])
    expect(forced.unread.map((s) => s.orderId)).toEqual(["SO-D"])
    expect(forced.unread[0]!.reason.startsWith("uk-v3: ")).toBe(true)
  })
})
