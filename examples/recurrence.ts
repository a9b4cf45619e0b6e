import { LocalDate, Recurrence, Rrule, Sbas, Translation } from "@tppkit/core"
import { Result } from "effect"

// The bank's MNTH from 31 January is a recurrence: the month's last day, moved to the next working day.
const order = { frequency: "MNTH", startDate: LocalDate.parseUnsafe("2024-01-31") } as const
const recurrence = Result.getOrThrow(Recurrence.fromSbas(order))

// As an RRULE: the dates are exact, the business-day convention is not (RRULE dates never move).
const rrule = Rrule.encode(recurrence)
console.log(Translation.verdict(rrule), Translation.getValue(rrule)?.rule) // lossy FREQ=MONTHLY;BYMONTHDAY=-1
if (rrule._tag === "Lossy") console.log(rrule.losses[0]?.field, rrule.losses[0]?.from, "->", rrule.losses[0]?.to)
// convention following -> none

// An RRULE read back: the last Friday of each quarter's last month, which no bank code can say.
const quarterly = Rrule.decode({
  dtstart: LocalDate.parseUnsafe("2024-03-29"),
  rule: "FREQ=MONTHLY;BYDAY=-1FR;BYMONTH=3,6,9,12"
})
const model = Translation.getValue(quarterly)
if (model !== undefined) {
  const code = Sbas.encode(model)
  console.log(code._tag === "Unrepresentable" && code.reason)
  // the bank's codes say every working day, every day, weekly on one weekday, or every 1, 3, 6 or 12 months on one
  // day: not every month on the last Friday in months 3,6,9,12
}
