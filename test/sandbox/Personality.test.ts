import { BankRule, Calendar, LocalDate, StandingOrder } from "@tppkit/core"
import { Fixtures, Journal, Personality, Sandbox, SandboxClock } from "@tppkit/sandbox"
import { Reconciliation } from "@tppkit/schedule"
import { Effect, Layer, Result } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { apiHeaders, post, token } from "./support.ts"

const d = LocalDate.parseUnsafe
const orders = Result.getOrThrow(Fixtures.decode(Fixtures.defaults)).standingOrders

describe("Personality.list", () => {
  const day = d("2026-07-25")

  it("tppkit's own rule: every listed date matches tppkit's engine", () => {
    const listed = Personality.list({}, orders, day)
    const r = Reconciliation.reconcile(listed, { asOf: day })
    expect(r.observations.length).toBeGreaterThan(100)
    expect(r.counts.match).toBe(r.observations.length)
  })

  it("a bank that differs: reconciled against its own rule every date matches; against tppkit's they are explained", () => {
    const rule = BankRule.make({ convention: "preceding", calendar: Calendar.weekends })
    const listed = Personality.list({ rule }, orders, day)
    expect(Reconciliation.reconcile(listed, { asOf: day, rule }).counts.match).toBeGreaterThan(100)
    const r = Reconciliation.reconcile(listed, { asOf: day })
    expect(r.counts.explained).toBeGreaterThan(0)
    expect(r.counts.anomaly + r.counts.unexplained).toBe(0)
    expect(Reconciliation.consistentRules(r).map(BankRule.key)).toContain(BankRule.key(rule))
  })

  it("an extra holiday only shows up as explained by the calendar difference", () => {
    // Monday 27 July 2026 a holiday of this bank: orders due that day are listed on the 28th
    const personality = { extraHolidays: [d("2026-07-27")] }
    const listed = Personality.list(personality, orders, day)
    const r = Reconciliation.reconcile(listed, { asOf: day, candidates: [Personality.ruleOf(personality)] })
    const moved = r.observations.filter((o) => o.status !== "match")
    expect(moved.length).toBeGreaterThan(0)
    for (const o of moved) {
      expect(o.status).toBe("explained")
      expect(LocalDate.format(o.expected!)).toBe("2026-07-27")
    }
  })

  it("property: holidays added to the bank's calendar only show up as explained by the calendar difference", () => {
    // any convention, any listing day, up to three added weekdays from the listing day on (an added day before it
    // only moves a payment that counted as made already); reconciled against the bank's rule without the added days
    const arbitrary = fc.record({
      asOf: fc.integer({ min: d("2025-06-01"), max: d("2027-12-31") }),
      offsets: fc.uniqueArray(fc.integer({ min: 0, max: 90 }), { minLength: 1, maxLength: 3 }),
      convention: fc.constantFrom("following", "preceding", "modified-following", "modified-preceding", "none" as const)
    })
    fc.assert(
      fc.property(arbitrary, ({ asOf, offsets, convention }) => {
        const day = asOf as LocalDate.LocalDate
        const added = offsets
          .map((o) => LocalDate.addDays(day, o))
          .filter((h) => Calendar.isWorkingDay(Calendar.target, h))
        const rule = BankRule.make({ convention })
        const personality = { rule, extraHolidays: added }
        const listed = Personality.list(personality, orders, day)
        const r = Reconciliation.reconcile(listed, { asOf: day, rule, candidates: [Personality.ruleOf(personality)] })
        for (const o of r.observations) {
          if (o.status === "match") continue
          expect(o.status).toBe("explained")
          expect(added).toContain(o.expected)
          expect(Reconciliation.explanation(r, o)).toBe(r.rules[1])
        }
        // without an added working day nothing moves
        if (added.length === 0) expect(r.counts.match).toBe(r.observations.length)
      }),
      { numRuns: 300 }
    )
  })

  it("property: a bank paying on every day but its added holidays (weekends too): only those show up, explained by the calendar", () => {
    // the every-day calendar keeps its weekends open and closes the added days alone; the bank's convention moves a
    // payment off them (DAIL skips them); reconciled against every day without them
    const arbitrary = fc.record({
      asOf: fc.integer({ min: d("2025-06-01"), max: d("2027-12-31") }),
      offsets: fc.uniqueArray(fc.integer({ min: 0, max: 60 }), { minLength: 1, maxLength: 4 }),
      convention: fc.constantFrom("following", "preceding", "modified-following", "modified-preceding", "none" as const)
    })
    let moved = 0
    let onWeekends = 0
    fc.assert(
      fc.property(arbitrary, ({ asOf, offsets, convention }) => {
        const day = asOf as LocalDate.LocalDate
        const added = offsets.map((o) => LocalDate.addDays(day, o))
        const rule = BankRule.make({ convention, calendar: BankRule.everyDay })
        const personality = { rule, extraHolidays: added }
        const bank = Personality.ruleOf(personality)
        expect(BankRule.key(bank)).not.toBe(BankRule.key(rule))
        const listed = Personality.list(personality, orders, day)
        // the bank's own rule matches every date
        const own = Reconciliation.reconcile(listed, { asOf: day, rule: bank, candidates: [] })
        expect(own.counts.match).toBe(own.observations.length)
        const r = Reconciliation.reconcile(listed, { asOf: day, rule, candidates: [bank] })
        for (const o of r.observations) {
          if (o.status === "match") continue
          moved++
          if (LocalDate.isWeekend(o.expected!)) onWeekends++
          expect(o.status).toBe("explained")
          expect(added).toContain(o.expected)
          expect(Reconciliation.explanation(r, o)).toBe(r.rules[1])
        }
      }),
      { numRuns: 300 }
    )
    // the added days do move payments, on weekends too (where an every-day bank pays)
    expect(moved).toBeGreaterThan(0)
    expect(onWeekends).toBeGreaterThan(0)
  })

  it("property: for any personality and random orders, reconciled against the bank's own rule every date matches", () => {
    const sk = Reconciliation.candidateCalendars()[2]!
    const template = orders[0]!
    const arbitrary = fc.record({
      asOf: fc.integer({ min: d("2024-01-01"), max: d("2027-12-31") }),
      convention: fc.constantFrom(
        "following",
        "preceding",
        "modified-following",
        "modified-preceding",
        "none" as const
      ),
      calendar: fc.constantFrom<BankRule.CalendarChoice>(Calendar.target, Calendar.weekends, sk, BankRule.everyDay),
      reports: fc.constantFrom("execution", "nominal" as const),
      holidays: fc.uniqueArray(fc.integer({ min: -10, max: 60 }), { maxLength: 4 }),
      orders: fc.array(
        fc.record({
          frequency: fc.constantFrom("DAIL", "DAI7", "WEEK", "MNTH", "QUTR", "SEMI", "YEAR" as const),
          start: fc.integer({ min: -2000, max: 200 }),
          end: fc.option(fc.integer({ min: 0, max: 3000 }), { nil: undefined })
        }),
        { minLength: 1, maxLength: 30 }
      )
    })
    fc.assert(
      fc.property(arbitrary, (input) => {
        const day = input.asOf as LocalDate.LocalDate
        const personality = {
          rule: BankRule.make({ convention: input.convention, calendar: input.calendar, reports: input.reports }),
          extraHolidays: input.holidays.map((h) => LocalDate.addDays(day, h))
        }
        const random = input.orders.map((o, i) => {
          const startDate = LocalDate.addDays(day, o.start)
          const { nextDate: _, endDate: __, ...rest } = template
          return new StandingOrder.StandingOrder({
            ...rest,
            orderId: `R-${i}`,
            frequency: o.frequency,
            startDate,
            ...(o.end === undefined ? {} : { endDate: LocalDate.addDays(startDate, o.end) })
          })
        })
        const listed = Personality.list(personality, random, day)
        const r = Reconciliation.reconcile(listed, { asOf: day, rule: Personality.ruleOf(personality), candidates: [] })
        expect(r.skipped).toEqual([])
        expect(r.counts.match).toBe(r.observations.length)
        expect(r.observations.length + r.withoutNextDate.length).toBe(random.length)
      }),
      { numRuns: 500 }
    )
  })

  it("injected anomalies are exactly the orders it picks, and reconciliation reports exactly those", () => {
    const personality = { anomalyRate: 0.2, seed: 7 }
    const listed = Personality.list(personality, orders, day)
    const picked = orders.filter((o) => Personality.isAnomalous(personality, o)).map((o) => o.orderId)
    expect(picked.length).toBeGreaterThan(3)
    const r = Reconciliation.reconcile(listed, { asOf: day })
    const reported = r.observations.filter((o) => o.status === "anomaly").map((o) => o.orderId)
    const listedPicked = picked.filter((id) => listed.find((o) => o.orderId === id)?.nextDate !== undefined)
    expect(reported.sort()).toEqual(listedPicked.sort())
  })

  it("Personality.list({}) lists a computed date for every order that has not ended, also where the fixture has none", () => {
    const listed = Personality.list({}, orders, day)
    const fixtureWithout = orders.filter((o) => o.nextDate === undefined && o.startDate !== undefined)
    expect(fixtureWithout.length).toBeGreaterThan(0)
    // those that never end pay again after any day
    const neverEnding = fixtureWithout.filter((o) => o.endDate === undefined)
    expect(neverEnding.length).toBeGreaterThan(0)
    for (const o of neverEnding)
      expect(listed.find((x) => x.orderId === o.orderId)!.nextDate).toBeGreaterThanOrEqual(day)
  })
})

