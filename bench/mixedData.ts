/**
 * What the reading benches share (bench/decoder.ts, bench/mixedRead.ts, bench/sourceCheck.ts): the mixed orders text
 * (the bank's codes, RRULEs, UK v3 and v4, Berlin Group, COBS and ISO 20022 records in turn, a seventh of each) and
 * a day of the month from a record's number. Their measuring is bench/support.ts's.
 */

/** Day 01..28 of a month for record `i` (so that the records differ). */
export const day = (i: number): string => String((i % 28) + 1).padStart(2, "0")

const who = {
  debtor: { name: "A", iban: "SK3112000000198742637541" },
  creditor: { name: "B", iban: "CZ6508000000192000145399" }
}

/** One record of each kind, with the order's own fields. */
const kinds: ReadonlyArray<(i: number) => Record<string, unknown>> = [
  (i) => ({ frequency: "MNTH", startDate: `2027-01-${day(i)}` }),
  (i) => ({ rrule: `DTSTART;VALUE=DATE:202701${day(i)}\nRRULE:FREQ=MONTHLY;BYDAY=-1FR` }),
  (i) => ({ Frequency: `IntrvlMnthDay:01:${day(i)}`, FirstPaymentDateTime: "2027-01-01T00:00:00+00:00" }),
  (i) => ({
    MandateRelatedInformation: {
      FirstPaymentDateTime: "2027-01-01T00:00:00+00:00",
      Frequency: { Type: "MNTH", PointInTime: day(i) }
    }
  }),
  (i) => ({
    additionalInformationStructured: {
      standingOrderDetails: {
        startDate: "2027-01-01",
        frequency: "Monthly",
        dayOfExecution: String((i % 28) + 1),
        executionRule: "preceding"
      }
    }
  }),
  (i) => ({
    requestedExecutionDate: "2027-01-10",
    standingOrder: { execution: { interval: "MONTHLY", intervalDue: String((i % 28) + 1), mode: "UNTIL_CANCELLATION" } }
  }),
  (i) => ({ frequency: { PtInTm: { Tp: "MNTH", PtInTm: day(i) } }, startDate: "2027-02-01" })
]

/** The mixed orders text of `records` records: a JSON array, one record a line. */
export const mixedText = (records: number): string => {
  const parts: Array<string> = []
  for (let i = 0; i < records; i++) {
    parts.push(
      JSON.stringify({
        orderId: `SO-${String(i).padStart(8, "0")}`,
        ...who,
        instructedAmount: { value: 1 + (i % 500), currency: "EUR" },
        ...kinds[i % kinds.length]!(i)
      })
    )
  }
  return `[${parts.join(",\n")}]`
}
