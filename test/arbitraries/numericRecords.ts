/**
 * Records of each standard with its numeric fields written as JSON numbers (issue 33, "Numbers are numbers"), with
 * the dates the standard means: shared by the library's test (test/core/Orders.test.ts) and the command line's
 * (test/cli/numbers.test.ts).
 */

/**
 * Every numeric field of each standard's table in packages/core/README.md ("Other standards"), written as a JSON
 * number, with the dates the standard means (convention none: nominal dates). Issue 33's cases among them.
 */
export const numeric: ReadonlyArray<{
  readonly name: string
  readonly record: Record<string, unknown>
  readonly dates: ReadonlyArray<string>
  /** The tolerance a number where the standard wants text raises, by field. */
  readonly tolerated?: string
}> = [
  {
    name: "Actual interval",
    record: { frequency: "monthly", interval: 1, start: "2027-01-15" },
    dates: ["2027-01-15", "2027-02-15", "2027-03-15", "2027-04-15", "2027-05-15", "2027-06-15"]
  },
  {
    name: "Actual patterns value (day 15 from the 1st)",
    record: { frequency: "monthly", interval: 1, patterns: [{ type: "day", value: 15 }], start: "2027-01-01" },
    dates: ["2027-01-15", "2027-02-15", "2027-03-15", "2027-04-15", "2027-05-15", "2027-06-15"]
  },
  {
    name: "Actual endOccurrences",
    record: {
      frequency: "monthly",
      interval: 2,
      start: "2027-01-10",
      endMode: "after_n_occurrences",
      endOccurrences: 3
    },
    dates: ["2027-01-10", "2027-03-10", "2027-05-10"]
  },
  {
    name: "COBS maxIterations and intervalDue",
    record: {
      requestedExecutionDate: "2027-01-01",
      standingOrder: {
        execution: {
          interval: "MONTHLY",
          intervalDue: 20,
          mode: "AFTER_MAX_ITERATION_EXCEEDED",
          modeDue: "DUE_DAY_OF_MONTH"
        },
        validity: { maxIterations: 3 }
      }
    },
    // intervalDue is a number in the schema (the examples' text "20" is read too): no tolerance
    dates: ["2027-01-20", "2027-02-20", "2027-03-20"]
  },
  {
    name: "Berlin Group multiplicator and dayOfExecution",
    record: {
      additionalInformationStructured: {
        standingOrderDetails: {
          startDate: "2027-01-01",
          frequency: "Monthly",
          multiplicator: 3,
          dayOfExecution: 15,
          executionRule: "following"
        }
      }
    },
    dates: ["2027-01-15", "2027-04-15", "2027-07-15", "2027-10-15", "2028-01-15", "2028-04-15"],
    tolerated: "dayOfExecution"
  },
  {
    name: "Berlin Group monthsOfExecution",
    record: {
      standingOrderDetails: {
        startDate: "2027-01-01",
        frequency: "MonthlyVariable",
        monthsOfExecution: [3, 9],
        dayOfExecution: "5",
        executionRule: "following"
      }
    },
    dates: ["2027-03-05", "2027-09-05", "2028-03-05", "2028-09-05", "2029-03-05", "2029-09-05"],
    tolerated: "monthsOfExecution"
  },
  {
    name: "UK v3 NumberOfPayments",
    record: {
      Frequency: "IntrvlMnthDay:01:05",
      FirstPaymentDateTime: "2027-01-05T00:00:00+00:00",
      NumberOfPayments: 3
    },
    dates: ["2027-01-05", "2027-02-05", "2027-03-05"],
    tolerated: "NumberOfPayments"
  },
  {
    name: "UK v4 CountPerPeriod",
    record: {
      MandateRelatedInformation: {
        Frequency: { Type: "MNTH", CountPerPeriod: 1 },
        FirstPaymentDateTime: "2027-01-12T00:00:00+00:00"
      }
    },
    dates: ["2027-01-12", "2027-02-12", "2027-03-12", "2027-04-12", "2027-05-12", "2027-06-12"]
  },
  {
    name: "UK v4 PointInTime",
    record: {
      MandateRelatedInformation: {
        Frequency: { Type: "MNTH", PointInTime: 7 },
        FirstPaymentDateTime: "2027-01-07T00:00:00+00:00"
      }
    },
    dates: ["2027-01-07", "2027-02-07", "2027-03-07", "2027-04-07", "2027-05-07", "2027-06-07"],
    tolerated: "PointInTime"
  },
  {
    name: "ISO 20022 CntPerPrd",
    record: { frequency: { Prd: { Tp: "MNTH", CntPerPrd: 1 } }, startDate: "2027-01-08" },
    dates: ["2027-01-08", "2027-02-08", "2027-03-08", "2027-04-08", "2027-05-08", "2027-06-08"]
  },
  {
    name: "ISO 20022 PtInTm",
    record: { frequency: { PtInTm: { Tp: "MNTH", PtInTm: 9 } }, startDate: "2027-01-09" },
    dates: ["2027-01-09", "2027-02-09", "2027-03-09", "2027-04-09", "2027-05-09", "2027-06-09"],
    tolerated: "PtInTm"
  }
]
