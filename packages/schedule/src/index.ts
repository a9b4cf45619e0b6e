/**
 * @tppkit/schedule: projection of standing orders, cash flow, national calendars, funds checks and iCalendar.
 *
 * @since 0.1.0
 */

/** Cash-flow totals per currency, debtor account and period. */
export * as CashFlow from "./CashFlow.ts"
/** Is an account covered: funds checks of upcoming payments, running totals, the payments at risk grouped. */
export * as Coverage from "./Coverage.ts"
/** A projection written as bytes: JSON, CSV and iCalendar, streamed from the engine's columns. */
export * as Export from "./Export.ts"
/** A balance forecast per account: a day-by-day ladder, the lowest point, risk days, scenarios and funds-check evidence. */
export * as Forecast from "./Forecast.ts"
/** The files a forecast reads besides the orders: opening balances and funds-check answers, read exactly. */
export * as ForecastFiles from "./ForecastFiles.ts"
/** National holiday calendars from the date-holidays library. */
export * as Holidays from "./Holidays.ts"
/** iCalendar (RFC 5545) export of projected payments. */
export * as ICalendar from "./ICalendar.ts"
/** Runs effects on (or working days before) each payment's execution date, driven by Clock and Schedule. */
export * as OrderSchedule from "./OrderSchedule.ts"
/** A projected payment and its ordering. */
export * as Payment from "./Payment.ts"
/** Projection of standing orders over a window of execution dates. */
export * as Projection from "./Projection.ts"
/** The bank's listed nextDates checked against the engine, explained by candidate rules, the bank's rule inferred. */
export * as Reconciliation from "./Reconciliation.ts"
/** iCalendar export with one RRULE per order where a rule can say it, EXDATE and RDATE for moved payments. */
export * as RecurringCalendar from "./RecurringCalendar.ts"
/** A forecast's what-if scenario as text (`delay:SALARY+3,skip:RENT@2026-08-03`): read and written. */
export * as ScenarioText from "./ScenarioText.ts"
/** Error family of the schedule package. */
export * as ScheduleError from "./ScheduleError.ts"
