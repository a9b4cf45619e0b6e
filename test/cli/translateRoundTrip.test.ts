/**
 * `tppkit translate --to T` reads back (issue 33): for RRULE and the bank's codes, the records it writes, with payer and
 * payee added, are read by `tppkit project` as the same payments wherever the translation was exact (the other
 * targets write whole lists, read back by test/cli/records.test.ts). Orders of random
 * recurrences (every rule shape, ends, counts, pauses) are given as RRULEs, translated under a random convention,
 * and both files projected under it.
 */
import { type BusinessDayConvention, Frequency, LocalDate, Recurrence, Standard } from "@tppkit/core"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { rule } from "../arbitraries/recurrence.ts"
import { run } from "./inProcess.ts"
import { tempFolder } from "./tempFiles.ts"

const { file } = tempFolder("tppkit-roundtrip")
let files = 0
const write = (content: unknown): string => file(`orders-${files++}.json`, content)

const d = LocalDate.parseUnsafe
const parties = (i: number) => ({
  debtor: { name: "Payer", iban: "SK3112000000198742637541" },
  creditor: { name: `Payee ${i}`, iban: "CZ6508000000192000145399" },
  instructedAmount: { value: 10 + i, currency: "EUR" }
})

const rare = <A>(a: fc.Arbitrary<A>): fc.Arbitrary<A | undefined> =>
  fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: a })

/**
 * A recurrence starting in 2026 (a bank code's rule half the time, any rule else), now and then with an end within
 * about four years, a count or paused months; without a calendar name.
 */
const recurrence: fc.Arbitrary<Omit<Recurrence.Recurrence, "convention">> = fc
  .record({
    start: fc.integer({ min: d("2026-01-01"), max: d("2026-12-31") }),
    code: fc.option(fc.constantFrom(...Frequency.codes), { nil: undefined }),
    rule,
    endOffset: rare(fc.integer({ min: 0, max: 1500 })),
    count: rare(fc.integer({ min: 1, max: 60 })),
    months: rare(fc.uniqueArray(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 2 }))
  })
  .map((x) => ({
    rule: x.code === undefined ? x.rule : Recurrence.ruleOfCode(x.code, x.start as LocalDate.LocalDate),
    start: x.start as LocalDate.LocalDate,
    ...(x.endOffset === undefined ? {} : { end: (x.start + x.endOffset) as LocalDate.LocalDate }),
    ...(x.count === undefined ? {} : { count: x.count }),
    ...(x.months === undefined ? {} : { pauses: { ranges: [], months: [...x.months].sort((a, b) => a - b) } })
  }))

const window = ["--from", "2026-01-01", "--to", "2030-12-31"]

interface Row {
  readonly orderId: string
  readonly result: string
  readonly translation?: unknown
}

/** The fields of a translation's record, as a reader takes them: an RRULE's text, the bank's line, or the JSON. */
const fieldsOf = (to: Standard.Standard, translation: unknown): Record<string, unknown> => {
  if (to === "rrule") return { rrule: translation }
  if (to === "sbas") {
    // "frequency MNTH, startDate 2026-01-31, endDate 2027-01-31, convention following"
    const fields = Object.fromEntries(
      String(translation)
        .split(", ")
        .map((part) => part.split(" ") as [string, string])
    )
    return { frequency: fields.frequency, startDate: fields.startDate, endDate: fields.endDate }
  }
  return translation as Record<string, unknown>
}

const payments = async (file: string, convention: string) => {
  const r = await run(["project", "--orders", file, ...window, "--convention", convention, "--format", "json"])
  expect(r.code, r.stderr).toBe(0)
  return (JSON.parse(r.stdout) as { payments: Array<{ orderId: string; nominalDate: string; executionDate: string }> })
    .payments
}

describe("translate --to T reads back", () => {
  // the other standards' targets write one whole list of the target (SourceRecord.write), read back by
  // test/cli/records.test.ts's property; here the targets that write one record per order
  for (const to of ["rrule", "sbas"] as const) {
    it(`${to}: the exact translations, with payer and payee, project the same payments`, async () => {
      let exact = 0
      await fc.assert(
        fc.asyncProperty(
          fc.array(recurrence, { minLength: 1, maxLength: 6 }),
          fc.constantFrom<BusinessDayConvention.BusinessDayConvention>("following", "preceding", "none"),
          async (recurrences, convention) => {
            // the source: each recurrence an RRULE can say exactly, moved by --convention as the bank's codes are
            const source = recurrences.flatMap((r, i) => {
              const t = Standard.encode({ ...r, convention: "none" }, "rrule")
              return t._tag === "Exact" ? [{ orderId: `O${i}`, ...parties(i), ...t.value }] : []
            })
            if (source.length === 0) return
            const sourceFile = write(source)
            const translated = await run([
              "translate",
              "--orders",
              sourceFile,
              "--to",
              to,
              "--convention",
              convention,
              "--format",
              "json"
            ])
            const rows = translated.stdout
              .trim()
              .split("\n")
              .filter((l) => l.length > 0)
              .map((l) => JSON.parse(l) as Row)
            const exactRows = rows.filter((r) => r.result === "exact")
            if (exactRows.length === 0) return
            exact += exactRows.length
            const ids = new Set(exactRows.map((r) => r.orderId))
            const back = exactRows.map((r) => ({
              orderId: r.orderId,
              ...parties(Number(r.orderId.slice(1))),
              ...fieldsOf(to, r.translation)
            }))
            const readBack = await run(["translate", "--orders", write(back), "--to", "rrule", "--format", "json"])
            // every record written reads back (a decoder may still call a day 29–31 lossy that every month the rule
            // reaches has: issue 34, "Losses over the rule")
            expect(readBack.code, readBack.stderr).not.toBe(7)
            expect(readBack.stderr, JSON.stringify(back)).not.toContain("tolerated")
            const want = (await payments(sourceFile, convention)).filter((p) => ids.has(p.orderId))
            const got = await payments(write(back), convention)
            expect(got, JSON.stringify(back)).toEqual(want)
          }
        ),
        { numRuns: 12 }
      )
      expect(exact, to).toBeGreaterThan(0)
    })
  }
})
