import { DateTime, LocalDate } from "@tppkit/core"
import { Result, Schema } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"

describe("DateTime", () => {
  it("accepts RFC 3339 date-times and keeps the text", () => {
    for (const ok of [
      "2024-05-01T10:15:30Z",
      "2024-05-01T10:15:30.123+02:00",
      "2024-02-29T23:59:60-05:30",
      "0001-01-01t00:00:00z"
    ]) {
      expect(Schema.decodeUnknownSync(DateTime.DateTime)(ok)).toBe(ok)
    }
    for (const bad of [
      "2024-05-01",
      "2024-05-01 10:15:30Z",
      "2024-02-30T10:00:00Z",
      "2024-05-01T24:00:00Z",
      "2024-05-01T10:15:30"
    ]) {
      expect(Result.isFailure(DateTime.parse(bad))).toBe(true)
    }
    const S = Schema.Struct({ creationDateTime: DateTime.DateTime })
    const r = Schema.decodeUnknownResult(S)({ creationDateTime: "yesterday" })
    expect(Result.isFailure(r) && r.failure.message).toMatch(/RFC 3339[\s\S]*creationDateTime/)
  })

  it("incoming date-times are read tolerantly", () => {
    for (const ok of ["2024-05-01 10:15:30", "2024-05-01T10:15", "2024-05-01T10:15:30+0200"]) {
      expect(Schema.decodeUnknownSync(DateTime.Incoming)(ok)).toBe(ok)
    }
    expect(DateTime.toEpochMillis(Schema.decodeUnknownSync(DateTime.Incoming)("1970-01-01 01:00"))).toBe(3_600_000)
  })

  it("converts to and from epoch milliseconds without Date", () => {
    expect(DateTime.fromEpochMillis(0)).toBe("1970-01-01T00:00:00Z")
    expect(DateTime.fromEpochMillis(1_714_558_530_123)).toBe("2024-05-01T10:15:30.123Z")
    expect(DateTime.fromEpochMillis(1_714_558_530_000, 120)).toBe("2024-05-01T12:15:30+02:00")
    expect(DateTime.toEpochMillis(DateTime.parseUnsafe("2024-05-01T12:15:30+02:00"))).toBe(1_714_558_530_000)
    expect(DateTime.localDate(DateTime.parseUnsafe("2024-05-01T23:30:00-02:00"))).toBe(
      LocalDate.parseUnsafe("2024-05-01")
    )
  })

  it("agrees with Date over years 0001–9999 and round-trips (property)", () => {
    const min = LocalDate.MIN * 86_400_000
    const max = (LocalDate.MAX + 1) * 86_400_000 - 1
    fc.assert(
      fc.property(fc.integer({ min, max }), fc.integer({ min: -23 * 60, max: 23 * 60 }), (ms, offset) => {
        const text = DateTime.fromEpochMillis(ms)
        expect(text).toBe(
          new Date(ms)
            .toISOString()
            .replace(".000Z", "Z")
            .replace(/^\+0*(\d{4})/, "$1")
        )
        expect(DateTime.toEpochMillis(Schema.decodeUnknownSync(DateTime.DateTime)(text))).toBe(ms)
        const shifted = DateTime.fromEpochMillis(ms, offset)
        if (Result.isSuccess(DateTime.parse(shifted))) expect(DateTime.toEpochMillis(shifted)).toBe(ms)
      }),
      { numRuns: 5_000 }
    )
  })
})
