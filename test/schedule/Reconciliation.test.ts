import { BankRule, type BusinessDayConvention, Calendar, type Frequency, LocalDate, Recurrence } from "@tppkit/core"
import { Reconciliation } from "@tppkit/schedule"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { date, frequency, refOccurrences } from "../arbitraries/engine.ts"
import { recurrence, refRecurrence } from "../arbitraries/recurrence.ts"

const d = LocalDate.parseUnsafe
const [target, weekends, sk, cz] = Reconciliation.candidateCalendars() as [
  Calendar.Calendar,
  Calendar.Calendar,
  Calendar.Calendar,
  Calendar.Calendar
]

interface Order {
  readonly orderId: string
  readonly frequency: Frequency.Frequency
  readonly startDate: LocalDate.LocalDate
  readonly endDate?: LocalDate.LocalDate
  readonly nextDate?: LocalDate.LocalDate
}

/**
 * The date a bank with `rule` lists on `asOf`, straight from the reference of the schedule rules (day by day, shares
 * nothing with the engine): on every day DAIL pays each day and nothing moves; nominal dates are not moved.
 */
const refListed = (order: Order, rule: BankRule.BankRule, asOf: number): number | undefined => {
  const every = rule.calendar === BankRule.everyDay
  const cal = every ? Calendar.weekends : (rule.calendar as Calendar.Calendar)
  const conv: BusinessDayConvention.BusinessDayConvention =
    every || rule.reports === "nominal" ? "none" : rule.convention
  const shape = every && order.frequency === "DAIL" ? { ...order, frequency: "DAI7" as const } : order
  return refOccurrences(shape, cal, conv, asOf + 400).find((o) => o.execution >= asOf)?.execution
}

/** Any candidate rule, including ones listing nominal dates and equivalent spellings. */
const rule: fc.Arbitrary<BankRule.BankRule> = fc.record({
  convention: fc.constantFrom("following", "preceding", "modified-following", "modified-preceding", "none"),
  calendar: fc.constantFrom<BankRule.CalendarChoice>(target, weekends, sk, cz, BankRule.everyDay),
  reports: fc.constantFrom("execution", "nominal")
})

/** Orders starting 2018–2027 (some ending), a listing day 2024–2027, and for each a coin for the due-day ambiguity. */
const listing = fc.record({
  asOf: date(d("2024-01-01"), d("2027-12-31")),
  orders: fc.array(
    fc.record({
      frequency,
      startDate: date(d("2018-01-01"), d("2027-12-31")),
      end: fc.option(fc.integer({ min: 0, max: 3000 }), { nil: undefined }),
      advanced: fc.boolean()
    }),
    { minLength: 1, maxLength: 40 }
  )
})

/** The listing a bank with `rule` makes: orders that have ended carry no nextDate. */
const listed = (
  rule: BankRule.BankRule,
  input: {
    asOf: LocalDate.LocalDate
    orders: ReadonlyArray<{
      frequency: Frequency.Frequency
      startDate: LocalDate.LocalDate
      end: number | undefined
      advanced: boolean
    }>
  }
): Array<Order> =>
  input.orders.map((o, i) => {
    const base: Order = {
      orderId: `SO-${i}`,
      frequency: o.frequency,
      startDate: o.startDate,
      ...(o.end === undefined ? {} : { endDate: (o.startDate + o.end) as LocalDate.LocalDate })
    }
    let next = refListed(base, rule, input.asOf)
    // the bank may already have made a payment due on the listing day and advanced nextDate
    if (next === input.asOf && o.advanced) next = refListed(base, rule, input.asOf + 1)
    return next === undefined ? base : { ...base, nextDate: next as LocalDate.LocalDate }
  })

const mnth = (startDate: string, nextDate: string, extra: Partial<Order> = {}): Order => ({
  orderId: `SO-${nextDate}`,
  frequency: "MNTH",
  startDate: d(startDate),
  nextDate: d(nextDate),
  ...extra
})

