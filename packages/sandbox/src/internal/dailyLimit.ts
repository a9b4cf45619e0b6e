/**
 * The daily limit of standing-order listings without the customer present (docs/bank-interface.md, "Daily limit": 4 a
 * day, counted per consent and calendar day in the bank's time zone). Whether the customer is present is core's rule,
 * `Headers.isPresent`: a `PSU-Last-Logged-Time` at most one hour old and not in the future beyond the configured clock
 * skew. The counters live in the value `make` returns.
 */
import { Headers } from "@tppkit/core"
import type { BankDay } from "./bankDay.ts"
import type { Failure } from "./errors.ts"

/** Listings allowed per day without the customer present. */
export const dailyLimit = 4

/** The limit over one set of counters. */
export const make = (calendar: BankDay, clockSkewMillis: number) => {
  const used = new Map<string, number>()
  let today = Number.NaN

  /**
   * Counts one listing of `consent` at `now`: `attended` when the customer is present (not counted), `unattended`
   * when counted within the limit, or the 429 with `Retry-After` until the next day once the limit is reached.
   */
  const spend = (consent: string, now: number, lastLogged: string | undefined): "attended" | "unattended" | Failure => {
    if (
      Headers.isPresent(
        lastLogged === undefined ? undefined : Headers.lastLoggedMillis(lastLogged),
        now,
        clockSkewMillis
      )
    ) {
      return "attended"
    }
    const day = calendar.day(now)
    // counters of other days are of no further use (the clock may also be moved back: keep only today's)
    if (day !== today) {
      used.clear()
      today = day
    }
    const count = used.get(consent) ?? 0
    if (count >= dailyLimit) {
      return {
        status: 429,
        code: "ACCESS_EXCEEDED",
        title: "Too Many Requests",
        detail: `the limit of ${dailyLimit} standing-order listings a day without the customer present is reached`,
        headers: { "retry-after": String(calendar.secondsToNextDay(now)) }
      }
    }
    used.set(consent, count + 1)
    return "unattended"
  }

  return { spend }
}
