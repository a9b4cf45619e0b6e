/**
 * The daily sweep: for each configured consent, list the standing orders (an unattended listing, within the daily
 * budget), project them with the schedule package and plan a funds check for every payment executing from the
 * sweep day up to and including the N-th working day after it; then start each payment's durable workflow. The
 * sweep of a day is itself a workflow keyed by the day, so however many workers ask for it, it runs once; the
 * cluster-wide `ClusterCron` asks for it every day at the configured hour in the configured time zone
 * (DST-correct), and a run missed while the fleet was down is caught up when it comes back.
 *
 * @since 0.1.0
 */
import { type BusinessDayConvention, Calendar, LocalDate, Money } from "@tppkit/core"
import * as BankError from "@tppkit/http/BankError"
import { Coverage, OrderSchedule, Projection } from "@tppkit/schedule"
import { Context, Cron, DateTime, Effect, type Layer, Option, Schema } from "effect"
import { ClusterCron } from "effect/cluster"
import type { Sharding } from "effect/cluster/Sharding"
import { Activity, Workflow, type WorkflowEngine } from "effect/workflow"
import { Checks, type ChecksError, type Due } from "./Checks.ts"
import { FundsCheck } from "./FundsCheckWorkflow.ts"

/** A consent whose standing orders the sweep lists: its budget key, and optionally one account (IBAN filter). */
export interface Consent {
  readonly key: string
  readonly iban?: string | undefined
}

/** What every worker of a fleet is configured with (the same on every worker). */
export interface Settings {
  readonly consents: ReadonlyArray<Consent>
  /** Working days after the sweep day whose payments are checked (default 2). */
  readonly daysBefore: number
  readonly calendar: Calendar.Calendar
  readonly convention?: BusinessDayConvention.BusinessDayConvention | undefined
  /** IANA time zone of the sweep hour and of "today" (default Europe/Bratislava). */
  readonly timeZone: string
  /** Local hour of the daily sweep (default 8). */
  readonly hour: number
}

/** The sweep's settings as a service. */
export class SweepSettings extends Context.Service<SweepSettings, Settings>()("@tppkit/worker/SweepSettings") {}

/** A consent's IBAN filter that is not an IBAN: nothing was sent. */
export class InvalidIban extends Schema.TaggedError<InvalidIban>()("InvalidIban", { iban: Schema.String }) {
  /** One line naming the text that is not an IBAN. */
  override get message(): string {
    return `invalid IBAN ${this.iban}`
  }
}

/** Why a consent's standing orders could not be listed, as data: the bank client's failure, or a bad IBAN filter. */
export const ListingFailure = Schema.Union([BankError.BankError, InvalidIban])

/** Why a consent's standing orders could not be listed. */
export type ListingFailure = typeof ListingFailure.Type

/** A consent whose standing orders could not be listed, and why (its message is the failure's). */
export class ListingFailed extends Schema.TaggedError<ListingFailed>()("ListingFailed", {
  consent: Schema.String,
  failure: ListingFailure
}) {
  /** The failure's one line. */
  override get message(): string {
    return this.failure.message
  }
}

/** Where the sweep gets a consent's standing orders; the bank client satisfies it in a worker. */
export class OrderSource extends Context.Service<
  OrderSource,
  {
    readonly list: (consent: Consent) => Effect.Effect<ReadonlyArray<Projection.ProjectableOrder>, ListingFailed>
  }
>()("@tppkit/worker/OrderSource") {}

/** The instant a day's sweep hour begins in a time zone (epoch milliseconds), DST-correct. */
export const instantOf = (day: LocalDate.LocalDate, hour: number, timeZone: string): number => {
  const { year, month, day: d } = LocalDate.toParts(day)
  const zoned = DateTime.makeZonedUnsafe(
    { year, month, day: d, hour, minute: 0, second: 0, millisecond: 0 },
    { timeZone, adjustForTimeZone: true, disambiguation: "compatible" }
  )
  return zoned.epochMilliseconds
}

/**
 * The checks a sweep on `day` plans for one consent's orders (pure): every payment executing from `day` up to and
 * including the `daysBefore`-th working day after it, each to be checked on its trigger day (`daysBefore` working
 * days before its execution date) or right away when that day is not after the sweep day.
 */
export const plan = (
  orders: ReadonlyArray<Projection.ProjectableOrder>,
  consent: string,
  day: LocalDate.LocalDate,
  settings: Pick<Settings, "daysBefore" | "calendar" | "convention" | "timeZone" | "hour">
): Array<Due> => {
  const last = Coverage.horizon(day, settings.daysBefore, settings.calendar)
  const { payments } = Projection.project(
    orders,
    { from: day, to: last },
    { calendar: settings.calendar, convention: settings.convention }
  )
  const sweepDay = LocalDate.format(day)
  return Coverage.due(payments, day, settings.daysBefore, settings.calendar).map((p) => {
    const trigger = OrderSchedule.triggerDate(p.executionDate, settings.daysBefore, settings.calendar)
    return {
      consent,
      orderId: p.orderId,
      nominalDate: LocalDate.format(p.nominalDate),
      executionDate: LocalDate.format(p.executionDate),
      amount: Money.toPlainString(p.amount),
      currency: p.currency,
      debtorIban: p.debtorIban,
      sweepDay,
      checkAt: trigger > day ? instantOf(trigger, settings.hour, settings.timeZone) : 0
    }
  })
}