describe("Reconciliation.reconcile: one order, each class", () => {
  // MNTH from 2024-01-31 on target: 31 March 2024 is a Sunday, 29 March Good Friday, 1 April Easter Monday
  const asOf = d("2024-03-25")
  const one = (order: Order) => Reconciliation.reconcile([order], { asOf }).observations[0]!

  it("match: the engine's date (following · target)", () => {
    const o = one(mnth("2024-01-31", "2024-04-02"))
    expect(o.status).toBe("match")
    expect(LocalDate.format(o.expected!)).toBe("2024-04-02")
  })
  it("explained: preceding on a calendar with Good Friday gives Thursday 28 March", () => {
    const r = Reconciliation.reconcile([mnth("2024-01-31", "2024-03-28")], { asOf })
    expect(r.observations[0]!.status).toBe("explained")
    const names = Reconciliation.explainedBy(r, r.observations[0]!).map(BankRule.describe)
    expect(names).toContain("preceding · target")
    expect(names).toContain("modified-preceding · SK")
    expect(names).not.toContain("preceding · weekends") // Friday 29th there
  })
  it("explained: the nominal date is convention none, or a bank paying every day", () => {
    const r = Reconciliation.reconcile([mnth("2024-01-31", "2024-03-31")], { asOf })
    const names = Reconciliation.explainedBy(r, r.observations[0]!).map(BankRule.describe)
    expect(names).toEqual(expect.arrayContaining(["none · target", "every day"]))
  })
  it("stale: before the listing day", () => {
    expect(one(mnth("2024-01-31", "2024-02-29")).status).toBe("stale")
  })
  it("anomaly: a day of month the order never falls on", () => {
    expect(one(mnth("2024-01-31", "2024-04-15")).status).toBe("anomaly")
  })
  it("unexplained: a date of the order, but not the next one", () => {
    expect(one(mnth("2024-01-31", "2024-04-30")).status).toBe("unexplained")
  })
  it("a payment due on the listing day: the listing day or the next date, never a mismatch", () => {
    const friday = d("2024-03-15")
    const order = { orderId: "A", frequency: "MNTH" as const, startDate: d("2024-01-15") }
    for (const next of ["2024-03-15", "2024-04-15"]) {
      const o = Reconciliation.reconcile([{ ...order, nextDate: d(next) }], { asOf: friday }).observations[0]!
      expect(o.status).toBe("match")
      expect(o.dueOnListingDay).toBe(true)
    }
  })
  it("a preceding bank may pay the first payment before startDate: explained; further before: anomaly", () => {
    // startDate Saturday 1 June 2024: preceding pays Friday 31 May
    const start = { startDate: "2024-06-01" }
    expect(one(mnth(start.startDate, "2024-05-31")).status).toBe("explained")
    expect(one(mnth(start.startDate, "2024-05-27")).status).toBe("anomaly")
  })
  it("a following bank may pay the last payment after endDate: explained; further after: anomaly", () => {
    // endDate 31 August 2024, a Saturday: the last payment is Monday 2 September
    const end = { endDate: d("2024-08-31") }
    const at = d("2024-08-20")
    const o = (next: string) =>
      Reconciliation.reconcile([mnth("2024-01-31", next, end)], {
        asOf: at,
        rule: BankRule.make({ convention: "preceding" })
      }).observations[0]!.status
    expect(o("2024-09-02")).toBe("explained")
    expect(o("2024-09-20")).toBe("anomaly")
  })
  it("counts the explained observations by the one rule named for each, most first", () => {
    // preceding moves two payments back to Thursday 28 March (past Good Friday 29 and the weekend), one is paid on
    // its nominal Sunday, one matches
    const r = Reconciliation.reconcile(
      [
        mnth("2024-01-31", "2024-03-28"),
        mnth("2024-01-29", "2024-03-28", { orderId: "SO-29" }),
        mnth("2024-01-31", "2024-03-31"),
        mnth("2024-01-31", "2024-04-02")
      ],
      { asOf }
    )
    expect(r.counts).toMatchObject({ match: 1, explained: 3 })
    const counts = Reconciliation.explainedByRule(r).map((e) => [BankRule.describe(e.rule), e.count])
    expect(counts.reduce((n, [, c]) => n + (c as number), 0)).toBe(3)
    expect(counts[0]).toEqual(["preceding · target", 2])
  })
  it("orders without nextDate are listed apart", () => {
    const r = Reconciliation.reconcile([{ orderId: "N", frequency: "MNTH", startDate: d("2024-01-01") }], { asOf })
    expect(r.withoutNextDate).toEqual(["N"])
    expect(r.observations).toEqual([])
    expect(r.inference._tag).toBe("NotEnoughEvidence")
  })
})

