import { Decoded, Translation } from "@tppkit/core"
import { describe, expect, it } from "vitest"

describe("Translation.describe: a loss as one sentence (field, from, to, why)", () => {
  it("names the model's fields and values in words, a standard's own field as written", () => {
    expect(
      Translation.describe({
        field: "missing",
        from: "not defined",
        to: "clamp",
        why: "Berlin Group does not say when day 30 is paid in a month without it"
      })
    ).toBe(
      "A day a short month lacks (missing) changes from not defined by the standard to paid on the month's last day, because Berlin Group does not say when day 30 is paid in a month without it."
    )
    expect(
      Translation.describe({
        field: "convention",
        from: "following",
        to: "none",
        why: "RRULE has no business-day convention"
      })
    ).toBe(
      "The business-day convention (convention) changes from following to never moved, because RRULE has no business-day convention."
    )
    expect(
      Translation.describe({ field: "intervalDue", from: "15", to: "not defined", why: "COBS does not say." })
    ).toBe("intervalDue changes from 15 to not defined by the standard, because COBS does not say.")
  })
})

describe("Decoded.describe: a tolerance as one sentence", () => {
  it("says what was received, how it was read and why", () => {
    expect(
      Decoded.describe({
        field: "dayOfExecution",
        received: "01",
        read: "1",
        why: "dayOfExecution is text without leading zeroes"
      })
    ).toBe('dayOfExecution "01" is read as "1", because dayOfExecution is text without leading zeroes.')
    expect(
      Decoded.describe({
        field: "NextPaymentDateTime",
        received: "0000-01-01T00:00:00Z",
        read: "absent",
        why: "it is no calendar date (year 0)"
      })
    ).toBe('NextPaymentDateTime "0000-01-01T00:00:00Z" is read as absent, because it is no calendar date (year 0).')
    expect(
      Decoded.describe({
        field: "withinAMonthFlag",
        received: "true",
        read: "true",
        why: "withinAMonthFlag is a boolean"
      })
    ).toBe('withinAMonthFlag "true" is read as given, although withinAMonthFlag is a boolean.')
  })
})

describe("Translation.andThen, addLoss: losses kept in order", () => {
  const loss = (field: string) => ({ field, from: "a", to: "b", why: "c" })
  const lossy = <A>(value: A, ...fields: Array<string>) => Translation.withLosses(value, fields.map(loss))
  it("a translation of a translated value has the first's losses before its own", () => {
    const fields = (t: Translation.Translation<unknown>) => (t._tag === "Lossy" ? t.losses.map((l) => l.field) : t._tag)
    expect(Translation.andThen(Translation.exact(1), (n) => Translation.exact(n + 1))).toEqual(Translation.exact(2))
    expect(fields(Translation.andThen(lossy(1, "x"), (n) => lossy(n + 1, "y")))).toEqual(["x", "y"])
    expect(Translation.andThen(lossy(1, "x"), (n) => Translation.exact(n + 1))).toEqual(lossy(2, "x"))
    expect(Translation.andThen(Translation.exact(1), (n) => lossy(n, "y"))).toEqual(lossy(1, "y"))
    // unrepresentable on either side stays so; f is not called on an unrepresentable value
    const never = Translation.unrepresentable<number>("no")
    expect(
      Translation.andThen(never, () => {
        throw new Error("called")
      })
    ).toEqual(never)
    expect(Translation.andThen(lossy(1, "x"), () => never)).toEqual(never)
  })
  it("one more loss makes an exact translation lossy and follows a lossy one's", () => {
    expect(Translation.addLoss(Translation.exact(1), undefined)).toEqual(Translation.exact(1))
    expect(Translation.addLoss(Translation.exact(1), loss("x"))).toEqual(lossy(1, "x"))
    expect(Translation.addLoss(lossy(1, "x"), loss("y"))).toEqual(lossy(1, "x", "y"))
    expect(Translation.addLoss(Translation.unrepresentable("no"), loss("x"))).toEqual(Translation.unrepresentable("no"))
  })
})
