import { assert, describe, it } from "@effect/vitest"
import { Calendar, LocalDate, StandingOrder } from "@tppkit/core"
import { AtRisk } from "@tppkit/worker"
import { BigDecimal, Result } from "effect"
import fc from "fast-check"

const IBAN = "SK3112000000198742637541"

const once = (orderId: string, date: string, value: number, debtor = IBAN, creditor = "SK0809000000000123123123") =>
  Result.getOrThrow(
    StandingOrder.decode({
      orderId,
      debtor: { name: "Jana Novakova", iban: debtor },
      creditor: { iban: creditor },
      instructedAmount: { value, currency: "EUR" },
      startDate: date,
      endDate: date,
      frequency: "DAIL"
    })
  )

const day = LocalDate.parseUnsafe("2026-11-16") // a Monday

const input = (orders: ReadonlyArray<StandingOrder.StandingOrder>, amount = "500", threshold?: string) => ({
  listings: [{ consent: "c1", orders }],
  balances: [
    { iban: IBAN, currency: "EUR", amount, date: "2026-11-13", ...(threshold === undefined ? {} : { threshold }) }
  ],
  day,
  calendar: Calendar.target
})

describe("AtRisk.find", () => {
  it("names each payment due on a day the forecast puts at or below zero, with the day, lowest point and balance age", () => {
    // 300 on Tuesday, then 250 on Tuesday 2026-11-24 (the 6th working day): 500 - 300 - 250 = -50
    const found = AtRisk.find(input([once("RENT", "2026-11-17", 300), once("CAR", "2026-11-24", 250)]))
    assert.deepStrictEqual(
      found.risks.map((r) => [r.orderId, r.executionDate, r.closing, r.reason, r.shortfall]),
      [["CAR", "2026-11-24", "-50", "zero", "50"]]
    )
    const risk = found.risks[0]!
    assert.deepStrictEqual(risk.lowest, { amount: "-50", date: "2026-11-24" })
    assert.deepStrictEqual(risk.dueThatDay, [{ orderId: "CAR", nominalDate: "2026-11-24", amount: "250" }])
    assert.strictEqual(risk.dueThatDayCount, 1)
    assert.strictEqual(risk.consent, "c1")
    assert.strictEqual(risk.balanceDate, "2026-11-13")
    assert.strictEqual(risk.balanceAgeDays, 3)
    assert.deepStrictEqual([...found.forecast], [IBAN])
    assert.strictEqual(found.to, "2026-11-30")
  })

  it("a day of many payments names the first 20 in each of its payments at risk, and counts them all", () => {
    const many = Array.from({ length: 50 }, (_, i) => once(`P${String(i).padStart(2, "0")}`, "2026-11-18", 20))
    const found = AtRisk.find(input(many))
    assert.strictEqual(found.risks.length, 50)
    assert.isTrue(found.risks.every((r) => r.dueThatDay.length === 20 && r.dueThatDayCount === 50))
  })

  it("a threshold is a line too; beyond the horizon nothing is at risk; no balance, no forecast", () => {
    const t = AtRisk.find(input([once("RENT", "2026-11-17", 300)], "500", "250"))
    assert.deepStrictEqual(
      t.risks.map((r) => [r.orderId, r.reason, r.shortfall]),
      [["RENT", "threshold", "50"]]
    )
    // 2026-12-01 is the 11th working day
    assert.deepStrictEqual(AtRisk.find(input([once("LATE", "2026-12-01", 900)])).risks, [])
    assert.deepStrictEqual(AtRisk.find({ ...input([once("RENT", "2026-11-17", 900)]), balances: [] }).risks, [])
  })
})

describe("AtRisk: stored balances that cannot be read (issue 34)", () => {
  it("are named with the account and the value as stored, never dropped without a word; the others are forecast", () => {
    const other = "SK0809000000000123123123"
    const found = AtRisk.find({
      ...input([once("RENT", "2026-11-17", 900)]),
      balances: [
        { iban: IBAN, currency: "EUR", amount: "12,50", date: "2026-11-13" },
        { iban: other, currency: "EUR", amount: "100", date: "2026-11-13", threshold: "ten" }
      ]
    })
    // before, both were left out silently and nothing said why the accounts had no forecast
    assert.deepStrictEqual(found.unusable, [
      { iban: IBAN, reason: 'amount "12,50" is not a decimal number' },
      { iban: other, reason: 'threshold "ten" is not a decimal number' }
    ])
    assert.deepStrictEqual(found.risks, [])
    assert.deepStrictEqual(AtRisk.find(input([once("RENT", "2026-11-17", 300)])).unusable, undefined)
    assert.match(
      AtRisk.unusableBalances([{ iban: IBAN, currency: "EUR", amount: "1", date: "2026-13-01" }])[0]?.reason ?? "",
      /^date "2026-13-01": /
    )
  })
})

