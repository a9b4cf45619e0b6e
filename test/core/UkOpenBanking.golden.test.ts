/**
 * UK Open Banking v3 `Frequency` strings (every form of the published pattern) and v4 `OBFrequency6` objects (every
 * code of the API enum and of the OB internal code set, the conformance suite's default), and the strings real banks
 * sent, read with the first payment on Monday 5 January 2026 (docs: packages/core/README.md, "Other standards").
 */
import { UkOpenBanking } from "@tppkit/core"
import { describe } from "vitest"
import { type Row, table } from "./goldenTable.ts"

const first = "2026-01-05T00:00:00+00:00"
const v3 = (Frequency: string, extra: object = {}) => ({ Frequency, FirstPaymentDateTime: first, ...extra })
const month5 = ["2026-01-05", "2026-02-05", "2026-03-05", "2026-04-05"]
const mondays = ["2026-01-05", "2026-01-12", "2026-01-19", "2026-01-26"]
const days = ["2026-01-05", "2026-01-06", "2026-01-07", "2026-01-08"]
const notDefined = ["missing", "not defined", "clamp"] as const

describe("UK v3 Frequency: every form of the published pattern", () => {
  table(UkOpenBanking.decodeV3, [
    {
      name: "NotKnown",
      record: v3("NotKnown"),
      verdict: "unrepresentable",
      reason: "NotKnown: the bank does not say when the order pays"
    },
    {
      name: "EvryDay: every calendar day, never moved",
      record: v3("EvryDay"),
      verdict: "exact",
      dates: days,
      convention: "none"
    },
    {
      name: "EvryWorkgDay: every working day (Friday 9th, then Monday 12th)",
      record: v3("EvryWorkgDay"),
      verdict: "exact",
      dates: ["2026-01-05", "2026-01-06", "2026-01-07", "2026-01-08", "2026-01-09", "2026-01-12"],
      convention: "none"
    },
    {
      name: "IntrvlDay:02",
      record: v3("IntrvlDay:02"),
      verdict: "exact",
      dates: ["2026-01-05", "2026-01-07", "2026-01-09", "2026-01-11"],
      convention: "following"
    },
    {
      name: "IntrvlDay:31 (the largest: 31 days apart)",
      record: v3("IntrvlDay:31"),
      verdict: "exact",
      dates: ["2026-01-05", "2026-02-05", "2026-03-08", "2026-04-08"]
    },
    { name: "IntrvlWkDay:01:01 (Monday = 01)", record: v3("IntrvlWkDay:01:01"), verdict: "exact", dates: mondays },
    {
      name: "IntrvlWkDay:02:03 (every other Wednesday)",
      record: v3("IntrvlWkDay:02:03"),
      verdict: "exact",
      dates: ["2026-01-07", "2026-01-21", "2026-02-04", "2026-02-18"]
    },
    {
      name: "IntrvlWkDay:09:07 (every ninth Sunday: 63 days apart)",
      record: v3("IntrvlWkDay:09:07"),
      verdict: "exact",
      dates: ["2026-01-11", "2026-03-15", "2026-05-17"]
    },
    {
      name: "WkInMnthDay:01:01 (the first Monday)",
      record: v3("WkInMnthDay:01:01"),
      verdict: "exact",
      dates: ["2026-01-05", "2026-02-02", "2026-03-02", "2026-04-06"]
    },
    {
      name: "WkInMnthDay:03:07 (the third Sunday)",
      record: v3("WkInMnthDay:03:07"),
      verdict: "exact",
      dates: ["2026-01-18", "2026-02-15", "2026-03-15", "2026-04-19"]
    },
    {
      name: "WkInMnthDay:05:05 (the fifth Friday: only the months that have one)",
      record: v3("WkInMnthDay:05:05"),
      verdict: "exact",
      dates: ["2026-01-30", "2026-05-29", "2026-07-31", "2026-10-30", "2027-01-29"]
    },
    {
      name: "IntrvlMnthDay:01:-01 (the month's last day)",
      record: v3("IntrvlMnthDay:01:-01"),
      verdict: "exact",
      dates: ["2026-01-31", "2026-02-28", "2026-03-31", "2026-04-30"]
    },
    {
      name: "IntrvlMnthDay:01:-05 (the fifth-to-last day)",
      record: v3("IntrvlMnthDay:01:-05"),
      verdict: "exact",
      dates: ["2026-01-27", "2026-02-24", "2026-03-27", "2026-04-26"]
    },
    {
      name: "IntrvlMnthDay:01:01 (the first day on or after the first payment's)",
      record: v3("IntrvlMnthDay:01:01"),
      verdict: "exact",
      dates: ["2026-02-01", "2026-03-01", "2026-04-01"]
    },
    {
      name: "IntrvlMnthDay:02:15",
      record: v3("IntrvlMnthDay:02:15"),
      verdict: "exact",
      dates: ["2026-01-15", "2026-03-15", "2026-05-15"]
    },
    {
      name: "IntrvlMnthDay:04:15",
      record: v3("IntrvlMnthDay:04:15"),
      verdict: "exact",
      dates: ["2026-01-15", "2026-05-15", "2026-09-15"]
    },
    {
      name: "IntrvlMnthDay:05:15",
      record: v3("IntrvlMnthDay:05:15"),
      verdict: "exact",
      dates: ["2026-01-15", "2026-06-15", "2026-11-15"]
    },
    {
      name: "IntrvlMnthDay:06:15",
      record: v3("IntrvlMnthDay:06:15"),
      verdict: "exact",
      dates: ["2026-01-15", "2026-07-15", "2027-01-15"]
    },
    {
      name: "IntrvlMnthDay:24:15",
      record: v3("IntrvlMnthDay:24:15"),
      verdict: "exact",
      dates: ["2026-01-15", "2028-01-15", "2030-01-15"]
    },
    {
      name: "IntrvlMnthDay:03:31 (short months not defined)",
      record: v3("IntrvlMnthDay:03:31"),
      verdict: "lossy",
      dates: ["2026-01-31", "2026-04-30", "2026-07-31", "2026-10-31"],
      losses: [notDefined]
    },
    {
      name: "IntrvlMnthDay:12:29 (every January: each has a 29th)",
      record: v3("IntrvlMnthDay:12:29"),
      verdict: "exact",
      dates: ["2026-01-29", "2027-01-29"]
    },
    {
      name: "QtrDay:ENGLISH",
      record: v3("QtrDay:ENGLISH"),
      verdict: "exact",
      dates: ["2026-03-25", "2026-06-24", "2026-09-29", "2026-12-25", "2027-03-25"]
    },
    {
      name: "QtrDay:SCOTTISH",
      record: v3("QtrDay:SCOTTISH"),
      verdict: "exact",
      dates: ["2026-02-02", "2026-05-15", "2026-08-01", "2026-11-11", "2027-02-02"]
    },
    {
      name: "QtrDay:RECEIVED",
      record: v3("QtrDay:RECEIVED"),
      verdict: "exact",
      dates: ["2026-03-20", "2026-06-19", "2026-09-24", "2026-12-20"]
    },
    {
      name: "FinalPaymentDateTime ends it",
      record: v3("IntrvlMnthDay:01:05", { FinalPaymentDateTime: "2026-04-05T00:00:00+00:00" }),
      verdict: "exact",
      dates: month5,
      end: "2026-04-05"
    },
    {
      name: "NumberOfPayments counts it",
      record: v3("IntrvlMnthDay:01:05", { NumberOfPayments: "3" }),
      verdict: "exact",
      dates: month5.slice(0, 3),
      count: 3
    },
    // outside the pattern: refused with the reason
    {
      name: "IntrvlDay:32",
      record: v3("IntrvlDay:32"),
      verdict: "unrepresentable",
      reason: '"IntrvlDay:32": IntrvlDay takes 02..31 days'
    },
    {
      name: "IntrvlWkDay:01:08",
      record: v3("IntrvlWkDay:01:08"),
      verdict: "unrepresentable",
      reason: '"IntrvlWkDay:01:08": IntrvlWkDay takes 01..09 weeks and weekday 01..07'
    },
    {
      name: "IntrvlMnthDay:01:-06",
      record: v3("IntrvlMnthDay:01:-06"),
      verdict: "unrepresentable",
      reason: '"IntrvlMnthDay:01:-06": IntrvlMnthDay takes months 01..06, 12 or 24 and day -05..-01 or 01..31'
    }
  ] satisfies ReadonlyArray<Row>)
})

