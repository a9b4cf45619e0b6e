// Check a bank's listed nextDates against tppkit's dates, and let the evidence name the bank's rule.
import { BankRule, LocalDate } from "@tppkit/core"
import { Reconciliation } from "@tppkit/schedule"

const d = LocalDate.parseUnsafe
// listed on Saturday 25 July 2026; 1 August 2026 is a Saturday, 15 August too
const listing = [
  { orderId: "SO-RENT", frequency: "MNTH" as const, startDate: d("2026-01-01"), nextDate: d("2026-07-31") },
  { orderId: "SO-GYM", frequency: "MNTH" as const, startDate: d("2026-01-15"), nextDate: d("2026-08-14") },
  { orderId: "SO-LOAN", frequency: "MNTH" as const, startDate: d("2026-01-28"), nextDate: d("2026-07-28") },
  { orderId: "SO-ODD", frequency: "MNTH" as const, startDate: d("2026-01-10"), nextDate: d("2026-08-19") }
]
const r = Reconciliation.reconcile(listing, { asOf: d("2026-07-25") })

for (const o of Reconciliation.differences(r)) {
  const rule = Reconciliation.explanation(r, o)
  console.log(
    `${o.orderId}: engine ${LocalDate.format(o.expected!)}, bank ${LocalDate.format(o.listed)}, ${o.status}${rule === undefined ? "" : ` (${BankRule.describe(rule)})`}`
  )
}
// the rent and the gym moved back to Friday: every candidate that pays "preceding" explains them; 19 August is
// no date of an order paying on the 10th under any rule
if (r.counts.explained !== 2 || r.counts.anomaly !== 1 || !Reconciliation.hasFindings(r)) throw new Error("unexpected")
const inference = r.inference
console.log(
  inference._tag === "Inferred"
    ? `the bank's rule: ${BankRule.describe(inference.rule)}`
    : `not enough evidence: ${inference.tied.map(BankRule.describe).join(", ")}`
)
