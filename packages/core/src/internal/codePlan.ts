/**
 * The bank's codes' fast path inside the engine (packages/core/README.md, "Nominal dates"): the plan of a code's
 * recurrence (`Recurrence.fromSbas`) made straight from the code, its anchor and its end, without the general rule's
 * analysis. `Occurrence.planOf` takes it for a recurrence a code made, `Occurrence.makePlan` for the bank's record;
 * the plan is the one the general path makes of the same recurrence (a property test holds the dates equal).
 */
import type * as BusinessDayConvention from "../BusinessDayConvention.ts"
import type * as Calendar from "../Calendar.ts"
import * as Frequency from "../Frequency.ts"
import * as LocalDate from "../LocalDate.ts"
import { PlanData } from "./plan.ts"
import * as WorkingDays from "./workingDays.ts"

/** The day past every supported date: a nominal date that does not exist. */
const END = WorkingDays.BEYOND_MAX

/** Nominal date k of a month-based schedule (packages/core/README.md, "Nominal dates"). */
export const rawNominal = (anchorMonth: number, anchorDay: number, monthStep: number, k: number): number => {
  const index = anchorMonth + monthStep * k
  return index > WorkingDays.MAX_MONTH_INDEX ? END : WorkingDays.monthDay(index, anchorDay)
}

/**
 * The plan of a code anchored on `anchor` (a valid day number), ending on `endDate` if any: DAIL every working day,
 * DAI7 every day, WEEK every seven days, MNTH/QUTR/SEMI/YEAR on the anchor's day every 1/3/6/12 months (clamped);
 * `convention` moves the codes that use one (not DAIL or DAI7).
 */
export const codePlan = (
  frequency: Frequency.Frequency,
  anchor: LocalDate.LocalDate,
  endDate: LocalDate.LocalDate | undefined,
  calendar: Calendar.Calendar,
  convention: BusinessDayConvention.BusinessDayConvention
): PlanData => {
  const anchorMonth = WorkingDays.monthIndexOf(anchor)
  const anchorDay = anchor - WorkingDays.monthStart(anchorMonth) + 1
  const lastNominal = endDate === undefined ? LocalDate.MAX : endDate
  const dayStep = frequency === "DAI7" ? 1 : frequency === "WEEK" ? 7 : 0
  const monthStep = Frequency.monthStep(frequency) ?? 0
  let lastK = -1
  if (lastNominal >= anchor) {
    if (dayStep !== 0) lastK = Math.floor((lastNominal - anchor) / dayStep)
    else if (monthStep !== 0) {
      // without an end date the last nominal date is in December 9999 or before, never past it
      lastK = Math.floor(
        ((endDate === undefined ? WorkingDays.MAX_MONTH_INDEX : WorkingDays.monthIndexOf(lastNominal)) - anchorMonth) /
          monthStep
      )
      if (endDate !== undefined && rawNominal(anchorMonth, anchorDay, monthStep, lastK) > lastNominal) lastK--
    }
  }
  return new PlanData(
    frequency === "DAIL",
    1,
    undefined,
    undefined,
    anchor,
    endDate,
    calendar,
    convention,
    Frequency.usesConvention(frequency) && convention !== "none",
    dayStep,
    monthStep,
    anchorMonth,
    anchorDay,
    lastNominal,
    lastK
  )
}
