import { LocalDate, Timestamp } from "@tppkit/core"
import { Result, Schema } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"

describe("Timestamp", () => {
  it("accepts RFC 3339 date-times and keeps the text", () => {
    for (const ok of [
      "2024-05-01T10:15:30Z",
      "2024-05-01T10:15:30.123+02:00",
      "2024-02-29T23:59:60-05:30",
      "0001-01-01t00:00:00z"
    ]) {
      expect(Schema.decodeUnknownSync(Timestamp.Timestamp)(ok)).toBe(ok)
    }
    for (const bad of [
      "2024-05-01",
      "2024-05-01 10:15:30Z",
      "2024-02-30T10:00:00Z",
      "2024-05-01T24:00:00Z",
      "2024-05-01T10:15:30"
    ]) {
      expect(Result.isFailure(Timestamp.parse(bad))).toBe(true)
    }
    const S = Schema.Struct({ creationDateTime: Timestamp.Timestamp })
    const r = Schema.decodeUnknownResult(S)({ creationDateTime: "yesterday" })
    expect(Result.isFailure(r) && r.failure.message).toMatch(/RFC 3339[\s\S]*creationDateTime/)
  })

  it("incoming date-times are read tolerantly", () => {
    for (const ok of ["2024-05-01 10:15:30", "2024-05-01T10:15", "2024-05-01T10:15:30+0200"]) {
      expect(Schema.decodeUnknownSync(Timestamp.Incoming)(ok)).toBe(ok)
    }
    expect(Timestamp.toEpochMillis(Schema.decodeUnknownSync(Timestamp.Incoming)("1970-01-01 01:00"))).toBe(3_600_000)
  })

  it("converts to and from epoch milliseconds without Date", () => {
    expect(Timestamp.fromEpochMillis(0)).toBe("1970-01-01T00:00:00Z")
    expect(Timestamp.fromEpochMillis(1_714_558_530_123)).toBe("2024-05-01T10:15:30.123Z")
    expect(Timestamp.fromEpochMillis(1_714_558_530_000, 120)).toBe("2024-05-01T12:15:30+02:00")
    expect(Timestamp.toEpochMillis(Timestamp.parseUnsafe("2024-05-01T12:15:30+02:00"))).toBe(1_714_558_530_000)
    expect(Timestamp.localDate(Timestamp.parseUnsafe("2024-05-01T23:30:00-02:00"))).toBe(
      LocalDate.parseUnsafe("2024-05-01")
    )
  })

  it("agrees with Date over years 0001–9999 and round-trips (property)", () => {
    const min = LocalDate.MIN * 86_400_000
    const max = (LocalDate.MAX + 1) * 86_400_000 - 1
    fc.assert(
      fc.property(fc.integer({ min, max }), fc.integer({ min: -23 * 60, max: 23 * 60 }), (ms, offset) => {
        const text = Timestamp.fromEpochMillis(ms)
        expect(text).toBe(
          new Date(ms)
            .toISOString()
            .replace(".000Z", "Z")
            .replace(/^\+0*(\d{4})/, "$1")
        )
        expect(Timestamp.toEpochMillis(Schema.decodeUnknownSync(Timestamp.Timestamp)(text))).toBe(ms)
        const shifted = Timestamp.fromEpochMillis(ms, offset)
        if (Result.isSuccess(Timestamp.parse(shifted))) expect(Timestamp.toEpochMillis(shifted)).toBe(ms)
      }),
      { numRuns: 5_000 }
    )
  })
})
