import { execFileSync } from "node:child_process"
import { join } from "node:path"
import { Calendar, LocalDate } from "@tppkit/core"
import { Holidays } from "@tppkit/schedule"
import { Result } from "effect"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"

const d = LocalDate.parseUnsafe
const holidays2026 = (code: string): Array<string> =>
  Holidays.between(Holidays.nationalUnsafe(code), d("2026-01-01"), d("2026-12-31")).map(LocalDate.format)

describe("Holidays.national: public holidays of 2026", () => {
  it("SK (8 May and 15 September are no longer days off from 2026; 1 September and 17 November neither)", () => {
    expect(holidays2026("SK")).toEqual([
      "2026-01-01",
      "2026-01-06",
      "2026-04-03",
      "2026-04-06",
      "2026-05-01",
      "2026-07-05",
      "2026-08-29",
      "2026-11-01",
      "2026-12-24",
      "2026-12-25",
      "2026-12-26"
    ])
  })
  it("CZ", () => {
    expect(holidays2026("CZ")).toEqual([
      "2026-01-01",
      "2026-04-03",
      "2026-04-06",
      "2026-05-01",
      "2026-05-08",
      "2026-07-05",
      "2026-07-06",
      "2026-09-28",
      "2026-10-28",
      "2026-11-17",
      "2026-12-24",
      "2026-12-25",
      "2026-12-26"
    ])
  })
  it("AT (24 and 31 December are bank half-days, not public holidays)", () => {
    expect(holidays2026("AT")).toEqual([
      "2026-01-01",
      "2026-01-06",
      "2026-04-06",
      "2026-05-01",
      "2026-05-14",
      "2026-05-25",
      "2026-06-04",
      "2026-08-15",
      "2026-10-26",
      "2026-11-01",
      "2026-12-08",
      "2026-12-25",
      "2026-12-26"
    ])
  })
  it("DE nation-wide, and Bavaria adds Epiphany, Corpus Christi and All Saints", () => {
    const de = [
      "2026-01-01",
      "2026-04-03",
      "2026-04-06",
      "2026-05-01",
      "2026-05-14",
      "2026-05-25",
      "2026-10-03",
      "2026-12-25",
      "2026-12-26"
    ]
    expect(holidays2026("DE")).toEqual(de)
    const by = Holidays.nationalUnsafe("de", { state: "by" })
    expect(by.name).toBe("DE-BY")
    expect(Holidays.nationalUnsafe("DE-BY").isHoliday(d("2026-06-04"))).toBe(true)
    expect(Holidays.nationalUnsafe("DE").isHoliday(d("2026-06-04"))).toBe(false)
    for (const x of ["2026-01-06", "2026-06-04", "2026-11-01", ...de]) expect(by.isHoliday(d(x))).toBe(true)
  })
  it("counts other types only when asked", () => {
    const at = Holidays.nationalUnsafe("AT", { types: ["public", "bank"] })
    expect(at.isHoliday(d("2026-12-24"))).toBe(true)
  })
  it("works across years, lazily, and keeps answering the same", () => {
    const sk = Holidays.nationalUnsafe("SK")
    expect(sk.isHoliday(d("2030-01-01"))).toBe(true)
    expect(sk.isHoliday(d("2001-12-26"))).toBe(true)
    expect(sk.isHoliday(d("2030-01-02"))).toBe(false)
    expect(sk.isHoliday(d("2030-01-01"))).toBe(true)
  })
})

describe("Holidays: counting weekday holidays (the engine's fast path)", () => {
  it("agrees with isHoliday on random ranges, across years", () => {
    const sk = Holidays.nationalUnsafe("SK")
    const count = sk.countWeekdayHolidays!
    fc.assert(
      fc.property(
        fc.integer({ min: d("1995-01-01"), max: d("2035-12-31") }),
        fc.integer({ min: -5, max: 1200 }),
        (a, len) => {
          const from = a as LocalDate.LocalDate
          const to = LocalDate.addDays(from, len)
          let expected = 0
          for (let x = from; x <= to; x = LocalDate.addDays(x, 1))
            if (!LocalDate.isWeekend(x) && sk.isHoliday(x)) expected++
          expect(count(from, to)).toBe(expected)
        }
      ),
      { numRuns: 300 }
    )
    // 261 weekdays; 7 SK holidays fall on one (5 July, 29 August, 1 November and 26 December are weekend days)
    expect(Calendar.countWorkingDays(sk, d("2026-01-01"), d("2026-12-31"))).toBe(261 - 7)
  })
})

