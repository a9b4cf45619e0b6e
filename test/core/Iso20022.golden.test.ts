/**
 * ISO 20022: every `Frequency6Code` (as `Frequency36Choice.Tp`), every `EventFrequency7Code` (as a bare code), the
 * `Prd` and `PtInTm` choices, and the spellings that differ between the two code sets (QURT/MIAN against QUTR/SEMI);
 * the start on Monday 5 January 2026.
 */
import { Iso20022 } from "@tppkit/core"
import { describe } from "vitest"
import { type Row, table } from "./goldenTable.ts"

const rec = (frequency: unknown, extra: object = {}) => ({ frequency, startDate: "2026-01-05", ...extra })
const month5 = ["2026-01-05", "2026-02-05", "2026-03-05", "2026-04-05"]
const quarter5 = ["2026-01-05", "2026-04-05", "2026-07-05", "2026-10-05"]
const half5 = ["2026-01-05", "2026-07-05", "2027-01-05"]
const year5 = ["2026-01-05", "2027-01-05", "2028-01-05"]
const week5 = ["2026-01-05", "2026-01-12", "2026-01-19"]
const fortnight5 = ["2026-01-05", "2026-01-19", "2026-02-02"]
const day5 = ["2026-01-05", "2026-01-06", "2026-01-07"]
const ADHO = "ADHO: the event takes place on request, not on dates"
const INDA = "INDA: several times a day, at times not given"

describe("ISO 20022 Frequency6Code: every code", () => {
  table(Iso20022.decode, [
    { name: "YEAR", record: rec({ Tp: "YEAR" }), verdict: "exact", dates: year5 },
    { name: "MNTH", record: rec({ Tp: "MNTH" }), verdict: "exact", dates: month5, convention: "following" },
    { name: "QURT", record: rec({ Tp: "QURT" }), verdict: "exact", dates: quarter5 },
    { name: "MIAN", record: rec({ Tp: "MIAN" }), verdict: "exact", dates: half5 },
    { name: "WEEK", record: rec({ Tp: "WEEK" }), verdict: "exact", dates: week5 },
    {
      name: "DAIL (every calendar day)",
      record: rec({ Tp: "DAIL" }),
      verdict: "exact",
      dates: day5,
      convention: "none"
    },
    { name: "ADHO", record: rec({ Tp: "ADHO" }), verdict: "unrepresentable", reason: ADHO },
    { name: "INDA", record: rec({ Tp: "INDA" }), verdict: "unrepresentable", reason: INDA },
    { name: "FRTN", record: rec({ Tp: "FRTN" }), verdict: "exact", dates: fortnight5 },
    {
      name: "QUTR as a Frequency6Code (that set spells it QURT)",
      record: rec({ Tp: "QUTR" }),
      verdict: "exact",
      dates: quarter5,
      warnings: [["Tp", "QUTR"]]
    }
  ] satisfies ReadonlyArray<Row>)
})

describe("ISO 20022 EventFrequency7Code: every code", () => {
  table(Iso20022.decode, [
    { name: "YEAR", record: rec("YEAR"), verdict: "exact", dates: year5 },
    { name: "ADHO", record: rec("ADHO"), verdict: "unrepresentable", reason: ADHO },
    { name: "MNTH", record: rec("MNTH"), verdict: "exact", dates: month5 },
    { name: "DAIL (every calendar day)", record: rec("DAIL"), verdict: "exact", dates: day5, convention: "none" },
    { name: "INDA", record: rec("INDA"), verdict: "unrepresentable", reason: INDA },
    { name: "WEEK", record: rec("WEEK"), verdict: "exact", dates: week5 },
    { name: "SEMI", record: rec("SEMI"), verdict: "exact", dates: half5 },
    { name: "QUTR", record: rec("QUTR"), verdict: "exact", dates: quarter5 },
    {
      name: "TOMN (every two months)",
      record: rec("TOMN"),
      verdict: "exact",
      dates: ["2026-01-05", "2026-03-05", "2026-05-05"]
    },
    { name: "TOWK (every two weeks)", record: rec("TOWK"), verdict: "exact", dates: fortnight5 },
    { name: "TWMN", record: rec("TWMN"), verdict: "unrepresentable", reason: "TWMN: twice a month, on days not given" },
    {
      name: "OVNG",
      record: rec("OVNG"),
      verdict: "unrepresentable",
      reason: "OVNG: overnight, not a schedule of dates"
    },
    { name: "ONDE", record: rec("ONDE"), verdict: "unrepresentable", reason: "ONDE: on demand, not on dates" },
    { name: "a lower-case code", record: rec("mnth"), verdict: "exact", dates: month5, warnings: [["Tp", "MNTH"]] },
    {
      name: "endDate ends it",
      record: rec("MNTH", { endDate: "2026-03-31" }),
      verdict: "exact",
      dates: month5.slice(0, 3),
      end: "2026-03-31"
    }
  ] satisfies ReadonlyArray<Row>)
})

describe("ISO 20022 Frequency36Choice: Prd and PtInTm", () => {
  table(Iso20022.decode, [
    {
      name: "Prd MNTH, CntPerPrd 1",
      record: rec({ Prd: { Tp: "MNTH", CntPerPrd: 1 } }),
      verdict: "exact",
      dates: month5
    },
    {
      name: "Prd MNTH, CntPerPrd 2 (the days not given)",
      record: rec({ Prd: { Tp: "MNTH", CntPerPrd: 2 } }),
      verdict: "unrepresentable",
      reason: "2 events every MNTH period: ISO 20022 does not say on which days"
    },
    {
      name: 'Prd MNTH, CntPerPrd "1" (text where the schema\'s DecimalNumber is a number: read, with a warning)',
      record: rec({ Prd: { Tp: "MNTH", CntPerPrd: "1" } }),
      verdict: "exact",
      dates: month5,
      warnings: [["CntPerPrd", "1"]]
    },
    {
      name: "PtInTm MNTH 20",
      record: rec({ PtInTm: { Tp: "MNTH", PtInTm: "20" } }),
      verdict: "exact",
      dates: ["2026-01-20", "2026-02-20", "2026-03-20"]
    },
    {
      name: "PtInTm MNTH 31 (short months not defined)",
      record: rec({ PtInTm: { Tp: "MNTH", PtInTm: "31" } }),
      verdict: "lossy",
      dates: ["2026-01-31", "2026-02-28", "2026-03-31"],
      losses: [["missing", "not defined", "clamp"]]
    },
    {
      name: "PtInTm WEEK 03 (the weekday numbering not defined: 01 read as Monday)",
      record: rec({ PtInTm: { Tp: "WEEK", PtInTm: "03" } }),
      verdict: "lossy",
      dates: ["2026-01-07", "2026-01-14", "2026-01-21"],
      losses: [["PtInTm", "not defined", "ISO weekday 3"]]
    },
    {
      name: "PtInTm unpadded",
      record: rec({ PtInTm: { Tp: "MNTH", PtInTm: "5" } }),
      verdict: "exact",
      dates: month5,
      warnings: [["PtInTm", "05"]]
    }
  ] satisfies ReadonlyArray<Row>)
})