/** What a day's sweep did: per consent, the checks planned and started, or why its listing failed (as data). */
export const Summary = Schema.Struct({
  day: Schema.String,
  consents: Schema.Array(
    Schema.Struct({
      consent: Schema.String,
      planned: Schema.Number,
      failure: Schema.optionalKey(ListingFailure)
    })
  )
})

/** What a day's sweep did. */
export type Summary = typeof Summary.Type

/** The sweep of one day, keyed by the day: it runs once in the whole cluster. */
export const DailySweep = Workflow.make("tppkit/DailySweep", {
  payload: { day: Schema.String },
  success: Summary,
  idempotencyKey: (p) => p.day
})

/** How many workflow starts are in flight at once while a sweep starts its checks. */
export const startConcurrency = 64

/** Starts the durable check of every planned payment of a day and consent (each start is idempotent). */
export const startPlanned = (
  day: string,
  consent: string
): Effect.Effect<number, ChecksError, Checks | WorkflowEngine.WorkflowEngine> =>
  Effect.gen(function* () {
    const checks = yield* Checks
    const planned = yield* checks.planned(day, consent)
    yield* Effect.forEach(planned, (due) => FundsCheck.execute(due, { discard: true, detached: true }), {
      concurrency: startConcurrency,
      discard: true
    })
    return planned.length
  })

/** The sweep workflow's implementation. */
export const layer: Layer.Layer<never, never, WorkflowEngine.WorkflowEngine | Checks | SweepSettings | OrderSource> =
  DailySweep.toLayer(
    Effect.fn(function* ({ day }) {
      const settings = yield* SweepSettings
      const date = LocalDate.parseUnsafe(day)
      const consents: Array<Summary["consents"][number]> = []
      for (const consent of settings.consents) {
        const planned = yield* Activity.make({
          name: `plan/${consent.key}/${consent.iban ?? ""}`,
          success: Schema.Number,
          error: ListingFailed,
          execute: Effect.gen(function* () {
            const source = yield* OrderSource
            const checks = yield* Checks
            const orders = yield* source.list(consent)
            const due = plan(orders, consent.key, date, settings)
            yield* Effect.orDie(checks.plan(due))
            return due.length
          })
        }).pipe(Effect.result)
        if (planned._tag === "Failure") {
          consents.push({ consent: consent.key, planned: 0, failure: planned.failure.failure })
          continue
        }
        yield* Activity.make({
          name: `start/${consent.key}/${consent.iban ?? ""}`,
          success: Schema.Number,
          execute: Effect.orDie(startPlanned(day, consent.key))
        })
        consents.push({ consent: consent.key, planned: planned.success })
      }
      return { day, consents }
    })
  )

/** The daily cron of the sweep hour in the time zone (DST-correct: effect's `Cron` with a named zone). */
export const dailyCron = (hour: number, timeZone: string): Cron.Cron => {
  const zone = Option.getOrThrowWith(
    DateTime.zoneMakeNamed(timeZone),
    () => new Error(`unknown time zone ${JSON.stringify(timeZone)}`)
  )
  return Cron.make({ minutes: [0], hours: [hour], days: [], months: [], weekdays: [], tz: zone })
}

/** The day of an instant in a time zone. */
export const dayIn = (epochMillis: number, timeZone: string): LocalDate.LocalDate =>
  OrderSchedule.dateAt(epochMillis, DateTime.zoneMakeNamedUnsafe(timeZone))

/**
 * The cluster-wide daily sweep: a `ClusterCron` singleton at the configured hour and time zone that starts the
 * day's sweep workflow. Each run is a persisted message, and the next one is computed from the previous, so a run
 * missed while the fleet was down is caught up in order when it comes back (runs older than a day are skipped:
 * their payments have executed; the next day's sweep covers the rest).
 */
export const cronLayer = (
  settings: Pick<Settings, "hour" | "timeZone">
): Layer.Layer<never, never, Sharding | WorkflowEngine.WorkflowEngine> =>
  ClusterCron.make({
    name: "tppkit/DailySweep",
    cron: dailyCron(settings.hour, settings.timeZone),
    calculateNextRunFromPrevious: true,
    execute: Effect.gen(function* () {
      const slot = yield* ClusterCron.CurrentScheduledTime
      const day = LocalDate.format(dayIn(slot.epochMilliseconds, settings.timeZone))
      yield* Effect.logInfo(`tppkit: daily sweep of ${day}`)
      yield* DailySweep.execute({ day }, { discard: true })
    })
  })

/** The day's sweep started now (idempotent): `--today` and `--once` use it. */
export const sweepNow = (day: string) => DailySweep.execute({ day })

/** A calendar's working day test, re-exported for settings validation. */
export const isWorkingDay = Calendar.isWorkingDay