describe("UK v3: the strings and records real banks sent", () => {
  table(UkOpenBanking.decodeV3, [
    {
      name: "Halifax IntrvlWkDay:01:00 (weekday 00: the first payment's)",
      record: v3("IntrvlWkDay:01:00"),
      verdict: "exact",
      dates: mondays,
      warnings: [["Frequency", "IntrvlWkDay:01:<the first payment's weekday>"]]
    },
    {
      name: "Santander IntrvlWkDay:1:1 (unpadded)",
      record: v3("IntrvlWkDay:1:1"),
      verdict: "exact",
      dates: mondays,
      warnings: [["Frequency", "IntrvlWkDay:01:01"]]
    },
    {
      name: "Santander IntrvlMnthDay:1:30 (unpadded, and day 30 not defined in February)",
      record: v3("IntrvlMnthDay:1:30"),
      verdict: "lossy",
      dates: ["2026-01-30", "2026-02-28", "2026-03-30"],
      warnings: [["Frequency", "IntrvlMnthDay:01:30"]],
      losses: [notDefined]
    },
    {
      name: "Santander IntrvWkDay:01:05 (misspelt)",
      record: v3("IntrvWkDay:01:05"),
      verdict: "exact",
      dates: ["2026-01-09", "2026-01-16", "2026-01-23"],
      warnings: [["Frequency", "IntrvlWkDay"]]
    },
    {
      name: "IntrvlDay:01 (outside the pattern, one day apart)",
      record: v3("IntrvlDay:01"),
      verdict: "exact",
      dates: days,
      convention: "none",
      warnings: [["Frequency", "EvryDay"]]
    },
    {
      name: "lower-case names",
      record: v3("qtrday:english"),
      verdict: "exact",
      dates: ["2026-03-25"],
      warnings: [
        ["Frequency", "QtrDay"],
        ["Frequency", "QtrDay:ENGLISH"]
      ]
    },
    {
      name: "Danske NextPaymentDateTime 0000-01-01 (read as absent)",
      record: v3("EvryDay", { NextPaymentDateTime: "0000-01-01T00:00:00Z" }),
      verdict: "exact",
      dates: days,
      warnings: [["NextPaymentDateTime", "absent"]]
    },
    {
      name: "a sandbox's 01-Jan-18 (no first date left)",
      record: { Frequency: "EvryDay", FirstPaymentDateTime: "01-Jan-18" },
      verdict: "unrepresentable",
      warnings: [["FirstPaymentDateTime", "absent"]],
      reason: "the order has neither FirstPaymentDateTime nor NextPaymentDateTime"
    },
    {
      name: "Lloyds: only AccountId and CreditorAccount.SchemeName",
      record: { AccountId: "22289", CreditorAccount: { SchemeName: "UK.OBIE.SortCodeAccountNumber" } },
      verdict: "unrepresentable",
      reason: "the record has no Frequency string"
    }
  ] satisfies ReadonlyArray<Row>)
})