/** The standing orders the mock bank lists to its default client, every page. */
const listing = (info: Sandbox.SandboxInfo["Service"]) =>
  Effect.gen(function* () {
    const t = yield* token(info, "AISP")
    const url = info.baseUrl + info.paths.standingOrders
    const headers = () => apiHeaders(t, { "psu-last-logged-time": new Date().toISOString() })
    const out: Array<{ orderId: string; nextDate?: string }> = []
    for (let page = 0; page < 2; page++) {
      const answer = yield* post(url, { headers: headers(), body: JSON.stringify({ pageSize: 100, page }) })
      expect(answer.status).toBe(200)
      out.push(...answer.json.standingOrders)
    }
    expect(out.length).toBeGreaterThan(100)
    return out
  })

const nextDates = (listed: ReadonlyArray<{ orderId: string; nextDate?: string }>) =>
  Object.fromEntries(listed.map((o) => [o.orderId, o.nextDate]))

/** The nextDates a bank with `personality` lists on `day` for the orders bound to the default client. */
const expectedOn = (personality: Personality.Personality, on: LocalDate.LocalDate) => {
  const bound = new Set(Fixtures.defaults.clients[0]!.aispAccounts)
  return nextDates(
    Personality.list(
      personality,
      orders.filter((o) => bound.has(o.debtor.iban)),
      on
    ).map((o) => ({
      orderId: o.orderId,
      ...(o.nextDate === undefined ? {} : { nextDate: LocalDate.format(o.nextDate) })
    }))
  )
}