describe("Reconciliation: properties", () => {
  it("an order set listed under a rule R reconciles all-match when tppkit uses R", () => {
    fc.assert(
      fc.property(rule, listing, (R, input) => {
        const r = Reconciliation.reconcile(listed(R, input), { asOf: input.asOf, rule: R })
        expect(r.counts.match).toBe(r.observations.length)
        expect(Reconciliation.hasFindings(r)).toBe(false)
      }),
      { numRuns: 300 }
    )
  })

  it("inference recovers R exactly when the evidence separates the candidates, and never guesses", () => {
    fc.assert(
      fc.property(rule, listing, (R, input) => {
        const orders = listed(R, input)
        const r = Reconciliation.reconcile(orders, { asOf: input.asOf })
        // separated: every other candidate lists some order's date differently (reference dates, ambiguity aside)
        const listedOrders = orders.filter((o) => o.nextDate !== undefined)
        const differs = (c: BankRule.BankRule) =>
          listedOrders.some((o) => {
            const own = refListed(o, c, input.asOf)
            const alt = own === input.asOf ? refListed(o, c, input.asOf + 1) : undefined
            return own !== o.nextDate && alt !== o.nextDate
          })
        const separated = Reconciliation.candidates().every((c) => BankRule.equivalent(c, R) || differs(c))
        if (separated) {
          expect(r.inference._tag).toBe("Inferred")
          if (r.inference._tag === "Inferred") {
            expect(BankRule.key(r.inference.rule)).toBe(BankRule.key(R))
            expect(r.inference.support).toBe(r.evidence)
            expect(r.inference.notExplained).toEqual([])
          }
        } else {
          expect(r.inference._tag).toBe("NotEnoughEvidence")
          if (r.inference._tag === "NotEnoughEvidence") {
            expect(r.inference.tied.map(BankRule.key)).toContain(BankRule.key(R))
          }
        }
      }),
      { numRuns: 300 }
    )
  })

  it("inference recovers R among the conventions of one calendar (where the evidence separates them often)", () => {
    let recovered = 0
    fc.assert(
      fc.property(rule, listing, (R0, input) => {
        const calendar = R0.calendar === BankRule.everyDay ? weekends : R0.calendar
        const R = { ...R0, calendar }
        const candidates = (
          ["following", "preceding", "modified-following", "modified-preceding", "none"] as const
        ).map((convention) => BankRule.make({ convention, calendar }))
        const orders = listed(R, input)
        const r = Reconciliation.reconcile(orders, { asOf: input.asOf, rule: candidates[0]!, candidates })
        const differs = (c: BankRule.BankRule) =>
          orders.some((o) => {
            if (o.nextDate === undefined) return false
            const own = refListed(o, c, input.asOf)
            const alt = own === input.asOf ? refListed(o, c, input.asOf + 1) : undefined
            return own !== o.nextDate && alt !== o.nextDate
          })
        const separated = candidates.every((c) => BankRule.equivalent(c, R) || differs(c))
        expect(r.inference._tag).toBe(separated ? "Inferred" : "NotEnoughEvidence")
        if (r.inference._tag === "Inferred") {
          recovered++
          expect(BankRule.key(r.inference.rule)).toBe(BankRule.key(R))
        }
      }),
      { numRuns: 300 }
    )
    expect(recovered).toBeGreaterThan(30) // the separated case is exercised, not only the tie
  })

  it("injected anomalies are exactly the ones reported", () => {
    fc.assert(
      fc.property(rule, listing, fc.array(fc.integer({ min: 0, max: 39 }), { maxLength: 10 }), (R, input, picks) => {
        const orders = listed(R, input)
        const injected = new Set<string>()
        const tampered = orders.map((o, i) => {
          if (!picks.includes(i) || o.nextDate === undefined) return o
          const day = LocalDate.day(o.startDate)
          const monthly =
            o.frequency === "MNTH" || o.frequency === "QUTR" || o.frequency === "SEMI" || o.frequency === "YEAR"
          // ten days from a nominal date (days 11–18): further than any convention moves a date, not another nominal
          if (monthly && day >= 11 && day <= 18 && o.nextDate >= input.asOf) {
            const n = LocalDate.ofMonthClamped(LocalDate.year(o.nextDate), LocalDate.month(o.nextDate), day + 10)
            if (n >= input.asOf) {
              injected.add(o.orderId)
              return { ...o, nextDate: n }
            }
          }
          // three weeks after the end: no payment of any rule goes that far
          if (o.endDate !== undefined) {
            injected.add(o.orderId)
            return { ...o, nextDate: LocalDate.addDays(LocalDate.max(o.endDate, input.asOf), 21) }
          }
          return o
        })
        const r = Reconciliation.reconcile(tampered, { asOf: input.asOf, rule: R })
        const reported = r.observations.filter((o) => o.status === "anomaly").map((o) => o.orderId)
        expect(new Set(reported)).toEqual(injected)
        expect(r.counts.match).toBe(r.observations.length - injected.size)
      }),
      { numRuns: 300 }
    )
  })

  it("several listings add up their evidence", () => {
    const R = BankRule.make({ convention: "modified-preceding", calendar: cz })
    const days = ["2026-05-01", "2026-06-30", "2026-12-20"].map(d)
    const orders = Array.from({ length: 31 }, (_, i) => ({
      orderId: `M-${i}`,
      frequency: "MNTH" as const,
      startDate: LocalDate.addDays(d("2025-01-01"), i)
    }))
    const listings = days.map((asOf) => {
      const withNext = orders.map((o) => ({ ...o, nextDate: refListed(o, R, asOf) as LocalDate.LocalDate }))
      return Reconciliation.reconcile(withNext, { asOf })
    })
    const inferred = Reconciliation.infer(listings)
    expect(inferred._tag).toBe("Inferred")
    if (inferred._tag === "Inferred") {
      expect(BankRule.describe(inferred.rule)).toBe("modified-preceding · CZ")
      expect(inferred.evidence).toBe(93)
      expect(inferred.support).toBe(93)
    }
  })
})

