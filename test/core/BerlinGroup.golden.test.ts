/**
 * Berlin Group NextGenPSD2 `standingOrderDetails`: every frequency name, `executionRule`, `withinAMonthFlag`,
 * `monthsOfExecution`, `multiplicator`, `dayOfExecution` (with 31 as ultimo), and the malformed records banks and the
 * standard's own example send; the start on Monday 5 January 2026.
 */
import { BerlinGroup } from "@tppkit/core"
import { describe } from "vitest"
import { type Row, table } from "./goldenTable.ts"

const sod = (details: object) => ({
  additionalInformationStructured: { standingOrderDetails: { startDate: "2026-01-05", ...details } }
})
const month5 = ["2026-01-05", "2026-02-05", "2026-03-05", "2026-04-05"]

describe("Berlin Group: every frequency name", () => {
  table(BerlinGroup.decode, [
    {
      // the standard does not say whether Daily pays on weekends: read as every calendar day, and said (issue 34)
      name: "Daily (every calendar day, never moved, the standard silent on weekends)",
      record: sod({ frequency: "Daily" }),
      verdict: "lossy",
      dates: ["2026-01-05", "2026-01-06", "2026-01-07"],
      losses: [["frequency", "Daily", "every calendar day"]],
      convention: "none"
    },
    {
      name: "Weekly (the startDate's weekday)",
      record: sod({ frequency: "Weekly" }),
      verdict: "exact",
      dates: ["2026-01-05", "2026-01-12", "2026-01-19"],
      convention: "following"
    },
    {
      name: "EveryTwoWeeks",
      record: sod({ frequency: "EveryTwoWeeks" }),
      verdict: "exact",
      dates: ["2026-01-05", "2026-01-19", "2026-02-02"]
    },
    { name: "Monthly (the startDate's day)", record: sod({ frequency: "Monthly" }), verdict: "exact", dates: month5 },
    {
      name: "EveryTwoMonths",
      record: sod({ frequency: "EveryTwoMonths" }),
      verdict: "exact",
      dates: ["2026-01-05", "2026-03-05", "2026-05-05"]
    },
    {
      name: "Quarterly",
      record: sod({ frequency: "Quarterly" }),
      verdict: "exact",
      dates: ["2026-01-05", "2026-04-05", "2026-07-05", "2026-10-05"]
    },
    {
      name: "SemiAnnual",
      record: sod({ frequency: "SemiAnnual" }),
      verdict: "exact",
      dates: ["2026-01-05", "2026-07-05", "2027-01-05"]
    },
    {
      name: "Annual",
      record: sod({ frequency: "Annual" }),
      verdict: "exact",
      dates: ["2026-01-05", "2027-01-05", "2028-01-05"]
    },
    {
      name: "MonthlyVariable + monthsOfExecution 3, 6, 9 on the 10th",
      record: sod({ frequency: "MonthlyVariable", monthsOfExecution: ["3", "6", "9"], dayOfExecution: "10" }),
      verdict: "exact",
      dates: ["2026-03-10", "2026-06-10", "2026-09-10", "2027-03-10"]
    },
    {
      name: "dayOfExecution 31 is ultimo (exact)",
      record: sod({ frequency: "Monthly", dayOfExecution: "31" }),
      verdict: "exact",
      dates: ["2026-01-31", "2026-02-28", "2026-03-31", "2026-04-30"]
    },
    {
      name: "dayOfExecution 30 (short months not defined)",
      record: sod({ frequency: "Monthly", dayOfExecution: "30" }),
      verdict: "lossy",
      dates: ["2026-01-30", "2026-02-28", "2026-03-30"],
      losses: [["missing", "not defined", "clamp"]]
    },
    {
      name: "dayOfExecution 1 after the startDate: the first applicable day is 1 February",
      record: sod({ frequency: "Monthly", dayOfExecution: "1" }),
      verdict: "exact",
      dates: ["2026-02-01", "2026-03-01", "2026-04-01"]
    },
    {
      name: "executionRule preceding (Saturday 10 January paid on Friday 9th)",
      record: sod({ frequency: "Monthly", dayOfExecution: "10", executionRule: "preceding" }),
      verdict: "exact",
      convention: "preceding",
      dates: ["2026-01-10", "2026-02-10"],
      executions: ["2026-01-09", "2026-02-10"]
    },
    {
      name: "executionRule following + withinAMonthFlag (modified: Saturday 31 January paid on Friday 30th)",
      record: sod({ frequency: "Monthly", dayOfExecution: "31", executionRule: "following", withinAMonthFlag: true }),
      verdict: "exact",
      convention: "modified-following",
      executions: ["2026-01-30", "2026-02-27", "2026-03-31"]
    },
    {
      name: "multiplicator 3 on Monthly (every three months)",
      record: sod({ frequency: "Monthly", dayOfExecution: "10", multiplicator: 3 }),
      verdict: "exact",
      dates: ["2026-01-10", "2026-04-10", "2026-07-10"]
    },
    {
      name: "endDate (the last applicable day)",
      record: sod({ frequency: "Monthly", dayOfExecution: "5", endDate: "2026-03-31" }),
      verdict: "exact",
      dates: month5.slice(0, 3),
      end: "2026-03-31"
    },
    {
      name: "the periodic-payment shape (fields at the top)",
      record: { startDate: "2026-01-05", frequency: "Monthly", dayOfExecution: "5" },
      verdict: "exact",
      dates: month5
    },
    // where Berlin Group is silent: read one stated way, a loss
    {
      name: "Weekly + dayOfExecution (not defined for weekly codes)",
      record: sod({ frequency: "Weekly", dayOfExecution: "3" }),
      verdict: "lossy",
      dates: ["2026-01-05", "2026-01-12"],
      losses: [["dayOfExecution", "3", "the startDate's weekday"]]
    },
    {
      name: "Daily + executionRule (whether weekends move is not defined)",
      record: sod({ frequency: "Daily", executionRule: "following" }),
      verdict: "lossy",
      convention: "none",
      losses: [["executionRule", "following", "not applied"]]
    },
    {
      name: "an unknown frequency",
      record: sod({ frequency: "Fortnightly" }),
      verdict: "unrepresentable",
      reason: '"Fortnightly" is not a Berlin Group frequency code'
    },
    {
      name: "dayOfExecution 32",
      record: sod({ frequency: "Monthly", dayOfExecution: "32" }),
      verdict: "unrepresentable",
      reason: "dayOfExecution 32 is not a day 1..31"
    }
  ] satisfies ReadonlyArray<Row>)
})

