import { assert, describe, it } from "@effect/vitest"
import { Calendar, LocalDate, StandingOrder } from "@tppkit/core"
import { OrderChanges } from "@tppkit/worker"
import { Result } from "effect"

const order = (
  orderId: string,
  over: {
    value?: number
    creditor?: string
    frequency?: string
    startDate?: string
    endDate?: string
    nextDate?: string
  } = {}
) =>
  Result.getOrThrow(
    StandingOrder.decode({
      orderId,
      debtor: { name: "Jana Novakova", iban: "SK3112000000198742637541" },
      creditor: { iban: over.creditor ?? "SK0809000000000123123123" },
      instructedAmount: { value: over.value ?? 100, currency: "EUR" },
      startDate: over.startDate ?? "2026-01-15",
      frequency: over.frequency ?? "MNTH",
      ...(over.endDate === undefined ? {} : { endDate: over.endDate }),
      ...(over.nextDate === undefined ? {} : { nextDate: over.nextDate })
    })
  )

const rule = { calendar: Calendar.target }
const day = LocalDate.parseUnsafe("2026-11-17")

describe("OrderChanges.compare", () => {
  it("names an order created, removed and changed, each change with before and after", () => {
    const before = [order("KEEP"), order("GONE"), order("EDIT", { value: 100, endDate: "2027-01-31" })]
    const after = [
      order("KEEP"),
      order("EDIT", { value: 120.5, creditor: "SK3112000000198742637541", frequency: "WEEK" }),
      order("NEW")
    ]
    const changes = OrderChanges.compare(before, after, day, rule)
    assert.deepStrictEqual(
      changes.map((c) => [c._tag, c.order.orderId]),
      [
        ["Changed", "EDIT"],
        ["Created", "NEW"],
        ["Removed", "GONE"]
      ]
    )
    const edit = changes[0]
    assert.strictEqual(edit?._tag, "Changed")
    if (edit?._tag === "Changed") {
      assert.deepStrictEqual(edit.changes, [
        { field: "amount", before: "100 EUR", after: "120.5 EUR" },
        { field: "creditor", before: "SK0809000000000123123123", after: "SK3112000000198742637541" },
        { field: "schedule", before: "MNTH from 2026-01-15", after: "WEEK from 2026-01-15" },
        { field: "end", before: "2027-01-31", after: null }
      ])
    }
    // the same listing twice: nothing changed; an amount written otherwise (100 and 100.00) is the same amount
    assert.deepStrictEqual(OrderChanges.compare(after, after, day, rule), [])
    assert.deepStrictEqual(
      OrderChanges.compare([order("A", { value: 100 })], [order("A", { value: 100.0 })], day, rule),
      []
    )
  })

  it("a nextDate moved on by a payment made is no change; one off the engine's date for the occurrence is", () => {
    // monthly on the 15th; listed on Tuesday 2026-11-17 the engine's next date is Tuesday 2026-12-15
    const before = [order("M", { nextDate: "2026-11-16" }), order("N", { nextDate: "2026-11-16" })]
    const after = [order("M", { nextDate: "2026-12-15" }), order("N", { nextDate: "2026-12-18" })]
    const changes = OrderChanges.compare(before, after, day, rule)
    assert.deepStrictEqual(changes, [
      {
        _tag: "NextDateMoved",
        order: OrderChanges.show(after[1]!),
        before: "2026-11-16",
        after: "2026-12-18",
        engine: "2026-12-15"
      }
    ])
    // the bank keeps the moved date the next day: the date did not move again
    assert.deepStrictEqual(OrderChanges.compare(after, after, LocalDate.addDays(day, 1), rule), [])
  })

  it("a payment due on the listing day may be listed as made or not", () => {
    // listed on 2026-12-15, the day of a payment: the day itself and the next occurrence are both the bank's word
    const on = LocalDate.parseUnsafe("2026-12-15")
    const before = [order("M", { nextDate: "2026-11-16" })]
    assert.deepStrictEqual(OrderChanges.compare(before, [order("M", { nextDate: "2026-12-15" })], on, rule), [])
    assert.deepStrictEqual(OrderChanges.compare(before, [order("M", { nextDate: "2027-01-15" })], on, rule), [])
  })

  it("each change's data names the order and what changed", () => {
    const [moved] = OrderChanges.compare(
      [order("N", { nextDate: "2026-11-16" })],
      [order("N", { nextDate: "2026-12-18" })],
      day,
      rule
    )
    assert.deepStrictEqual(moved === undefined ? undefined : OrderChanges.data(moved), {
      orderId: "N",
      before: "2026-11-16",
      after: "2026-12-18",
      engine: "2026-12-15",
      amount: "100",
      currency: "EUR",
      debtorIban: "SK3112000000198742637541",
      creditorIban: "SK0809000000000123123123",
      schedule: "MNTH from 2026-01-15",
      end: null,
      nextDate: "2026-12-18"
    })
    assert.strictEqual(OrderChanges.eventType.NextDateMoved, "standing_order.next_date_moved")
  })
})

describe("OrderChanges.describe", () => {
  it("says each change of the feed in a few words, from its event's type and data as kept", () => {
    const before = [order("GONE"), order("EDIT", { value: 100 }), order("N", { nextDate: "2026-11-16" })]
    const after = [order("EDIT", { value: 120.5 }), order("NEW"), order("N", { nextDate: "2026-12-18" })]
    const said = OrderChanges.compare(before, after, day, rule).map((c) => {
      const type = OrderChanges.eventType[c._tag]
      return `${type} ${OrderChanges.describe(type, OrderChanges.data(c))}`
    })
    assert.deepStrictEqual(said, [
      "standing_order.changed amount 100 EUR -> 120.5 EUR",
      "standing_order.created 100 EUR MNTH from 2026-01-15, next -",
      "standing_order.next_date_moved next 2026-11-16 -> 2026-12-18 (engine 2026-12-15)",
      "standing_order.removed was 100 EUR MNTH from 2026-01-15"
    ])
    assert.strictEqual(OrderChanges.describe("consent.expiring", { consent: "c1" }), "")
  })
})
