/**
 * The day both warnings benchmarks sweep (issue 39): `orders` monthly standing orders over `accounts` accounts (one
 * consent each, on every day of the month), each account's listing of the day and of the day before (1 % of the
 * amounts different), and each account's balance of the day: enough for a month, or (one account in ten) for a
 * few days only.
 */
import { LocalDate } from "@tppkit/core"
import type { Projection } from "@tppkit/schedule"
import type { PlanSettings } from "@tppkit/worker"
import { BigDecimal } from "effect"

/** One consent's listings: the day's and the day before's. */
export interface Listing {
  readonly key: string
  readonly today: ReadonlyArray<Projection.ProjectableOrder>
  readonly before: ReadonlyArray<Projection.ProjectableOrder>
}

/** The consents' listings and the accounts' balances of `day`. */
export const make = (
  orders: number,
  accounts: number,
  day: string
): { readonly listings: ReadonlyArray<Listing>; readonly balances: ReadonlyArray<PlanSettings.Balance> } => {
  const ibanOf = (a: number) => `SK00BENCH${String(a).padStart(8, "0")}`
  const listings = Array.from({ length: accounts }, (_, a): Listing => {
    const today: Array<Projection.ProjectableOrder> = []
    const before: Array<Projection.ProjectableOrder> = []
    for (let i = a; i < orders; i += accounts) {
      const order = {
        orderId: `SO-${String(i).padStart(7, "0")}`,
        frequency: "MNTH" as const,
        startDate: LocalDate.ofMonthClamped(2026, 1, 1 + (i % 28)),
        instructedAmount: { value: BigDecimal.make(BigInt(5_000 + (i % 20_000)), 2), currency: "EUR" },
        debtor: { iban: ibanOf(a) },
        creditor: { iban: `SK00CREDIT${String(i % 1000).padStart(6, "0")}` }
      }
      today.push(order)
      before.push(
        i % 100 === 7
          ? { ...order, instructedAmount: { value: BigDecimal.make(BigInt(1_000), 2), currency: "EUR" } }
          : order
      )
    }
    return { key: `bench-${a}`, today, before }
  })
  const balances = listings.map((l, a): PlanSettings.Balance => {
    const month = l.today.reduce((sum, o) => sum + Number(BigDecimal.format(o.instructedAmount.value)), 0)
    return { iban: ibanOf(a), currency: "EUR", amount: (a % 10 === 3 ? month / 4 : month * 2).toFixed(2), date: day }
  })
  return { listings, balances }
}
