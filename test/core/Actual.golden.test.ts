/**
 * Actual Budget's `RecurConfig`: every `frequency`, day and weekday `patterns` (−1 the last), `skipWeekend` with both
 * `weekendSolveMode`s, every `endMode`; the start Monday 5 January 2026 unless the row says.
 */
import { Actual } from "@tppkit/core"
import { describe } from "vitest"
import { type Row, table } from "./goldenTable.ts"

const a = (config: object) => ({ interval: 1, start: "2026-01-05", endMode: "never", ...config })

describe("Actual: every frequency, pattern, weekend mode and end mode", () => {
  table(Actual.decode, [
    {
      name: "daily",
      record: a({ frequency: "daily" }),
      verdict: "exact",
      dates: ["2026-01-05", "2026-01-06", "2026-01-07"],
      convention: "none"
    },
    {
      name: "weekly, interval 2",
      record: a({ frequency: "weekly", interval: 2 }),
      verdict: "exact",
      dates: ["2026-01-05", "2026-01-19", "2026-02-02"]
    },
    {
      name: "monthly, pattern day -1 (the last day)",
      record: a({ frequency: "monthly", patterns: [{ type: "day", value: -1 }] }),
      verdict: "exact",
      dates: ["2026-01-31", "2026-02-28", "2026-03-31"]
    },
    {
      name: "monthly, pattern FR -1 (the last Friday)",
      record: a({ frequency: "monthly", patterns: [{ type: "FR", value: -1 }] }),
      verdict: "exact",
      dates: ["2026-01-30", "2026-02-27", "2026-03-27", "2026-04-24"]
    },
    {
      name: "monthly, interval 3, from the 31st (short months not defined)",
      record: a({ frequency: "monthly", interval: 3, start: "2026-01-31" }),
      verdict: "lossy",
      dates: ["2026-01-31", "2026-04-30", "2026-07-31"],
      losses: [["missing", "not defined", "clamp"]]
    },
    {
      name: "yearly, after_n_occurrences 3",
      record: a({ frequency: "yearly", endMode: "after_n_occurrences", endOccurrences: 3 }),
      verdict: "exact",
      dates: ["2026-01-05", "2027-01-05", "2028-01-05"],
      count: 3
    },
    {
      name: "skipWeekend before, on_date (Saturday 10 January paid on Friday 9th)",
      record: a({
        frequency: "monthly",
        start: "2026-01-10",
        endMode: "on_date",
        endDate: "2026-03-31",
        skipWeekend: true,
        weekendSolveMode: "before"
      }),
      verdict: "exact",
      convention: "preceding",
      end: "2026-03-31",
      executions: ["2026-01-09", "2026-02-10", "2026-03-10"]
    },
    {
      name: "skipWeekend after (Saturday 10 January paid on Monday 12th)",
      record: a({ frequency: "monthly", start: "2026-01-10", skipWeekend: true, weekendSolveMode: "after" }),
      verdict: "exact",
      convention: "following",
      executions: ["2026-01-12", "2026-02-10"]
    },
    {
      name: "two day patterns (several days a month)",
      record: a({
        frequency: "monthly",
        patterns: [
          { type: "day", value: 5 },
          { type: "day", value: 20 }
        ]
      }),
      verdict: "unrepresentable",
      reason: "several days a month: tppkit's recurrences have one"
    },
    {
      name: "an unknown frequency",
      record: a({ frequency: "hourly" }),
      verdict: "unrepresentable",
      reason: "hourly is not an Actual frequency"
    }
  ] satisfies ReadonlyArray<Row>)
})