describe("Holidays: errors and combinations", () => {
  it("rejects unknown countries and states with a reason", () => {
    const x = Holidays.national("XX")
    expect(Result.isFailure(x) && x.failure).toMatch(/unknown country "XX"/)
    const s = Holidays.national("DE", { state: "ZZ" })
    expect(Result.isFailure(s) && s.failure).toMatch(/unknown state/)
    expect(() => Holidays.nationalUnsafe("")).toThrow(RangeError)
  })
  it("lists countries", () => {
    const cs = Holidays.countries()
    expect(cs).toContain("SK")
    expect(cs).toContain("CZ")
  })
  it("union and withDates add holidays and keep the originals", () => {
    const sk = Holidays.nationalUnsafe("SK")
    const custom = Calendar.withHolidays(sk, [d("2026-03-02")])
    expect(custom.isHoliday(d("2026-03-02"))).toBe(true)
    expect(sk.isHoliday(d("2026-03-02"))).toBe(false)
    const both = Holidays.union([sk, Holidays.nationalUnsafe("CZ")])
    expect(both.name).toBe("SK+CZ")
    expect(both.isHoliday(d("2026-08-29"))).toBe(true)
    expect(both.isHoliday(d("2026-09-28"))).toBe(true)
    expect(both.isHoliday(d("2026-09-29"))).toBe(false)
    const withTarget = Holidays.union([Calendar.target, sk])
    expect(withTarget.isHoliday(d("2026-08-29"))).toBe(true)
    expect(Calendar.isWorkingDay(withTarget, d("2026-01-06"))).toBe(false)
    expect(Calendar.isWorkingDay(withTarget, d("2026-01-07"))).toBe(true)
  })
})

describe("Holidays.ofCurrency and byCurrency: each currency's own calendar", () => {
  it("EUR follows TARGET, CZK Czech banking days, others their country's, unknown ones weekends", () => {
    expect(Holidays.ofCurrency("EUR").name).toBe("target")
    expect(Holidays.ofCurrency("CZK").name).toBe("CZ")
    expect(Holidays.ofCurrency("USD").name).toBe("US")
    expect(Holidays.ofCurrency("GBP").name).toBe("GB")
    expect(Holidays.ofCurrency("XAU").name).toBe("weekends")
    // 28 October is a Czech public holiday, not a TARGET one; 1 May is both
    expect(Holidays.ofCurrency("CZK").isHoliday(d("2026-10-28"))).toBe(true)
    expect(Holidays.ofCurrency("EUR").isHoliday(d("2026-10-28"))).toBe(false)
    expect(Holidays.ofCurrency("EUR").isHoliday(d("2026-05-01"))).toBe(true)
  })

  it("adds extra holidays to each currency's calendar, keeping its name, and builds each calendar once", () => {
    const byCurrency = Holidays.byCurrency([d("2026-10-27")])
    expect(Calendar.isWorkingDay(byCurrency("CZK"), d("2026-10-27"))).toBe(false)
    expect(Calendar.isWorkingDay(byCurrency("EUR"), d("2026-10-27"))).toBe(false)
    expect(byCurrency("CZK").name).toBe("CZ")
    expect(byCurrency("CZK")).toBe(byCurrency("CZK"))
  })
})

describe("Holidays: the holiday library is loaded on first use", () => {
  it("TARGET, weekends, EUR and a malformed code load none of it; a country loads it", { timeout: 60_000 }, () => {
    // a resolve hook records every module loaded (imports and requires), from the sources, in a fresh Node
    const holidays = join(import.meta.dirname, "..", "..", "packages", "schedule", "src", "Holidays.ts")
    const script = [
      'const { registerHooks } = await import("node:module")',
      "const seen = []",
      "registerHooks({ resolve: (s, c, next) => { const r = next(s, c); seen.push(r.url); return r } })",
      `const Holidays = await import(${JSON.stringify(holidays)})`,
      "const loaded = () => seen.some((url) => url.includes('/date-holidays/'))",
      "const eur = Holidays.byCurrency()('EUR').name, gold = Holidays.ofCurrency('XAU').name",
      "const malformed = Holidays.national('S1')._tag",
      "const before = loaded()",
      "const sk = Holidays.national('SK')._tag, usd = Holidays.ofCurrency('USD').name",
      "process.stdout.write(JSON.stringify({ eur, gold, malformed, before, sk, usd, after: loaded() }))"
    ].join("\n")
    const out = execFileSync(process.execPath, ["--conditions=@tppkit/source", "--input-type=module", "-e", script], {
      encoding: "utf8"
    })
    expect(JSON.parse(out)).toEqual({
      eur: "target",
      gold: "weekends",
      malformed: "Failure",
      before: false,
      sk: "Success",
      usd: "US",
      after: true
    })
  })
})
