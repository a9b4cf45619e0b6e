/**
 * COBS (Czech Open Banking Standard): every `interval`, `intervalDue` at its published bounds, every `modeDue` and
 * `mode`, `validity`, `exceptions` (stopages and breaks), and the spellings banks send; the requested execution date
 * Monday 5 January 2026.
 */
import { Cobs } from "@tppkit/core"
import { describe } from "vitest"
import { type Row, table } from "./goldenTable.ts"

const c = (execution: object, extra: object = {}) => ({
  requestedExecutionDate: "2026-01-05",
  standingOrder: { execution: { mode: "UNTIL_CANCELLATION", ...execution }, ...extra }
})
const month5 = ["2026-01-05", "2026-02-05", "2026-03-05", "2026-04-05"]
const notDefined = (due: string) => ["intervalDue", due, "not defined"] as const

describe("COBS: every interval", () => {
  table(Cobs.decode, [
    {
      name: "DAILY (non-banking days not defined: every calendar day)",
      record: c({ interval: "DAILY" }),
      verdict: "lossy",
      dates: ["2026-01-05", "2026-01-06", "2026-01-07"],
      convention: "none",
      losses: [["interval", "DAILY", "every calendar day"]]
    },
    {
      name: "WEEKLY + intervalDue 3 (Wednesday)",
      record: c({ interval: "WEEKLY", intervalDue: "3" }),
      verdict: "exact",
      dates: ["2026-01-07", "2026-01-14", "2026-01-21"]
    },
    {
      name: "MONTHLY + intervalDue 10",
      record: c({ interval: "MONTHLY", intervalDue: "10" }),
      verdict: "exact",
      dates: ["2026-01-10", "2026-02-10", "2026-03-10"],
      convention: "following"
    },
    {
      name: "MONTHLY + intervalDue 28 (the largest)",
      record: c({ interval: "MONTHLY", intervalDue: "28" }),
      verdict: "exact",
      dates: ["2026-01-28", "2026-02-28", "2026-03-28"]
    },
    {
      name: "BI_MONTHLY + intervalDue 2 (its meaning not defined: the start's day and month)",
      record: c({ interval: "BI_MONTHLY", intervalDue: "2" }),
      verdict: "lossy",
      dates: ["2026-01-05", "2026-03-05", "2026-05-05"],
      losses: [notDefined("2")]
    },
    {
      name: "QUARTERLY + intervalDue 1 (not defined)",
      record: c({ interval: "QUARTERLY", intervalDue: "1" }),
      verdict: "lossy",
      dates: ["2026-01-05", "2026-04-05", "2026-07-05"],
      losses: [notDefined("1")]
    },
    {
      name: "QUARTERLY without intervalDue",
      record: c({ interval: "QUARTERLY" }),
      verdict: "exact",
      dates: ["2026-01-05", "2026-04-05", "2026-07-05"]
    },
    {
      name: "HALFYEARLY",
      record: c({ interval: "HALFYEARLY" }),
      verdict: "exact",
      dates: ["2026-01-05", "2026-07-05", "2027-01-05"]
    },
    {
      name: "YEARLY + intervalDue 12 (not defined)",
      record: c({ interval: "YEARLY", intervalDue: "12" }),
      verdict: "lossy",
      dates: ["2026-01-05", "2027-01-05"],
      losses: [notDefined("12")]
    },
    {
      name: "IRREGULAR",
      record: c({ interval: "IRREGULAR" }),
      verdict: "unrepresentable",
      reason: "IRREGULAR: the order pays on no schedule"
    }
  ] satisfies ReadonlyArray<Row>)
})