describe("the mock bank's listed nextDates", () => {
  const serve = (options: Sandbox.Options, clockAt: string) =>
    Effect.gen(function* () {
      const info = yield* Sandbox.SandboxInfo
      return nextDates(yield* listing(info))
    }).pipe(
      Effect.provide(
        Sandbox.layerServer(options).pipe(
          Layer.provideMerge(
            Layer.mergeAll(SandboxClock.SandboxClock.layerFixed(Date.parse(clockAt)), Journal.Journal.layer)
          )
        )
      ),
      Effect.runPromise
    )

  it("by default are computed by tppkit's own rule on the clock's day in Bratislava", async () => {
    // 23:30 UTC on 2 August 2026 is already 3 August in Bratislava (a Monday)
    const listed = await serve({}, "2026-08-02T23:30:00Z")
    expect(listed).toEqual(expectedOn({}, d("2026-08-03")))
    expect(listed).not.toEqual(expectedOn({}, d("2026-08-02")))
  })

  it("a listing day pins them apart from the clock; a personality lists by its rule", async () => {
    const rule = BankRule.make({ convention: "preceding", calendar: Calendar.weekends })
    expect(await serve({ listingDay: Fixtures.baseDate }, "2027-05-05T10:00:00Z")).toEqual(
      expectedOn({}, Fixtures.baseDate)
    )
    expect(await serve({ listingDay: d("2026-07-25"), personality: { rule } }, "2027-05-05T10:00:00Z")).toEqual(
      expectedOn({ rule }, d("2026-07-25"))
    )
  })

  it('"as-given" lists the fixtures\' own nextDates unchanged', async () => {
    const listed = await serve({ personality: Personality.asGiven }, "2027-05-05T10:00:00Z")
    const bound = new Set(Fixtures.defaults.clients[0]!.aispAccounts)
    const fixtures = Fixtures.defaults.standingOrders.filter((o) => bound.has(o.debtor.iban))
    expect(listed).toEqual(Object.fromEntries(fixtures.map((o) => [o.orderId, o.nextDate])))
  })
})
