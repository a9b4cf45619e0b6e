import { Calendars, Project } from "@tppkit/cli"
import { Calendar, LocalDate } from "@tppkit/core"
import { Payment, Projection } from "@tppkit/schedule"
import { Result } from "effect"
import { describe, expect, it } from "vitest"

const d = LocalDate.parseUnsafe

const order = (orderId: string, currency: string, startDate: string, frequency: string, value = 100) => ({
  orderId,
  debtor: { name: "D", iban: "SK2411000000002612345678" },
  creditor: { iban: "SK6609000000005012345678" },
  instructedAmount: { value, currency },
  startDate,
  frequency
})

const project = (orders: ReadonlyArray<unknown>, calendar: string, from: string, to: string) => {
  const settings = Result.getOrThrow(Project.settings({ from, to, calendar, convention: "following" }))
  const report = Project.report(Result.getOrThrow(Project.decodeOrders(JSON.stringify(orders))), settings)
  return { ...report, payments: Array.from(report.payments, Payment.toPlain) }
}

const dates = (payments: ReadonlyArray<Payment.Payment>) =>
  payments.map((p) => `${p.orderId} ${LocalDate.format(p.nominalDate)}→${LocalDate.format(p.executionDate)}`)

describe("Calendars.forCurrency", () => {
  it("EUR follows TARGET, CZK Czech banking days, others their country's, unknown ones weekends", () => {
    expect(Calendars.forCurrency("EUR").label).toBe("target")
    expect(Calendars.forCurrency("CZK").label).toBe("CZ")
    expect(Calendars.forCurrency("USD").label).toBe("US")
    expect(Calendars.forCurrency("GBP").label).toBe("GB")
    expect(Calendars.forCurrency("XAU").label).toBe("weekends")
    // 28 October is a Czech public holiday, not a TARGET one; 1 May is both
    expect(Calendars.forCurrency("CZK").calendar.isHoliday(d("2026-10-28"))).toBe(true)
    expect(Calendars.forCurrency("EUR").calendar.isHoliday(d("2026-10-28"))).toBe(false)
    expect(Calendars.forCurrency("EUR").calendar.isHoliday(d("2026-05-01"))).toBe(true)
  })

  it("adds --holidays to each currency's calendar", () => {
    const extra = [d("2026-10-27")]
    expect(Calendar.isWorkingDay(Calendars.forCurrency("CZK", extra).calendar, d("2026-10-27"))).toBe(false)
    expect(Calendar.isWorkingDay(Calendars.forCurrency("EUR", extra).calendar, d("2026-10-27"))).toBe(false)
  })
})

describe("--calendar auto", () => {
  const orders = [
    order("SO-CZK", "CZK", "2026-01-28", "MNTH"),
    order("SO-EUR", "EUR", "2026-01-28", "MNTH"),
    order("SO-GBP", "GBP", "2026-01-28", "MNTH")
  ]

  it("moves each payment by its own currency's holidays; the default stays TARGET for all", () => {
    const auto = project(orders, "auto", "2026-10-01", "2026-12-31")
    expect(auto.calendar).toBe("auto")
    expect(dates(auto.payments)).toEqual([
      "SO-EUR 2026-10-28→2026-10-28",
      "SO-GBP 2026-10-28→2026-10-28",
      "SO-CZK 2026-10-28→2026-10-29", // Czech Independence Day
      "SO-CZK 2026-11-28→2026-11-30",
      "SO-EUR 2026-11-28→2026-11-30",
      "SO-GBP 2026-11-28→2026-11-30",
      "SO-CZK 2026-12-28→2026-12-28",
      "SO-EUR 2026-12-28→2026-12-28",
      "SO-GBP 2026-12-28→2026-12-29" // Boxing Day, substitute
    ])
    const target = project(orders, "target", "2026-10-01", "2026-12-31")
    expect(target.payments.every((p) => p.nominalDate === p.executionDate || LocalDate.isWeekend(p.nominalDate))).toBe(
      true
    )
  })

  it("gives the same payments as projecting each currency alone on its calendar, merged in payment order", () => {
    const frequencies = ["DAIL", "DAI7", "WEEK", "MNTH", "QUTR", "SEMI", "YEAR"]
    const currencies = ["EUR", "CZK", "GBP", "USD", "PLN"]
    const many = Array.from({ length: 40 }, (_, i) =>
      order(
        `SO-${String(i).padStart(2, "0")}`,
        currencies[i % currencies.length]!,
        `2025-${String(1 + (i % 12)).padStart(2, "0")}-${String(1 + ((i * 7) % 28)).padStart(2, "0")}`,
        frequencies[i % frequencies.length]!,
        10 + i
      )
    )
    const auto = project([...many, { orderId: "SO-BAD", frequency: "FOO" }], "auto", "2026-01-01", "2026-12-31")
    const expected = currencies
      .flatMap(
        (currency) =>
          project(
            many.filter((o) => o.instructedAmount.currency === currency),
            Calendars.forCurrency(currency).label,
            "2026-01-01",
            "2026-12-31"
          ).payments
      )
      .sort(Payment.compare)
    expect(dates(auto.payments)).toEqual(dates(expected))
    for (let i = 1; i < auto.payments.length; i++) {
      expect(Payment.compare(auto.payments[i - 1]!, auto.payments[i]!)).toBeLessThanOrEqual(0)
    }
    expect(auto.skipped.map((s) => s.orderId)).toEqual(["SO-BAD"])
  })

  it("merges sorted sequences lazily", () => {
    const window = { from: d("2026-01-01"), to: d("2026-01-31") }
    const decoded = Result.getOrThrow(Project.decodeOrders(JSON.stringify([order("A", "EUR", "2025-12-01", "DAIL")])))
    const one = Projection.lazy(decoded.orders, window)
    const merged = Calendars.merge([one.payments, [].values()])
    expect(merged.next().done).toBe(false)
  })
})
