// Why does a payment fall on its date? Trace it, print the steps, and replay the trace without a calendar.
import { DateTrace, LocalDate } from "@tppkit/core"
import { Holidays, Projection } from "@tppkit/schedule"
import { BigDecimal, Result } from "effect"

const d = LocalDate.parseUnsafe
const order = {
  orderId: "SO-SAVINGS",
  frequency: "WEEK" as const,
  startDate: d("2026-01-05"),
  instructedAmount: { value: BigDecimal.fromStringUnsafe("50.00"), currency: "EUR" },
  debtor: { iban: "SK2411000000002612345678" },
  creditor: { iban: "AT611904300234573201" }
}
// the Monday payment of Easter week 2027, on the order's currency's calendar (EUR: TARGET)
const trace = Result.getOrThrow(
  Projection.explain(
    order,
    { calendar: Holidays.ofCurrency, source: { kind: "flag", detail: "--calendar auto" } },
    d("2027-03-29")
  )
)!
console.log(`occurrence ${trace.k} from ${trace.anchor.field} ${LocalDate.format(trace.anchor.date)}`)
console.log(`nominal ${LocalDate.format(trace.nominal)}, ${trace.convention} on ${trace.calendar}`)
for (const day of trace.passed) console.log(`  passed ${LocalDate.format(day.date)}: ${day.why}`)
console.log(`executes ${LocalDate.format(trace.execution)}`)
// the trace holds together on its own: replaying it gives the same date
if (trace.passed[0]?.why !== "Easter Monday" || !Result.isSuccess(DateTrace.replay(trace)))
  throw new Error("unexpected")
if (Result.getOrThrow(DateTrace.replay(trace)) !== trace.execution) throw new Error("the replay differs")