describe("Reconciliation: orders given as recurrences", () => {
  /** An order given as a recurrence (an RRULE read by core's Orders: no bank code). */
  interface Given {
    readonly orderId: string
    readonly recurrence: Recurrence.Recurrence
    readonly nextDate?: LocalDate.LocalDate
    readonly ownConvention?: true
  }

  /**
   * The date a bank with `rule` lists for a recurrence on `asOf`, from the reference: the rule's convention moves it
   * (its own when `own`; nominal dates and every day move nothing), on every day every n-th working day is every
   * n-th day.
   */
  const memo = new WeakMap<Recurrence.Recurrence, Map<string, number | undefined>>()
  const refListedGiven = (r: Recurrence.Recurrence, own: boolean, rule: BankRule.BankRule, asOf: number) => {
    const every = rule.calendar === BankRule.everyDay
    const cal = every ? Calendar.everyDay : (rule.calendar as Calendar.Calendar)
    const ruled = every || rule.reports === "nominal" || rule.convention === "none" ? "none" : rule.convention
    const convention = own && ruled !== "none" ? r.convention : ruled
    // the reference's own inputs (calendar, convention, day) name its answer: computed once each
    let known = memo.get(r)
    if (known === undefined) {
      known = new Map()
      memo.set(r, known)
    }
    const key = `${cal.name}|${convention}|${asOf}`
    if (!known.has(key)) {
      known.set(key, refRecurrence({ ...r, convention }, cal, asOf + 800).find((o) => o.execution >= asOf)?.execution)
    }
    return known.get(key)
  }

  /** A recurrence moved (start, end, pauses) to start within about four years before the listing day. */
  const near = (r: Recurrence.Recurrence, start: number): Recurrence.Recurrence => {
    const by = (x: LocalDate.LocalDate) => (x + start - r.start) as LocalDate.LocalDate
    return {
      ...r,
      start: by(r.start),
      ...(r.end === undefined ? {} : { end: by(r.end) }),
      ...(r.pauses === undefined
        ? {}
        : { pauses: { ...r.pauses, ranges: r.pauses.ranges.map((x) => ({ from: by(x.from), to: by(x.to) })) } })
    }
  }

  const givenListing = fc
    .record({
      asOf: date(d("2024-01-01"), d("2027-12-31")),
      orders: fc.array(fc.record({ recurrence, own: fc.boolean(), back: fc.integer({ min: -60, max: 1500 }) }), {
        minLength: 1,
        maxLength: 12
      })
    })
    .map(({ asOf, orders }) => ({
      asOf,
      orders: orders.map((o) => ({ recurrence: near(o.recurrence, asOf - o.back), own: o.own }))
    }))

  const listedGiven = (R: BankRule.BankRule, input: typeof givenListing extends fc.Arbitrary<infer A> ? A : never) =>
    input.orders.map((o, i): Given => {
      const next = refListedGiven(o.recurrence, o.own, R, input.asOf)
      return {
        orderId: `R-${i}`,
        recurrence: o.recurrence,
        ...(o.own ? { ownConvention: true as const } : {}),
        ...(next === undefined ? {} : { nextDate: next as LocalDate.LocalDate })
      }
    })

  it("a listing of recurrences made under a rule R reconciles all-match under R, and each rule's bit is the reference's", () => {
    fc.assert(
      fc.property(rule, givenListing, (R, input) => {
        const orders = listedGiven(R, input)
        const r = Reconciliation.reconcile(orders, { asOf: input.asOf, rule: R })
        expect(r.skipped).toEqual([])
        for (const o of r.observations) {
          const order = orders.find((x) => x.orderId === o.orderId)!
          expect(o.frequency).toBeUndefined()
          expect(o.rule).toBe(Recurrence.describe(order.recurrence.rule))
          expect(o.status).toBe("match")
          r.rules.forEach((c, i) => {
            const listedUnder = refListedGiven(order.recurrence, order.ownConvention === true, c, input.asOf)
            const due = listedUnder === input.asOf
            const after = due
              ? refListedGiven(order.recurrence, order.ownConvention === true, c, input.asOf + 1)
              : undefined
            const explains = listedUnder === o.listed || after === o.listed
            expect(((o.explaining >>> i) & 1) === 1).toBe(explains)
          })
        }
      }),
      { numRuns: 100 }
    )
  }, 120_000)

  it("an RRULE every other Saturday listed on its Mondays: following matches, preceding is named a difference", () => {
    const r: Recurrence.Recurrence = {
      rule: { _tag: "Weekly", interval: 2, weekdays: [6] },
      start: d("2027-01-02"),
      convention: "none"
    }
    const order: Given = { orderId: "R", recurrence: r, nextDate: d("2027-04-12") }
    const asOf = d("2027-04-01")
    const following = Reconciliation.reconcile([order], { asOf })
    expect(following.observations[0]).toMatchObject({
      status: "match",
      expected: d("2027-04-12"),
      frequency: undefined
    })
    const preceding = Reconciliation.reconcile([order], { asOf, rule: BankRule.make({ convention: "preceding" }) })
    expect(preceding.observations[0]).toMatchObject({ status: "explained", expected: d("2027-04-09") })
    // its own convention (a record that states preceding) is not moved by the rule's following
    const own = Reconciliation.reconcile(
      [{ ...order, recurrence: { ...r, convention: "preceding" }, ownConvention: true }],
      {
        asOf
      }
    )
    expect(own.observations[0]).toMatchObject({ status: "anomaly", expected: d("2027-04-09") })
  })
})

