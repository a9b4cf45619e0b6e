import { describe, expect, it } from "vitest"
import { run } from "./inProcess.ts"
import { tempFolder } from "./tempFiles.ts"

const { file: write } = tempFolder("tppkit-translate")

describe('tppkit translate --to rrule: pauses as EXDATE (core README, "Pauses as EXDATE")', () => {
  const file = "test/cli/fixtures/recurrence-orders.json"

  it("a monthly COBS order stopped in July and broken in September: BYMONTH and an EXDATE; a weekly one: July lost", async () => {
    const r = await run(["translate", "--orders", file, "--to", "rrule", "--convention", "none", "--format", "json"])
    expect(r.code).toBe(8)
    const rows = r.stdout
      .trim()
      .split("\n")
      .map(
        (l) =>
          JSON.parse(l) as {
            orderId: string
            result: string
            translation?: string
            losses?: Array<{ field: string; from: string }>
          }
      )
    const paused = rows.find((x) => x.orderId === "C-PAUSED")!
    // the record states preceding: that is the one loss; the pauses are kept
    expect(paused.translation).toBe(
      "DTSTART;VALUE=DATE:20270110\nRRULE:FREQ=MONTHLY;BYMONTH=1,2,3,4,5,6,8,9,10,11,12;BYMONTHDAY=10\nEXDATE;VALUE=DATE:20270910"
    )
    expect(paused.losses?.map((l) => l.field)).toEqual(["convention"])
    const weekly = rows.find((x) => x.orderId === "C-WEEKLY")!
    // its record fixes its dates (COBS modeDue: the day itself): the RRULE says they are never moved (issue 34)
    expect(weekly.translation).toBe(
      "DTSTART;VALUE=DATE:20270106\nRRULE:FREQ=WEEKLY;BYDAY=WE\nX-TPPKIT-NEVER-MOVED:TRUE"
    )
    expect(weekly.losses?.map((l) => [l.field, l.from])).toEqual([["pauses", "months 7"]])
    expect(rows.find((x) => x.orderId === "R-BIWEEKLY")?.result).toBe("exact")
  })

  it("the text output names the lost pauses in words (the months by name, the verb agreeing)", async () => {
    const r = await run(["translate", "--orders", file, "--to", "rrule", "--convention", "none"])
    expect(r.code).toBe(8)
    expect(r.stdout).toContain(
      "  lost: The pauses (pauses) change from every July to none, because a rule without end paused in the same months every year would need an EXDATE in every year"
    )
  })

  it("the iCalendar export (--ics-rrule) lists the window's paused dates and names the months it cannot", async () => {
    const r = await run(
      ["project", "--orders", file, "--from", "2027-06-01", "--to", "2027-08-31", "--format", "ics"].concat([
        "--ics-rrule"
      ])
    )
    expect(r.code).toBe(0)
    expect(r.stdout).toContain("UID:C-WEEKLY-rule@tppkit")
    expect(r.stderr).toMatch(
      /^tppkit: C-WEEKLY is exact in the window; after it, its rule also pays on the dates paused every July: /m
    )
    expect(r.stderr).not.toMatch(/C-PAUSED is exact/)
  })
})

describe("tppkit translate: a file's text on the terminal", () => {
  const order = (orderId: string, frequency: string, startDate = "2027-01-31") => ({
    orderId,
    frequency,
    startDate,
    debtor: { name: "A", iban: "SK3112000000198742637541" },
    creditor: { name: "B", iban: "CZ6508000000192000145399" },
    instructedAmount: { value: 1, currency: "EUR" }
  })

  it("control characters of an orderId are shown escaped, in the output and in the not-read lines", async () => {
    const file = write("escapes.json", [order("OK\u001b[2J", "MNTH"), order("BAD\u001b]0;x\u0007", "XXXX")])
    const r = await run(["translate", "--orders", file, "--to", "rrule"])
    expect(r.code).toBe(7)
    expect(r.stdout).toContain("OK\\x1b[2J  lossy\n")
    expect(r.stderr).toContain("tppkit: BAD\\x1b]0;x\\x07 not read: ")
    expect(r.stdout + r.stderr).not.toContain("\u001b")
  })

  it("quarterly from 2027-01-30 and half-yearly from 2027-01-31 are exact in every standard: no month they reach lacks the day (issue 34)", async () => {
    const file = write("quarters.json", [
      order("Q", "QUTR", "2027-01-30"),
      order("S", "SEMI", "2027-01-31"),
      order("M", "MNTH", "2027-01-30")
    ])
    for (const to of ["berlin-group", "cobs", "uk-v3", "uk-v4", "iso20022", "ynab", "actual"]) {
      const r = await run(["translate", "--orders", file, "--to", to, "--calendar", "weekends"])
      // only M, monthly from 30 January, reaches a month without its day (February); COBS's MONTHLY cannot say day 30
      const lacks = `${r.stdout}${r.stderr}`.split("A day a short month lacks").length - 1
      expect(lacks, to).toBe(to === "cobs" ? 0 : 1)
      expect(`${r.stdout}${r.stderr}`, to).not.toMatch(/^(tppkit: )?[QS] lossy: A day a short month lacks/m)
    }
  })
})

describe("tppkit translate --holidays: the bank's own closing days (issue 40)", () => {
  const order = (orderId: string, startDate: string) => ({
    orderId,
    debtor: { name: "D", iban: "SK2411000000002612345678" },
    creditor: { iban: "SK6609000000005012345678" },
    instructedAmount: { value: 5, currency: "EUR" },
    startDate,
    frequency: "MNTH"
  })
  const file = write("orders.json", [order("ON-IT", "2027-01-05"), order("BESIDE", "2027-01-06")])
  /** `translate` of the two orders to the standard `to`, with `flags`. */
  const translate = (to: string, ...flags: Array<string>) => run(["translate", "--orders", file, "--to", to, ...flags])
  const loss = {
    field: "holidays",
    from: "2027-02-05",
    to: "not defined",
    why: "no standard's record says the bank's own closing days: the payment due 2027-02-05 executes on 2027-02-08 with them, on 2027-02-05 without"
  }

  it("a closing day that moves one of an order's payments is a loss of that order, in every target", async () => {
    const sbas = await translate("sbas", "--holidays", "2027-02-05", "--format", "json")
    expect(sbas.code).toBe(8)
    const rows = sbas.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { orderId: string; result: string; losses?: ReadonlyArray<unknown> })
    expect(rows.map((r) => [r.orderId, r.result, r.losses])).toEqual([
      ["ON-IT", "lossy", [loss]],
      ["BESIDE", "exact", undefined]
    ])
    // the same order and no holidays: exact
    const none = await translate("sbas")
    expect(none.code).toBe(0)
    // the RRULE's own losses follow the holidays'
    const rrule = await translate("rrule", "--holidays", "2027-02-05")
    expect(rrule.stdout).toContain(
      "  lost: The bank's own closing days (holidays) changes from 2027-02-05 to not defined by the standard, because no standard's record says"
    )
    // a standard written whole: the loss on stderr
    const cobs = await translate("cobs", "--holidays", "2027-02-05")
    expect(cobs.code).toBe(8)
    expect(cobs.stderr).toMatch(/^tppkit: ON-IT lossy: The bank's own closing days \(holidays\)/m)
    expect(cobs.stderr).not.toMatch(/BESIDE lossy: The bank's own/)
  })

  it("a date that is none is refused as on every command", async () => {
    const r = await translate("rrule", "--holidays", "2027-02-30")
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('--holidays "2027-02-30"')
  })
})
