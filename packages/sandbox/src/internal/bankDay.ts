/**
 * The bank's calendar day in its time zone (docs/bank-interface.md, "Daily limit"): the day of an instant, and
 * the seconds to the next midnight, which is 23 or 25 hours away on clock-change days.
 */
import { LocalDate } from "@tppkit/core"
import { DateTime as Instant } from "effect"

/** The calendar of one time zone. */
export interface BankDay {
  /** The calendar day of an instant (epoch milliseconds) in the bank's time zone. */
  readonly day: (ms: number) => LocalDate.LocalDate
  /** Seconds from the instant to the next midnight in the bank's time zone, at least 1. */
  readonly secondsToNextDay: (ms: number) => number
}

/** The calendar of `timeZone` (an IANA name such as `Europe/Bratislava`). */
export const make = (timeZone: string): BankDay => {
  const zone = Instant.zoneMakeNamedUnsafe(timeZone)
  const day = (ms: number): LocalDate.LocalDate => LocalDate.ofInstant(ms, zone)
  const secondsToNextDay = (ms: number): number => {
    const zoned = Instant.setZoneNamedUnsafe(Instant.makeUnsafe(ms), timeZone)
    const next = Instant.startOf(Instant.add(Instant.startOf(zoned, "day"), { days: 1 }), "day")
    return Math.max(1, Math.ceil((Instant.toEpochMillis(next) - ms) / 1000))
  }
  return { day, secondsToNextDay }
}