describe("Reconciliation.ruleToProject", () => {
  const preceding = (calendar: Calendar.Calendar) => BankRule.make({ convention: "preceding", calendar })
  it("the inferred rule; among tied rules the one asked for, else the one on its calendar; else why not", () => {
    const inferred = {
      _tag: "Inferred" as const,
      rule: preceding(Calendar.weekends),
      support: 3,
      evidence: 3,
      notExplained: [],
      runnerUp: undefined
    }
    expect(Reconciliation.ruleToProject(inferred, BankRule.defaultRule)).toEqual(preceding(Calendar.weekends))
    const tied = {
      _tag: "NotEnoughEvidence" as const,
      tied: [preceding(Calendar.target), preceding(Calendar.weekends), BankRule.defaultRule],
      support: 3,
      evidence: 3
    }
    expect(Reconciliation.ruleToProject(tied, BankRule.defaultRule)).toEqual(BankRule.defaultRule)
    const two = { ...tied, tied: tied.tied.slice(0, 2) }
    expect(Reconciliation.ruleToProject(two, BankRule.defaultRule)).toEqual(preceding(Calendar.target))
    const none = { ...tied, tied: [preceding(Calendar.weekends), BankRule.make({ calendar: BankRule.everyDay })] }
    // no rule is guessed: the caller says why (tppkit project --rule-from: the evidence's line, exit 2)
    expect(Reconciliation.ruleToProject(none, BankRule.defaultRule)).toBeUndefined()
  })
})
