import { LocalDate } from "@tppkit/core"
import { Result, Schema } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"

describe("LocalDate", () => {
  it("round-trips known dates", () => {
    expect(LocalDate.parseUnsafe("1970-01-01")).toBe(0)
    expect(LocalDate.format(LocalDate.parseUnsafe("0001-01-01"))).toBe("0001-01-01")
    expect(LocalDate.format(LocalDate.parseUnsafe("9999-12-31"))).toBe("9999-12-31")
    expect(LocalDate.dayOfWeek(LocalDate.parseUnsafe("2026-11-21"))).toBe(6)
    expect(LocalDate.format(LocalDate.addMonthsClamped(LocalDate.parseUnsafe("2024-01-31"), 1))).toBe("2024-02-29")
  })

  it("adds months clamped to the month's last day, and day numbers agree with year/month/day", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: LocalDate.MIN, max: LocalDate.MAX }),
        fc.integer({ min: -1200, max: 1200 }),
        (n, months) => {
          const date = n as LocalDate.LocalDate
          const { year, month, day } = LocalDate.toParts(date)
          expect(LocalDate.makeUnsafe(year, month, day)).toBe(date)
          const index = year * 12 + month - 1 + months
          const y = Math.floor(index / 12)
          if (y < 1 || y > 9999) return
          const m = index - y * 12 + 1
          const expected = LocalDate.makeUnsafe(y, m, Math.min(day, LocalDate.daysInMonth(y, m)))
          expect(LocalDate.addMonthsClamped(date, months)).toBe(expected)
        }
      ),
      { numRuns: 10_000 }
    )
  })

  it("rejects impossible dates with a reason", () => {
    const r = LocalDate.parse("2023-02-29")
    expect(Result.isFailure(r) && r.failure).toMatch(/day 29 does not exist in 2023-02/)
    expect(Result.isFailure(LocalDate.parse("0000-01-01"))).toBe(true)
    expect(() => Schema.decodeUnknownSync(LocalDate.LocalDate)("2023-13-01")).toThrow()
  })

  it("schema decodes and encodes", () => {
    const d = Schema.decodeUnknownSync(LocalDate.LocalDate)("2024-02-29")
    expect(LocalDate.format(d)).toBe("2024-02-29")
    expect(Schema.encodeSync(LocalDate.LocalDate)(d)).toBe("2024-02-29")
  })

  it("formats the same text on first and repeated use, inside and around its cached years (1900–2199)", () => {
    const text = (n: number): string => {
      const { year, month, day } = LocalDate.toParts(n as LocalDate.LocalDate)
      return `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`
    }
    const edges = [LocalDate.parseUnsafe("1900-01-01"), LocalDate.parseUnsafe("2200-01-01"), 0]
    for (const edge of edges) {
      for (let n = edge - 40; n <= edge + 40; n++) {
        const first = LocalDate.format(n as LocalDate.LocalDate)
        expect(first).toBe(text(n))
        expect(LocalDate.format(n as LocalDate.LocalDate)).toBe(first)
      }
    }
    fc.assert(
      fc.property(fc.integer({ min: LocalDate.MIN, max: LocalDate.MAX }), (n) => {
        expect(LocalDate.format(n as LocalDate.LocalDate)).toBe(text(n))
        expect(LocalDate.format(n as LocalDate.LocalDate)).toBe(text(n))
      }),
      { numRuns: 10_000 }
    )
  })

  it("agrees with a day-by-day walk and Date.UTC over 0001–9999", () => {
    fc.assert(
      fc.property(fc.integer({ min: LocalDate.MIN, max: LocalDate.MAX }), (n) => {
        const d = n as LocalDate.LocalDate
        const { year, month, day } = LocalDate.toParts(d)
        const utc = new Date(0)
        utc.setUTCFullYear(year, month - 1, day)
        expect(Math.round(utc.getTime() / 86_400_000)).toBe(n)
        expect(LocalDate.parseUnsafe(LocalDate.format(d))).toBe(n)
        expect(LocalDate.dayOfWeek(d)).toBe(((utc.getUTCDay() + 6) % 7) + 1)
      }),
      { numRuns: 10_000 }
    )
  })

  it("parse accepts exactly the YYYY-MM-DD texts of existing dates, as Date.UTC reads them", () => {
    const near = fc
      .array(fc.constantFrom(..."0123456789-/x "), { minLength: 8, maxLength: 11 })
      .map((cs) => cs.join(""))
    const dated = fc
      .tuple(fc.integer({ min: 0, max: 10_000 }), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 }))
      .map(([y, m, d]) => `${String(y).padStart(4, "0")}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`)
    fc.assert(
      fc.property(fc.oneof(near, dated), (text) => {
        const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text)
        let expected: number | undefined
        if (m !== null) {
          const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])]
          const utc = new Date(0)
          utc.setUTCFullYear(year, month - 1, day)
          const ok =
            year >= 1 && utc.getUTCFullYear() === year && utc.getUTCMonth() === month - 1 && utc.getUTCDate() === day
          if (ok) expected = Math.round(utc.getTime() / 86_400_000)
        }
        const r = LocalDate.parse(text)
        expect(Result.isSuccess(r) ? r.success : undefined).toBe(expected)
      }),
      { numRuns: 10_000 }
    )
  })

  describe("ofInstant", () => {
    const at = (iso: string, zone: string) => LocalDate.format(LocalDate.ofInstant(Date.parse(iso), zone))

    it("is the day on the zone's clock: the bank's day begins an hour (two in summer) before UTC's", () => {
      expect(at("2026-11-25T22:59:59Z", LocalDate.bankTimeZone)).toBe("2026-11-25")
      expect(at("2026-11-25T23:00:00Z", LocalDate.bankTimeZone)).toBe("2026-11-26")
      expect(at("2026-07-01T21:59:59Z", LocalDate.bankTimeZone)).toBe("2026-07-01")
      expect(at("2026-07-01T22:00:00Z", LocalDate.bankTimeZone)).toBe("2026-07-02")
      expect(at("2026-03-29T00:30:00Z", "America/New_York")).toBe("2026-03-28")
      expect(at("1970-01-01T00:00:00Z", "UTC")).toBe("1970-01-01")
    })

    it("in UTC is the instant's whole days since 1970", () => {
      fc.assert(
        fc.property(fc.integer({ min: -62_135_596_800_000, max: 253_402_300_799_999 }), (ms) => {
          expect(LocalDate.ofInstant(ms, "UTC")).toBe(Math.floor(ms / 86_400_000))
        }),
        { numRuns: 10_000 }
      )
    })
  })

  describe("toEpochMillis", () => {
    it("is the inverse of ofInstant at UTC midnight, and every instant of that UTC day reads back the date", () => {
      fc.assert(
        fc.property(
          fc.integer({ min: LocalDate.MIN, max: LocalDate.MAX }),
          fc.integer({ min: 0, max: 86_399_999 }),
          (n, ms) => {
            const date = n as LocalDate.LocalDate
            const midnight = LocalDate.toEpochMillis(date)
            expect(LocalDate.ofInstant(midnight, "UTC")).toBe(date)
            expect(LocalDate.ofInstant(midnight + ms, "UTC")).toBe(date)
            expect(LocalDate.toEpochMillis(LocalDate.ofInstant(midnight + ms, "UTC"))).toBe(midnight)
          }
        ),
        { numRuns: 10_000 }
      )
      expect(LocalDate.toEpochMillis(LocalDate.parseUnsafe("2026-11-29"))).toBe(Date.parse("2026-11-29T00:00:00Z"))
    })
  })
})