describe("Berlin Group: the records banks and the standard's own example send", () => {
  table(BerlinGroup.decode, [
    {
      name: "the 1.3.9 example: fields outside standingOrderDetails and frequency monthly",
      record: {
        additionalInformationStructured: { standingOrderDetails: { startDate: "2026-01-05" } },
        endDate: "2026-12-31",
        executionRule: "preceding",
        frequency: "monthly",
        dayOfExecution: "24"
      },
      verdict: "exact",
      convention: "preceding",
      end: "2026-12-31",
      dates: ["2026-01-24", "2026-02-24"],
      executions: ["2026-01-23", "2026-02-24"],
      warnings: [
        ["endDate", "standingOrderDetails.endDate"],
        ["frequency", "standingOrderDetails.frequency"],
        ["executionRule", "standingOrderDetails.executionRule"],
        ["dayOfExecution", "standingOrderDetails.dayOfExecution"],
        ["frequency", "Monthly"]
      ]
    },
    {
      name: 'dayOfExecution "01" (the older leading-zero form)',
      record: sod({ frequency: "Monthly", dayOfExecution: "01" }),
      verdict: "exact",
      dates: ["2026-02-01", "2026-03-01"],
      warnings: [["dayOfExecution", "1"]]
    },
    {
      name: "frequencyCode for frequency (generated examples)",
      record: sod({ frequencyCode: "Monthly", dayOfExecution: "5" }),
      verdict: "exact",
      dates: month5,
      warnings: [["frequency", "frequency"]]
    },
    {
      name: "withinAMonthFlag as text",
      record: sod({ frequency: "Monthly", dayOfExecution: "5", withinAMonthFlag: "true", executionRule: "following" }),
      verdict: "exact",
      convention: "modified-following",
      warnings: [["withinAMonthFlag", "true"]]
    },
    {
      name: "executionRule Following (capitalised)",
      record: sod({ frequency: "Monthly", dayOfExecution: "5", executionRule: "Following" }),
      verdict: "exact",
      convention: "following",
      warnings: [["executionRule", "following"]]
    },
    {
      name: "monthsOfExecution without MonthlyVariable (ignored)",
      record: sod({ frequency: "Monthly", dayOfExecution: "5", monthsOfExecution: ["1"] }),
      verdict: "exact",
      dates: month5,
      warnings: [["monthsOfExecution", "ignored"]]
    },
    {
      name: "monthsOfExecution padded and repeated",
      record: sod({ frequency: "MonthlyVariable", monthsOfExecution: ["03", "3", "1"], dayOfExecution: "10" }),
      verdict: "exact",
      dates: ["2026-01-10", "2026-03-10", "2027-01-10"],
      warnings: [["monthsOfExecution", "1,3"]]
    }
  ] satisfies ReadonlyArray<Row>)
})