describe("AtRisk: the balances a status flags", () => {
  it("flags the balances older than the age given, and ages a payment's balance on the day asked", () => {
    const balances = [
      { iban: "A", ageDays: 3 },
      { iban: "B", ageDays: 4 },
      { iban: "C", ageDays: 0 }
    ]
    assert.deepStrictEqual(
      AtRisk.staleBalances(balances, AtRisk.defaultBalanceMaxAge).map((b) => b.iban),
      ["B"]
    )
    assert.deepStrictEqual(
      AtRisk.staleBalances(balances, 0).map((b) => b.iban),
      ["A", "B"]
    )
    const risk = { balanceDate: "2026-11-13", balanceAgeDays: 1 }
    assert.strictEqual(AtRisk.balanceAgeOn(risk, "2026-11-16"), 3)
    assert.strictEqual(AtRisk.balanceAgeOn(risk, "2026-11-12"), -1)
    assert.strictEqual(AtRisk.balanceAgeOn({ ...risk, balanceDate: "13.11.2026" }, "2026-11-16"), 1)
  })
})

describe("AtRisk.reconcile", () => {
  it("raises a payment once, clears it when the forecast recovers, and leaves what it cannot judge", () => {
    const risky = AtRisk.find(input([once("CAR", "2026-11-24", 600)]))
    const first = AtRisk.reconcile(risky, [], "2026-11-16")
    assert.deepStrictEqual(
      first.raised.map((r) => r.orderId),
      ["CAR"]
    )
    const open = first.raised.map((r) => ({ key: AtRisk.keyOf(r), executionDate: r.executionDate, iban: r.iban }))
    // the next sweep finds it again: nothing new
    const again = AtRisk.reconcile(AtRisk.find(input([once("CAR", "2026-11-24", 600)])), open, "2026-11-17")
    assert.deepStrictEqual([again.raised, again.cleared], [[], []])
    // the balance covers it now: cleared
    const recovered = AtRisk.reconcile(AtRisk.find(input([once("CAR", "2026-11-24", 600)], "900")), open, "2026-11-17")
    assert.deepStrictEqual(recovered.raised, [])
    assert.deepStrictEqual(recovered.cleared, open)
    // passed, or an account not forecast: left as it is
    assert.deepStrictEqual(AtRisk.reconcile(AtRisk.find(input([])), open, "2026-11-25").cleared, [])
    assert.deepStrictEqual(
      AtRisk.reconcile(AtRisk.find({ ...input([]), balances: [] }), open, "2026-11-17").cleared,
      []
    )
  })
})

const OTHER = "SK0809000000000123123123"
const THIRD = "CZ6508000000192000145399"

/** Risks in one order (the parts' together come part by part). */
const sorted = (risks: ReadonlyArray<AtRisk.Risk>) =>
  [...risks].sort((a, b) => (AtRisk.keyOf(a) < AtRisk.keyOf(b) ? -1 : AtRisk.keyOf(a) > AtRisk.keyOf(b) ? 1 : 0))

describe("AtRisk.forecastOrders", () => {
  it("holds the orders paying from or into the accounts, only what the forecast reads, and finds the same", () => {
    const orders = [
      once("RENT", "2026-11-17", 300),
      once("ELSEWHERE", "2026-11-17", 300, THIRD, OTHER),
      once("SALARY", "2026-11-18", 100, THIRD, IBAN)
    ]
    const held = AtRisk.forecastOrders(orders, new Set([IBAN]))
    assert.deepStrictEqual(
      held.map((o) => o.orderId),
      ["RENT", "SALARY"]
    )
    // the record's names, remittance and the rest are not held
    assert.deepStrictEqual(Object.keys(held[0]!).sort(), [
      "creditor",
      "debtor",
      "endDate",
      "frequency",
      "instructedAmount",
      "orderId",
      "startDate"
    ])
    assert.deepStrictEqual(held[1]!.creditor, { iban: IBAN })
    assert.deepStrictEqual(
      AtRisk.find({ ...input(orders, "350"), listings: [{ consent: "c1", orders: held }] }),
      AtRisk.find(input(orders, "350"))
    )
  })
})

