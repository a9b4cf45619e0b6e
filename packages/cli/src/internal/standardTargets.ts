/**
 * The other standards `tppkit translate --to` writes besides RRULE and the bank's codes: each recurrence encoded by
 * core's `Standard.encode` (packages/core/README.md, "Other standards") and printed as its JSON record, with the
 * translation's verdict and losses unchanged.
 */
import { type Recurrence, Standard, Translation } from "@tppkit/core"

/** The targets in the order `--to` lists them: core's standards but RRULE and the bank's codes. */
export const standardTargets = [
  "cobs",
  "berlin-group",
  "uk-v3",
  "uk-v4",
  "iso20022",
  "ynab",
  "actual"
] as const satisfies ReadonlyArray<Exclude<Standard.Standard, "rrule" | "sbas">>
/** One of them. */
export type StandardTarget = (typeof standardTargets)[number]

/** Whether a `--to` value names one of these targets. */
export const isStandardTarget = (to: string): to is StandardTarget =>
  to !== "rrule" && to !== "sbas" && (Standard.standards as ReadonlyArray<string>).includes(to)

/** A recurrence in one of these standards, as one line of JSON (the standard's own field names). */
export const encodeTo = (r: Recurrence.Recurrence, to: StandardTarget): Translation.Translation<string> =>
  Translation.map(Standard.encode(r, to), (v) => JSON.stringify(v))
