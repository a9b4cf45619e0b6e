/**
 * YNAB's `ScheduledTransactionFrequency`: every value, read from a schedule whose `date_first` is Saturday 31 January
 * 2026 (a day short months lack: YNAB does not say when they pay).
 */
import { Ynab } from "@tppkit/core"
import { describe } from "vitest"
import { type Row, table } from "./goldenTable.ts"

const y = (frequency: string) => ({ frequency, date_first: "2026-01-31" })
const notDefined = [["missing", "not defined", "clamp"]] as const

describe("YNAB: every frequency", () => {
  table(Ynab.decode, [
    { name: "never", record: y("never"), verdict: "unrepresentable", reason: "never: one transaction, not a schedule" },
    {
      name: "daily",
      record: y("daily"),
      verdict: "exact",
      dates: ["2026-01-31", "2026-02-01", "2026-02-02"],
      convention: "none"
    },
    { name: "weekly", record: y("weekly"), verdict: "exact", dates: ["2026-01-31", "2026-02-07", "2026-02-14"] },
    {
      name: "everyOtherWeek",
      record: y("everyOtherWeek"),
      verdict: "exact",
      dates: ["2026-01-31", "2026-02-14", "2026-02-28"]
    },
    {
      name: "twiceAMonth (the second day not given)",
      record: y("twiceAMonth"),
      verdict: "unrepresentable",
      reason: "twiceAMonth: YNAB does not give the second day"
    },
    {
      name: "every4Weeks",
      record: y("every4Weeks"),
      verdict: "exact",
      dates: ["2026-01-31", "2026-02-28", "2026-03-28", "2026-04-25"]
    },
    {
      name: "monthly",
      record: y("monthly"),
      verdict: "lossy",
      dates: ["2026-01-31", "2026-02-28", "2026-03-31"],
      losses: notDefined
    },
    {
      name: "everyOtherMonth",
      record: y("everyOtherMonth"),
      verdict: "lossy",
      dates: ["2026-01-31", "2026-03-31", "2026-05-31"],
      losses: notDefined
    },
    {
      name: "every3Months",
      record: y("every3Months"),
      verdict: "lossy",
      dates: ["2026-01-31", "2026-04-30", "2026-07-31"],
      losses: notDefined
    },
    {
      name: "every4Months",
      record: y("every4Months"),
      verdict: "lossy",
      dates: ["2026-01-31", "2026-05-31", "2026-09-30"],
      losses: notDefined
    },
    {
      name: "twiceAYear",
      record: y("twiceAYear"),
      verdict: "exact",
      dates: ["2026-01-31", "2026-07-31", "2027-01-31"]
    },
    {
      name: "yearly",
      record: y("yearly"),
      verdict: "exact",
      dates: ["2026-01-31", "2027-01-31"]
    },
    {
      name: "everyOtherYear",
      record: y("everyOtherYear"),
      verdict: "exact",
      dates: ["2026-01-31", "2028-01-31", "2030-01-31"]
    }
  ] satisfies ReadonlyArray<Row>)
})
