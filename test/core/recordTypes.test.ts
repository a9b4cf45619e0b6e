/**
 * Records tppkit writes for YNAB and Actual are those projects' own types: `SourceRecord.write`'s YNAB record is the
 * `ynab` package's `ScheduledTransactionDetail` (in its `ScheduledTransactionsResponse`), its Actual record the
 * `@actual-app/api` package's `APIScheduleEntity` — checked by `tsc -b` (the assignments below) and at run time
 * through the `ynab` package's own JSON reader, over generated orders.
 */
import type { APIScheduleEntity } from "@actual-app/api/models"
import { SourceRecord, Translation } from "@tppkit/core"
import { BigDecimal } from "effect"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  instanceOfScheduledTransactionDetail,
  instanceOfScheduledTransactionsResponse,
  type ScheduledTransactionDetail,
  ScheduledTransactionDetailFrequencyEnum,
  type ScheduledTransactionsResponse,
  ScheduledTransactionsResponseFromJSON
} from "ynab"
import { recurrence } from "../arbitraries/recurrence.ts"

/** The type checks themselves: each fails `tsc -b` when a written record is not the project's type. */
const asYnab = (r: SourceRecord.YnabScheduledTransaction): ScheduledTransactionDetail => r
const asActual = (r: SourceRecord.ActualSchedule): Omit<APIScheduleEntity, "id"> & { id: string } => r

const order = (r: SourceRecord.Writable["recurrence"]): SourceRecord.Writable => ({
  orderId: "SO-1",
  recurrence: r,
  instructedAmount: { value: BigDecimal.make(125050n, 2), currency: "EUR" },
  debtor: { iban: "SK3112000000198742637541" },
  creditor: { iban: "CZ6508000000192000145399", name: "Landlord" }
})

describe("written records are YNAB's and Actual's own types", () => {
  it("YNAB: the answer reads through the ynab package's JSON reader unchanged", () => {
    fc.assert(
      fc.property(recurrence, (r) => {
        const t = SourceRecord.write("ynab", order(r))
        const record = Translation.getValue(t)
        if (record === undefined) return
        const answer: ScheduledTransactionsResponse = {
          data: { scheduled_transactions: [asYnab(record)], server_knowledge: 0 }
        }
        expect(answer).toEqual(SourceRecord.list("ynab", [record]))
        expect(instanceOfScheduledTransactionsResponse(answer)).toBe(true)
        expect(instanceOfScheduledTransactionDetail(record)).toBe(true)
        expect(Object.values(ScheduledTransactionDetailFrequencyEnum)).toContain(record.frequency)
        // the package's own reader keeps every field written
        expect(ScheduledTransactionsResponseFromJSON(answer).data.scheduled_transactions[0]).toMatchObject(record)
        expect(record.amount).toBe(-1250500)
      }),
      { numRuns: 500 }
    )
  })
  it("Actual: APIScheduleEntity with its RecurConfig", () => {
    fc.assert(
      fc.property(recurrence, (r) => {
        const record = Translation.getValue(SourceRecord.write("actual", order(r)))
        if (record === undefined) return
        const entity = asActual(record)
        expect(entity.amountOp).toBe("is")
        expect(entity.amount).toBe(-125050)
        expect(typeof entity.date === "object" && entity.date.start).toMatch(/^\d{4}-\d{2}-\d{2}$/)
      }),
      { numRuns: 500 }
    )
  })
})
