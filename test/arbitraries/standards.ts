/**
 * What the standards' translator tests share: a recurrence's projected dates (nominal and execution) and the laws
 * every encoder obeys: an exact translation read back projects the same dates; a lossy one projects what the
 * recurrence with the named changes projects, and each named change alone changes some date.
 */
import { type Decoded, LocalDate, Occurrence, type Recurrence, Translation } from "@tppkit/core"
import { Result } from "effect"
import fc from "fast-check"
import { expect, it } from "vitest"

/** Nominal>execution dates of the first `n` occurrences (as many as the translators compare). */
export const projected = (r: Recurrence.Recurrence, n = 4800): Array<string> => {
  const plan = Result.getOrThrow(Occurrence.planOf(r))
  const out: Array<string> = []
  for (const o of Occurrence.iterate(plan)) {
    if (out.length >= n) break
    out.push(`${LocalDate.format(o.nominal)}>${LocalDate.format(o.execution)}`)
  }
  return out
}

/** The recurrence with one named change applied the way the target's decoder reads it back. */
export type Apply = (r: Recurrence.Recurrence, loss: Translation.Loss) => Recurrence.Recurrence

/** Changes every standard names alike: pauses dropped, the convention, the missing-day rule clamp, a later start. */
export const applyCommon: Apply = (r, loss) => {
  switch (loss.field) {
    case "pauses": {
      const { pauses: _, ...rest } = r
      return rest
    }
    case "convention":
      return { ...r, convention: loss.to === "none" ? "none" : (loss.to as Recurrence.Recurrence["convention"]) }
    case "end": {
      const { end: _e, count: _c, ...rest } = r
      return rest
    }
    case "calendar":
      return { ...r, calendar: loss.to }
    case "interval":
    case "frequency":
      // the target's silence on a rule it keeps (COBS DAILY, Berlin Group Daily on non-banking days): tppkit reads it
      // the same way
      return r
    case "start":
      return { ...r, start: LocalDate.parseUnsafe(loss.to) }
    case "missing":
      return r.rule._tag === "MonthlyOnDay" || r.rule._tag === "Yearly"
        ? { ...r, rule: { ...r.rule, missing: "clamp" } }
        : r
    default:
      throw new Error(`unexpected loss field ${loss.field}`)
  }
}

/**
 * The laws for one recurrence and its translation read back (`back`, undefined when unrepresentable): exact
 * projects the same; lossy projects the recurrence with every named change, and each change is needed (but a
 * change to "not defined", where the target is silent and tppkit's reading may agree).
 */
export const checkLaws = (
  r: Recurrence.Recurrence,
  t: Translation.Translation<unknown>,
  back: Recurrence.Recurrence | undefined,
  apply: Apply = applyCommon
): void => {
  if (t._tag === "Unrepresentable") {
    expect(t.reason.length).toBeGreaterThan(0)
    return
  }
  expect(back).toBeDefined()
  if (t._tag === "Exact") {
    expect(projected(back!)).toEqual(projected(r))
    return
  }
  const changed = t.losses.reduce(apply, r)
  expect(projected(back!)).toEqual(projected(changed))
  // every named change is needed: without it (the others applied) some date differs from what the target says;
  // a change the target makes by its silence ("not defined") may agree with tppkit's reading of it
  t.losses.forEach((loss, i) => {
    if (loss.to === "not defined") return
    const others = t.losses.filter((_, j) => j !== i).reduce(apply, r)
    expect(projected(others)).not.toEqual(projected(changed))
  })
}

/**
 * `checkLaws` over `numRuns` generated recurrences, each translated by `encode` and read back by `back`; every
 * verdict (exact, lossy, unrepresentable) must show up more than `atLeast` times, so that each law is exercised.
 */
export const checkLawsOver = <A>(
  recurrences: fc.Arbitrary<Recurrence.Recurrence>,
  encode: (r: Recurrence.Recurrence) => Translation.Translation<A>,
  back: (r: Recurrence.Recurrence, t: Translation.Translation<A>) => Recurrence.Recurrence | undefined,
  options: { readonly numRuns: number; readonly atLeast: number }
): void => {
  const seen = { Exact: 0, Lossy: 0, Unrepresentable: 0 }
  fc.assert(
    fc.property(recurrences, (r) => {
      const t = encode(r)
      seen[t._tag]++
      checkLaws(r, t, back(r, t))
    }),
    { numRuns: options.numRuns }
  )
  expect(Math.min(seen.Exact, seen.Lossy, seen.Unrepresentable)).toBeGreaterThan(options.atLeast)
}

/**
 * The laws' test of one encoder, named as every translator's test names it: `checkLawsOver` the recurrences, each
 * encoded and its value (none when unrepresentable) read back by `decode`, told the recurrence's convention (which
 * the target may not write; a decoder that takes no options, or is not to be told, leaves it). `prefix` starts the
 * name (a code set's, where one encoder writes several).
 */
export const itKeepsTheLaws = <A>(
  recurrences: fc.Arbitrary<Recurrence.Recurrence>,
  encode: (r: Recurrence.Recurrence) => Translation.Translation<A>,
  decode: (
    record: A,
    options: { readonly convention: Recurrence.Recurrence["convention"] }
  ) => Decoded.Decoded<Recurrence.Recurrence>,
  options: { readonly numRuns: number; readonly atLeast: number; readonly prefix?: string }
): void => {
  const runs = options.numRuns.toLocaleString("en-US")
  const name = `exact projects the same dates; lossy names exactly the fields whose dates differ (${runs} runs)`
  it(`${options.prefix ?? ""}${name}`, () =>
    checkLawsOver(
      recurrences,
      encode,
      (r, t) => {
        const v = Translation.getValue(t)
        return v === undefined ? undefined : Translation.getValue(decode(v, { convention: r.convention }).translation)
      },
      options
    ))
}

/**
 * A translation's value read back by `decode` is the recurrence `x` again, started on its first occurrence, and
 * projects the same first 400 dates (decode(encode(x)) = x).
 */
export const expectReadsBack = <A>(
  t: Translation.Translation<A>,
  decode: (record: A) => Decoded.Decoded<Recurrence.Recurrence>,
  x: Recurrence.Recurrence
): void => {
  const again = Translation.getValue(decode(Translation.getValue(t)!).translation)!
  expect(again).toEqual({ ...x, start: again.start })
  expect(projected(again, 400)).toEqual(projected(x, 400))
}
