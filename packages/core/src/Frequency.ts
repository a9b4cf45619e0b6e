/**
 * The frequency codes of a standing order (docs/bank-interface.md, "Standing-order list").
 *
 * @since 0.1.0
 */
import { Schema } from "effect"

/** Every frequency code the bank uses, in the document's order. */
export const codes = ["DAIL", "DAI7", "WEEK", "MNTH", "QUTR", "SEMI", "YEAR"] as const

/**
 * A frequency code: DAIL every working day, DAI7 every calendar day, WEEK weekly on the start's weekday,
 * MNTH / QUTR / SEMI / YEAR every 1 / 3 / 6 / 12 months on the start's day of month.
 */
export const Frequency = Schema.Literals(codes)

/** A frequency code. */
export type Frequency = typeof Frequency.Type

/** The month step of a month-based code (MNTH 1, QUTR 3, SEMI 6, YEAR 12), or `undefined` for day-based codes. */
export const monthStep = (f: Frequency): number | undefined => {
  switch (f) {
    case "MNTH":
      return 1
    case "QUTR":
      return 3
    case "SEMI":
      return 6
    case "YEAR":
      return 12
    case "DAIL":
    case "DAI7":
    case "WEEK":
      return undefined
  }
}

/** Whether the business-day convention applies to this code (all but DAIL and DAI7). */
export const usesConvention = (f: Frequency): boolean => f !== "DAIL" && f !== "DAI7"
