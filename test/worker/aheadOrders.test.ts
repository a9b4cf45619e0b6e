/**
 * The orders kept for the day's forecast ahead (issue 39): what is read back is the order that was kept — the amount's
 * digits and scale, the dates, a recurrence and the bank code it was made from — and plans the same payments; a read
 * for some accounts makes only their orders; the counts by account size the day's parts.
 */
import { Calendar, Frequency, LocalDate, Recurrence } from "@tppkit/core"
import { Projection } from "@tppkit/schedule"
import { BigDecimal, Result } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as AheadOrders from "../../packages/worker/src/internal/aheadOrders.ts"

const IBANS = ["SK3112000000198742637541", "SK0809000000000123123123", "CZ6508000000192000145399"]
const first = LocalDate.parseUnsafe("2026-01-01")

const order = fc
  .record({
    id: fc.string({ maxLength: 12 }),
    digits: fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }),
    scale: fc.integer({ min: 0, max: 6 }),
    currency: fc.constantFrom("EUR", "CZK"),
    debtor: fc.constantFrom(...IBANS),
    creditor: fc.option(fc.constantFrom(...IBANS), { nil: undefined }),
    frequency: fc.option(fc.constantFrom(...Frequency.codes), { nil: undefined }),
    start: fc.option(fc.integer({ min: 0, max: 800 }), { nil: undefined }),
    next: fc.option(fc.integer({ min: 0, max: 800 }), { nil: undefined }),
    end: fc.option(fc.integer({ min: 0, max: 800 }), { nil: undefined }),
    // none, a bank code's (remembers its code), or a plain one (a copy of it)
    recurrence: fc.constantFrom("none", "code", "plain"),
    convention: fc.constantFrom("following", "modified-following", "preceding", "none" as const)
  })
  .map((d): Projection.ProjectableOrder => {
    const start = d.start === undefined ? undefined : ((first + d.start) as LocalDate.LocalDate)
    const end = d.end === undefined ? undefined : ((first + 300 + d.end) as LocalDate.LocalDate)
    const made = Recurrence.fromSbas({ frequency: d.frequency ?? "MNTH", startDate: start ?? first, endDate: end })
    const code = Recurrence.withConvention(Result.getOrThrow(made), d.convention)
    return {
      orderId: d.id,
      instructedAmount: { value: BigDecimal.make(d.digits, d.scale), currency: d.currency },
      debtor: { iban: d.debtor },
      creditor: { iban: d.creditor },
      ...(d.frequency === undefined ? {} : { frequency: d.frequency }),
      ...(start === undefined ? {} : { startDate: start }),
      ...(d.next === undefined ? {} : { nextDate: (first + d.next) as LocalDate.LocalDate }),
      ...(end === undefined ? {} : { endDate: end }),
      ...(d.recurrence === "none" ? {} : { recurrence: d.recurrence === "code" ? code : { ...code } })
    }
  })

/** An order as plain data: its amount's digits and scale, its recurrence's JSON and bank code. */
const plain = (o: Projection.ProjectableOrder) => ({
  ...o,
  instructedAmount: { ...o.instructedAmount, value: [o.instructedAmount.value.value, o.instructedAmount.value.scale] },
  recurrence:
    o.recurrence === undefined ? undefined : [Recurrence.encodeJson(o.recurrence), Recurrence.code(o.recurrence)]
})

describe("aheadOrders", () => {
  it("reads back the orders kept, exactly (law)", () => {
    fc.assert(
      fc.property(fc.array(order, { maxLength: 4 }), (orders) => {
        const back = AheadOrders.decode(AheadOrders.encode(orders))
        expect(back.map(plain)).toStrictEqual(orders.map(plain))
      }),
      { numRuns: 10_000 }
    )
  })

  it("plans the payments the orders kept plan", () => {
    const window = { from: first, to: (first + 500) as LocalDate.LocalDate }
    const payments = (orders: ReadonlyArray<Projection.ProjectableOrder>) =>
      Projection.project(orders, window, { calendar: Calendar.target })
    fc.assert(
      fc.property(fc.array(order, { maxLength: 3 }), (orders) => {
        expect(payments(AheadOrders.decode(AheadOrders.encode(orders)))).toStrictEqual(payments(orders))
      }),
      { numRuns: 1_000 }
    )
  })

  it("makes only the orders of the accounts asked for, and counts the orders by account", () => {
    const [a, b, c] = IBANS as [string, string, string]
    const of = (orderId: string, debtor: string, creditor: string | undefined): Projection.ProjectableOrder => ({
      orderId,
      instructedAmount: { value: BigDecimal.fromStringUnsafe("12.50"), currency: "EUR" },
      debtor: { iban: debtor },
      creditor: { iban: creditor },
      frequency: "MNTH",
      startDate: first
    })
    const orders = [of("1", a, b), of("2", b, undefined), of("3", c, a), of("4", a, a)]
    const text = AheadOrders.encode(orders)
    expect(
      AheadOrders.decode(text, (debtor, creditor) => debtor === b || creditor === b).map((o) => o.orderId)
    ).toEqual(["1", "2"])
    // an order between two accounts counts for both, an order from an account to itself once; c has no balance
    expect(AheadOrders.touches(orders, new Set([a, b]))).toEqual([
      [a, 3],
      [b, 2]
    ])
  })
})
