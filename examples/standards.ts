import { BerlinGroup, Cobs, Translation, UkOpenBanking, Ynab } from "@tppkit/core"

// A UK bank's standing order with Santander's unpadded string: read, with the tolerance reported.
const uk = UkOpenBanking.decodeV3({ Frequency: "IntrvlMnthDay:1:31", FirstPaymentDateTime: "2026-01-31T00:00:00Z" })
console.log(uk.translation._tag, uk.warnings[0]?.read) // Lossy IntrvlMnthDay:01:31
// day 31 of a 30-day month is not defined by the standard: the loss says how tppkit reads it
if (uk.translation._tag === "Lossy") console.log(uk.translation.losses[0]?.to) // clamp

// The same order for a Berlin Group ASPSP, a Czech bank and YNAB.
const recurrence = Translation.getValue(uk.translation)
if (recurrence !== undefined) {
  console.log(Translation.getValue(BerlinGroup.encode(recurrence))?.dayOfExecution) // 31 (the month's last day)
  console.log(Cobs.encode(recurrence)._tag) // Exact: DUE_LAST_DAY_OF_MONTH
  const ynab = Ynab.encode(recurrence)
  // each loss as one sentence: the field, from, to and why
  if (ynab._tag === "Lossy") for (const l of ynab.losses) console.log(Translation.describe(l))
  // A day a short month lacks (missing) changes from paid on the month's last day to not defined by the
  //   standard, because YNAB does not say when a day is paid in a month without it.
  // The business-day convention (convention) changes from following to never moved, because YNAB has no
  //   working-day rule.
}
