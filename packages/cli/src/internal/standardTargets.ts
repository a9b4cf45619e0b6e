/**
 * The other standards `tppkit translate --to` writes besides RRULE and the bank's codes: each recurrence encoded by
 * core's translator for that standard (packages/core/README.md, "Other standards") and printed as its JSON record,
 * with the translation's verdict and losses unchanged.
 */
import { Actual, BerlinGroup, Cobs, Iso20022, type Recurrence, Translation, UkOpenBanking, Ynab } from "@tppkit/core"

/** The targets, as `--to` names them. */
export const standardTargets = ["cobs", "berlin-group", "uk-v3", "uk-v4", "iso20022", "ynab", "actual"] as const
/** One of them. */
export type StandardTarget = (typeof standardTargets)[number]

/** Whether a `--to` value names one of these targets. */
export const isStandardTarget = (to: string): to is StandardTarget =>
  (standardTargets as ReadonlyArray<string>).includes(to)

/** A recurrence in one of these standards, as one line of JSON (the standard's own field names). */
export const encodeTo = (r: Recurrence.Recurrence, to: StandardTarget): Translation.Translation<string> => {
  const line = (t: Translation.Translation<unknown>) => Translation.map(t, (v) => JSON.stringify(v))
  switch (to) {
    case "cobs":
      return line(Cobs.encode(r))
    case "berlin-group":
      return line(BerlinGroup.encode(r))
    case "uk-v3":
      return line(UkOpenBanking.encodeV3(r))
    case "uk-v4":
      return line(UkOpenBanking.encodeV4(r))
    case "iso20022":
      return line(Iso20022.encode(r))
    case "ynab":
      return line(Ynab.encode(r))
    case "actual":
      return line(Actual.encode(r))
  }
}