describe("COBS: every modeDue (Saturday 10 January)", () => {
  table(Cobs.decode, [
    {
      name: "DUE_DAY_OF_MONTH (never moved)",
      record: c({ interval: "MONTHLY", intervalDue: "10", modeDue: "DUE_DAY_OF_MONTH" }),
      verdict: "exact",
      convention: "none",
      executions: ["2026-01-10", "2026-02-10"]
    },
    {
      name: "DUE_OR_BEFORE_DAY_OF_MONTH (Friday 9th)",
      record: c({ interval: "MONTHLY", intervalDue: "10", modeDue: "DUE_OR_BEFORE_DAY_OF_MONTH" }),
      verdict: "exact",
      convention: "preceding",
      executions: ["2026-01-09", "2026-02-10"]
    },
    {
      name: "DUE_OR_NEXT_DAY_OF_MONTH (Monday 12th)",
      record: c({ interval: "MONTHLY", intervalDue: "10", modeDue: "DUE_OR_NEXT_DAY_OF_MONTH" }),
      verdict: "exact",
      convention: "following",
      executions: ["2026-01-12", "2026-02-10"]
    },
    {
      name: "DUE_LAST_DAY_OF_MONTH (the month's last day; intervalDue aside)",
      record: c({ interval: "MONTHLY", intervalDue: "10", modeDue: "DUE_LAST_DAY_OF_MONTH" }),
      verdict: "exact",
      dates: ["2026-01-31", "2026-02-28", "2026-03-31"]
    }
  ] satisfies ReadonlyArray<Row>)
})

describe("COBS: every mode, validity and exceptions", () => {
  table(Cobs.decode, [
    {
      name: "UNTIL_DATE + lastExecutionDate",
      record: c(
        { interval: "MONTHLY", intervalDue: "5", mode: "UNTIL_DATE" },
        { validity: { lastExecutionDate: "2026-03-31" } }
      ),
      verdict: "exact",
      dates: month5.slice(0, 3),
      end: "2026-03-31"
    },
    {
      name: "AFTER_MAX_ITERATION_EXCEEDED + maxIterations 3",
      record: c(
        { interval: "MONTHLY", intervalDue: "5", mode: "AFTER_MAX_ITERATION_EXCEEDED" },
        { validity: { maxIterations: 3 } }
      ),
      verdict: "exact",
      dates: month5.slice(0, 3),
      count: 3
    },
    {
      name: "MAX_AMOUNT_EXCEEDED (the dates alone cannot say when the total is reached)",
      record: c(
        { interval: "MONTHLY", intervalDue: "5", mode: "MAX_AMOUNT_EXCEEDED" },
        { validity: { maxAmount: { value: 100, currency: "CZK" } } }
      ),
      verdict: "lossy",
      dates: month5,
      losses: [["maxAmount", "100 CZK", "no end"]]
    },
    {
      name: "UNTIL_CANCELLATION",
      record: c({ interval: "MONTHLY", intervalDue: "5" }),
      verdict: "exact",
      dates: month5
    },
    {
      name: "stopages FEBRUARY, MARCH",
      record: c({ interval: "MONTHLY", intervalDue: "5" }, { exceptions: { stopages: ["FEBRUARY", "MARCH"] } }),
      verdict: "exact",
      dates: ["2026-01-05", "2026-04-05", "2026-05-05"]
    },
    {
      name: "a break 1 February to 31 March",
      record: c(
        { interval: "MONTHLY", intervalDue: "5" },
        { exceptions: { breaks: [{ validFromDate: "2026-02-01", validToDate: "2026-03-31" }] } }
      ),
      verdict: "exact",
      dates: ["2026-01-05", "2026-04-05", "2026-05-05"]
    }
  ] satisfies ReadonlyArray<Row>)
})

describe("COBS: what banks send", () => {
  table(Cobs.decode, [
    {
      name: "intervalDue 30 for MONTHLY (allowed 1..28; short months not defined)",
      record: c({ interval: "MONTHLY", intervalDue: "30" }),
      verdict: "lossy",
      dates: ["2026-01-30", "2026-02-28", "2026-03-30"],
      warnings: [["intervalDue", "30"]],
      losses: [["missing", "not defined", "clamp"]]
    },
    {
      name: "a lower-case interval and a padded intervalDue",
      record: c({ interval: "monthly", intervalDue: "05" }),
      verdict: "exact",
      dates: month5,
      warnings: [
        ["interval", "MONTHLY"],
        ["intervalDue", "5"]
      ]
    },
    {
      name: "stoppages (spelt as in English) with a lower-case month",
      record: c({ interval: "MONTHLY", intervalDue: "5" }, { exceptions: { stoppages: ["february"] } }),
      verdict: "exact",
      dates: ["2026-01-05", "2026-03-05", "2026-04-05"],
      warnings: [
        ["stopages", "stopages"],
        ["stopages", "FEBRUARY"]
      ]
    }
  ] satisfies ReadonlyArray<Row>)
})