describe("AtRisk.parts", () => {
  it("an account's part has every order paying from or into it, whatever consent lists it; an orderId listed twice is the first's", () => {
    const listings = [
      {
        consent: "c1",
        orders: [once("A1", "2026-11-17", 10, IBAN, THIRD), once("B1", "2026-11-17", 10, OTHER, THIRD)]
      },
      {
        consent: "c2",
        orders: [
          once("A1", "2026-11-18", 99, IBAN, THIRD),
          once("A2", "2026-11-18", 10, IBAN, THIRD),
          once("BA", "2026-11-19", 5, OTHER, IBAN)
        ]
      }
    ]
    const balances = [
      { iban: IBAN, currency: "EUR", amount: "100", date: "2026-11-13" },
      { iban: OTHER, currency: "EUR", amount: "100", date: "2026-11-13" }
    ]
    const parts = AtRisk.parts({ listings, balances }, 1)
    assert.deepStrictEqual(
      parts.map((p) => [
        p.balances.map((b) => b.iban),
        p.listings.map((l) => [l.consent, l.orders.map((o) => o.orderId)])
      ]),
      [
        [
          [IBAN],
          [
            ["c1", ["A1"]],
            ["c2", ["A2", "BA"]]
          ]
        ],
        [
          [OTHER],
          [
            ["c1", ["B1"]],
            ["c2", ["BA"]]
          ]
        ]
      ]
    )
    // one part when they fit: the listings' order, each order once
    assert.deepStrictEqual(
      AtRisk.parts({ listings, balances }).map((p) =>
        p.listings.map((l) => [l.consent, l.orders.map((o) => o.orderId)])
      ),
      [
        [
          ["c1", ["A1", "B1"]],
          ["c2", ["A2", "BA"]]
        ]
      ]
    )
  })

  it("the parts' forecasts name the payments at risk one forecast of every account names (law)", () => {
    const accounts = [IBAN, OTHER, THIRD]
    const order = fc.record({
      consent: fc.constantFrom("c1", "c2"),
      id: fc.integer({ min: 0, max: 5 }),
      day: fc.integer({ min: 16, max: 30 }),
      value: fc.integer({ min: 1, max: 400 }),
      debtor: fc.integer({ min: 0, max: 2 }),
      creditor: fc.integer({ min: 0, max: 2 })
    })
    fc.assert(
      fc.property(
        fc.array(order, { maxLength: 8 }),
        fc.subarray([0, 1, 2], { minLength: 1 }),
        fc.integer({ min: 1, max: 4 }),
        (drawn, withBalance, size) => {
          const listings = ["c1", "c2"].map((consent) => ({
            consent,
            orders: drawn
              .filter((o) => o.consent === consent)
              .map((o) => ({
                orderId: `O${o.id}`,
                frequency: "DAIL" as const,
                startDate: LocalDate.parseUnsafe(`2026-11-${o.day}`),
                endDate: LocalDate.parseUnsafe(`2026-11-${o.day}`),
                instructedAmount: { value: BigDecimal.fromNumberUnsafe(o.value), currency: "EUR" },
                debtor: { iban: accounts[o.debtor]! },
                creditor: { iban: accounts[o.creditor] }
              }))
          }))
          const balances = withBalance.map((a) => ({
            iban: accounts[a]!,
            currency: "EUR",
            amount: "300",
            date: "2026-11-13"
          }))
          const whole = AtRisk.find({ listings, balances, day, calendar: Calendar.target })
          const parts = AtRisk.parts({ listings, balances }, size).map((p) =>
            AtRisk.find({ ...p, day, calendar: Calendar.target })
          )
          assert.deepStrictEqual(sorted(parts.flatMap((p) => p.risks)), sorted(whole.risks))
          assert.deepStrictEqual(new Set(parts.flatMap((p) => [...p.forecast])), new Set(whole.forecast))
        }
      ),
      { numRuns: 10_000 }
    )
  })
})
