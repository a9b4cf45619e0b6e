/**
 * Every pair of standards: a recurrence translated exactly into one standard, read back, and translated exactly into
 * another projects the same dates as the recurrence itself (internal/standards.ts is what the translators share).
 */
import {
  Actual,
  BerlinGroup,
  Cobs,
  Iso20022,
  type Recurrence,
  Rrule,
  Sbas,
  Translation,
  UkOpenBanking,
  Ynab
} from "@tppkit/core"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as RArb from "../arbitraries/recurrence.ts"
import { projected } from "../arbitraries/standards.ts"

/** What a reader of a standard that leaves them to the bank supplies: the convention and the calendar. */
const settings = (r: Recurrence.Recurrence) => ({ convention: r.convention, calendar: r.calendar })

/** A translator's exact round trip: the recurrence as the standard reads it back, or undefined when not exact. */
type RoundTrip = (r: Recurrence.Recurrence) => Recurrence.Recurrence | undefined

const exactly = <A>(t: Translation.Translation<A>, back: (a: A) => Translation.Translation<Recurrence.Recurrence>) =>
  t._tag === "Exact" ? Translation.getValue(back(t.value)) : undefined

const translators: ReadonlyArray<readonly [string, RoundTrip]> = [
  [
    "sbas",
    (r) =>
      exactly(Sbas.encode(r), (o) =>
        Sbas.decode(
          { frequency: o.frequency, startDate: o.startDate, endDate: o.endDate },
          { convention: o.convention, calendar: o.calendar }
        )
      )
  ],
  ["rrule", (r) => exactly(Rrule.encode(r), Rrule.decode)],
  ["uk-v3", (r) => exactly(UkOpenBanking.encodeV3(r), (v) => UkOpenBanking.decodeV3(v, settings(r)).translation)],
  ["uk-v4", (r) => exactly(UkOpenBanking.encodeV4(r), (v) => UkOpenBanking.decodeV4(v, settings(r)).translation)],
  [
    "berlin-group",
    (r) => exactly(BerlinGroup.encode(r), (v) => BerlinGroup.decode(v, { calendar: r.calendar }).translation)
  ],
  ["iso20022", (r) => exactly(Iso20022.encode(r), (v) => Iso20022.decode(v, settings(r)).translation)],
  [
    "iso20022-ef7",
    (r) => exactly(Iso20022.encode(r, "EventFrequency7"), (v) => Iso20022.decode(v, settings(r)).translation)
  ],
  ["cobs", (r) => exactly(Cobs.encode(r), (v) => Cobs.decode(v, settings(r)).translation)],
  ["ynab", (r) => exactly(Ynab.encode(r), (v) => Ynab.decode(v).translation)],
  ["actual", (r) => exactly(Actual.encode(r), (v) => Actual.decode(v).translation)]
]

/** Any recurrence, and often a plain one (no end, count or pauses; never moved or on weekends) that many can say. */
const orders = fc.oneof(
  RArb.recurrence,
  RArb.recurrence.map((r): Recurrence.Recurrence => ({ rule: r.rule, start: r.start, convention: "none" })),
  RArb.recurrence.map(
    (r): Recurrence.Recurrence => ({ rule: r.rule, start: r.start, convention: r.convention, calendar: "weekends" })
  )
)

describe("translations between standards", () => {
  it("exact through A and then B projects the same dates as the recurrence, for every pair (400 runs)", () => {
    const pairs = new Set<string>()
    fc.assert(
      fc.property(orders, (r) => {
        const want = projected(r, 400)
        for (const [a, viaA] of translators) {
          const x = viaA(r)
          if (x === undefined) continue
          expect(projected(x, 400), a).toEqual(want)
          for (const [b, viaB] of translators) {
            const y = viaB(x)
            if (y === undefined) continue
            pairs.add(`${a}>${b}`)
            expect(projected(y, 400), `${a} then ${b}`).toEqual(want)
          }
        }
      }),
      { numRuns: 400 }
    )
    // most pairs meet some recurrence both say exactly
    expect(pairs.size).toBeGreaterThan(60)
  })
})