const v4 = (Frequency: unknown, extra: object = {}) => ({
  MandateRelatedInformation: { FirstPaymentDateTime: first, Frequency, ...extra }
})

describe("UK v4 OBFrequency6: every code of the API enum and of the internal code set", () => {
  table(UkOpenBanking.decodeV4, [
    {
      name: "ADHO",
      record: v4({ Type: "ADHO" }),
      verdict: "unrepresentable",
      reason: "ADHO: the payments are made on request, not on dates"
    },
    {
      name: "YEAR",
      record: v4({ Type: "YEAR" }),
      verdict: "exact",
      dates: ["2026-01-05", "2027-01-05", "2028-01-05"]
    },
    {
      name: "DAIL (every calendar day)",
      record: v4({ Type: "DAIL" }),
      verdict: "exact",
      dates: days,
      convention: "none"
    },
    {
      name: "FRTN",
      record: v4({ Type: "FRTN" }),
      verdict: "exact",
      dates: ["2026-01-05", "2026-01-19", "2026-02-02"]
    },
    {
      name: "INDA",
      record: v4({ Type: "INDA" }),
      verdict: "unrepresentable",
      reason: "INDA: several times a day, at times not given"
    },
    { name: "MNTH", record: v4({ Type: "MNTH" }), verdict: "exact", dates: month5, convention: "following" },
    {
      name: "QURT",
      record: v4({ Type: "QURT" }),
      verdict: "exact",
      dates: ["2026-01-05", "2026-04-05", "2026-07-05", "2026-10-05"]
    },
    {
      name: "MIAN",
      record: v4({ Type: "MIAN" }),
      verdict: "exact",
      dates: ["2026-01-05", "2026-07-05", "2027-01-05"]
    },
    { name: "WEEK (the first payment's weekday)", record: v4({ Type: "WEEK" }), verdict: "exact", dates: mondays },
    {
      name: "WEEK + PointInTime 03 (the conformance suite's default: Wednesday)",
      record: v4({ Type: "WEEK", PointInTime: "03" }),
      verdict: "exact",
      dates: ["2026-01-07", "2026-01-14", "2026-01-21"]
    },
    {
      name: "MNTH + PointInTime 15",
      record: v4({ Type: "MNTH", PointInTime: "15" }),
      verdict: "exact",
      dates: ["2026-01-15", "2026-02-15", "2026-03-15"]
    },
    {
      name: "MNTH + PointInTime 31 (short months not defined)",
      record: v4({ Type: "MNTH", PointInTime: "31" }),
      verdict: "lossy",
      dates: ["2026-01-31", "2026-02-28", "2026-03-31", "2026-04-30"],
      losses: [notDefined]
    },
    {
      name: "WODL (every working day)",
      record: v4({ Type: "WODL" }),
      verdict: "exact",
      dates: ["2026-01-05", "2026-01-06", "2026-01-07", "2026-01-08", "2026-01-09", "2026-01-12"],
      convention: "none"
    },
    {
      name: "FOWK (four-weekly)",
      record: v4({ Type: "FOWK" }),
      verdict: "exact",
      dates: ["2026-01-05", "2026-02-02", "2026-03-02", "2026-03-30"]
    },
    {
      name: "TWMH (every two months)",
      record: v4({ Type: "TWMH" }),
      verdict: "exact",
      dates: ["2026-01-05", "2026-03-05", "2026-05-05"]
    },
    {
      name: "ALMH (alternate months)",
      record: v4({ Type: "ALMH" }),
      verdict: "exact",
      dates: ["2026-01-05", "2026-03-05", "2026-05-05"]
    },
    {
      name: "FOMH (every four months)",
      record: v4({ Type: "FOMH" }),
      verdict: "exact",
      dates: ["2026-01-05", "2026-05-05", "2026-09-05"]
    },
    {
      name: "FIMH (every five months)",
      record: v4({ Type: "FIMH" }),
      verdict: "exact",
      dates: ["2026-01-05", "2026-06-05", "2026-11-05"]
    },
    {
      name: "TWYR (every two years, 2026)",
      record: v4({ Type: "TWYR" }),
      verdict: "exact",
      dates: ["2026-01-05", "2028-01-05", "2030-01-05"]
    },
    {
      name: "NONE",
      record: v4({ Type: "NONE" }),
      verdict: "unrepresentable",
      reason: "NONE: the mandate has no frequency"
    },
    {
      name: "LWMH (2026, undocumented)",
      record: v4({ Type: "LWMH" }),
      verdict: "unrepresentable",
      reason: "LWMH: the code set does not document its dates"
    },
    {
      name: "LXMH (2026, undocumented)",
      record: v4({ Type: "LXMH" }),
      verdict: "unrepresentable",
      reason: "LXMH: the code set does not document its dates"
    },
    {
      name: "CountPerPeriod 2 (the days not given)",
      record: v4({ Type: "MNTH", CountPerPeriod: 2 }),
      verdict: "unrepresentable",
      reason: "2 payments every MNTH period: the standard does not say on which days"
    },
    {
      name: "CountPerPeriod -2 (WSO2 accepted it)",
      record: v4({ Type: "MNTH", CountPerPeriod: -2 }),
      verdict: "unrepresentable",
      reason: "CountPerPeriod -2 is not a count of payments"
    },
    {
      name: "the legacy v3 string through oneOf",
      record: v4("IntrvlWkDay:01:03"),
      verdict: "exact",
      dates: ["2026-01-07", "2026-01-14", "2026-01-21"]
    },
    {
      name: "FinalPaymentDateTime ends it",
      record: v4({ Type: "MNTH", PointInTime: "05" }, { FinalPaymentDateTime: "2026-03-05T00:00:00+00:00" }),
      verdict: "exact",
      dates: month5.slice(0, 3),
      end: "2026-03-05"
    },
    {
      name: "a lower-case code",
      record: v4({ Type: "mnth" }),
      verdict: "exact",
      dates: month5,
      warnings: [["Type", "MNTH"]]
    },
    {
      name: "an unpadded PointInTime",
      record: v4({ Type: "MNTH", PointInTime: "5" }),
      verdict: "exact",
      dates: month5,
      warnings: [["PointInTime", "05"]]
    }
  ] satisfies ReadonlyArray<Row>)
})
