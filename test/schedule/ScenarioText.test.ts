import { LocalDate } from "@tppkit/core"
import { ScenarioText } from "@tppkit/schedule"
import { BigDecimal, Result } from "effect"
import { describe, expect, it } from "vitest"

const A = "SK2411000000002612345678"

/** The reason of a text that could not be read, as its message and the part named. */
const problem = (text: string) => {
  const r = ScenarioText.parse(text)
  if (Result.isSuccess(r)) return undefined
  const reason = r.failure.reason
  return reason._tag === "InvalidScenario"
    ? { part: reason.part, detail: reason.detail, message: r.failure.message }
    : undefined
}

describe("ScenarioText", () => {
  it("reads scenarios as data and names what is wrong in one", () => {
    const s = Result.getOrThrow(
      ScenarioText.parse(
        "skip:SO-RENT@2027-02-01, delay:SALARY+3, delay:X@2027-01-28+2, remove:GYM, convention:preceding, fail:Y@2027-03-01"
      )
    )
    expect(s.changes.map((c) => c._tag)).toEqual(["Skip", "Delay", "Delay", "Remove", "Settings", "Fail"])
    expect(s.changes[1]).toEqual({ _tag: "Delay", orderId: "SALARY", days: 3 })
    expect(s.changes[2]).toEqual({ _tag: "Delay", orderId: "X", days: 2, date: LocalDate.parseUnsafe("2027-01-28") })
    expect(Result.getOrThrow(ScenarioText.parse("calendar:weekends")).changes[0]?._tag).toBe("Settings")
    expect(Result.getOrThrow(ScenarioText.parse("calendar:sk")).changes[0]?._tag).toBe("Settings")
    expect(problem("delay:SALARY+0")).toEqual({
      part: "delay:SALARY+0",
      detail: "expected delay:ORDER+DAYS or delay:ORDER@YYYY-MM-DD+DAYS (DAYS a whole number ≥ 1)",
      message:
        'scenario "delay:SALARY+0": delay:SALARY+0: expected delay:ORDER+DAYS or delay:ORDER@YYYY-MM-DD+DAYS (DAYS a whole number ≥ 1)'
    })
    expect(problem("skip:RENT")?.detail).toBe("expected skip:ORDER@YYYY-MM-DD")
    expect(problem("explode:RENT")?.detail).toBe(
      "expected skip:, fail:, delay:, add:, remove:, convention: or calendar:"
    )
    expect(problem("calendar:nowhere")?.part).toBe("calendar:nowhere")
    expect(problem(" , ")).toEqual({
      part: undefined,
      detail: "no change named",
      message: 'scenario " , ": no change named'
    })
  })

  it("a calendar is found by the caller's reader when one is given, the bank's closing days kept", () => {
    const s = ScenarioText.parse("calendar:mine", {
      calendarOf: (name) =>
        name === "mine"
          ? Result.succeed(ScenarioText.calendarOf("weekends").pipe(Result.getOrThrow))
          : Result.fail("no"),
      holidays: [LocalDate.parseUnsafe("2027-01-05")]
    })
    const change = Result.getOrThrow(s).changes[0]
    expect(change?._tag).toBe("Settings")
  })

  it("adds the orders of a file (add:FILE, read by the caller) to a scenario", () => {
    const car = {
      orderId: "CAR",
      frequency: "MNTH" as const,
      startDate: LocalDate.parseUnsafe("2027-02-10"),
      instructedAmount: { value: BigDecimal.fromStringUnsafe("300"), currency: "EUR" },
      debtor: { iban: A },
      creditor: { iban: "AT611904300234573201" }
    }
    expect(ScenarioText.addedFiles("skip:X@2027-01-01, add:car.json,ADD: more.json")).toEqual(["car.json", "more.json"])
    const s = Result.getOrThrow(
      ScenarioText.parse("add:car.json,remove:GYM", { added: new Map([["car.json", [car]]]) })
    )
    expect(s.changes).toEqual([
      { _tag: "Add", order: car },
      { _tag: "Remove", orderId: "GYM" }
    ])
    expect(problem("add:none.json")?.detail).toBe("expected add:FILE (an orders file)")
  })

  it("writes each change back as the text that names it", () => {
    const text = "skip:SO-RENT@2027-02-01,fail:Y@2027-03-01,delay:SALARY+3,delay:X@2027-01-28+2,remove:GYM"
    const s = Result.getOrThrow(ScenarioText.parse(text))
    expect(s.changes.map(ScenarioText.format).join(",")).toBe(text)
    expect(ScenarioText.format({ _tag: "Settings", convention: "preceding" })).toBe("settings")
  })
})
