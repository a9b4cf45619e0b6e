/**
 * Golden tables of the standards' decoders (issue 23): one row per published code value or pattern form, and per bad
 * string real banks sent, with what tppkit reads it as — the verdict, the first nominal dates (counted by hand from
 * the calendar), the convention, and the exact warnings (field, read) and losses (field, from, to), or the reason.
 */
import { type Decoded, LocalDate, Occurrence, type Recurrence, Translation } from "@tppkit/core"
import { Result } from "effect"
import { expect, it } from "vitest"

/** One published input and what it reads as. */
export interface Row {
  /** What the row is: the code or form, or the bank that sent it. */
  readonly name: string
  readonly record: unknown
  readonly verdict: "exact" | "lossy" | "unrepresentable"
  /** The first nominal dates (as many as given). */
  readonly dates?: ReadonlyArray<string>
  /** The first execution dates, where the convention is the point (as many as given). */
  readonly executions?: ReadonlyArray<string>
  readonly convention?: Recurrence.Recurrence["convention"]
  readonly end?: string
  readonly count?: number
  /** Each tolerance as [field, read] (none when absent). */
  readonly warnings?: ReadonlyArray<readonly [string, string]>
  /** Each loss as [field, from, to] (none when absent). */
  readonly losses?: ReadonlyArray<readonly [string, string, string]>
  /** The reason of an unrepresentable record, exactly. */
  readonly reason?: string
}

const firstOf = (r: Recurrence.Recurrence, n: number) => {
  const plan = Result.getOrThrow(Occurrence.planOf(r))
  const nominal: Array<string> = []
  const execution: Array<string> = []
  for (const o of Occurrence.iterate(plan)) {
    if (nominal.length >= n) break
    nominal.push(LocalDate.format(o.nominal))
    execution.push(LocalDate.format(o.execution))
  }
  return { nominal, execution }
}

/** One `it` per row: `decode` applied to the row's record gives exactly what the row says. */
export const table = (
  decode: (record: unknown) => Decoded.Decoded<Recurrence.Recurrence>,
  rows: ReadonlyArray<Row>
) => {
  for (const row of rows) {
    it(row.name, () => {
      const d = decode(row.record)
      const t = d.translation
      expect(Translation.verdict(t)).toBe(row.verdict)
      expect(d.warnings.map((w) => [w.field, w.read])).toEqual(row.warnings ?? [])
      expect(t._tag === "Lossy" ? t.losses.map((l) => [l.field, l.from, l.to]) : []).toEqual(row.losses ?? [])
      if (t._tag === "Unrepresentable") {
        expect(t.reason).toBe(row.reason)
        return
      }
      const r = t.value
      if (row.convention !== undefined) expect(r.convention).toBe(row.convention)
      expect(r.end === undefined ? undefined : LocalDate.format(r.end)).toBe(row.end)
      expect(r.count).toBe(row.count)
      if (row.dates !== undefined) expect(firstOf(r, row.dates.length).nominal).toEqual(row.dates)
      if (row.executions !== undefined) expect(firstOf(r, row.executions.length).execution).toEqual(row.executions)
    })
  }
}
