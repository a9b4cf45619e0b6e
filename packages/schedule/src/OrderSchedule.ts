/**
 * Runs an Effect for each payment of a set of standing orders on its execution date, or a number of working
 * days before it, driven by effect's Clock and a daily cron Schedule (so TestClock drives it in tests).
 * "Today" is the Clock's instant as a date in a configurable time zone (default Europe/Bratislava).
 *
 * @since 0.1.0
 */
import { Calendar, LocalDate } from "@tppkit/core"
import { Clock, Cron, DateTime, Effect, Option, Schedule } from "effect"
import type * as Coverage from "./Coverage.ts"
import type * as Payment from "./Payment.ts"
import * as Projection from "./Projection.ts"
import { InvalidTimeZone, ScheduleError } from "./ScheduleError.ts"

/**
 * Options of the scheduler: projection options (with one calendar, which also counts the lead time's working days)
 * plus lead time, time zone and the daily wake-up time.
 */
export interface Options extends Omit<Projection.Options, "calendar"> {
  /** The calendar of the payments and of the lead time's working days (default `target`). */
  readonly calendar?: Calendar.Calendar | undefined
  /** Working days before the execution date on which to act (default 0: on the execution date). */
  readonly daysBefore?: number | undefined
  /** IANA time zone of "today" and of the wake-up time (default Europe/Bratislava). */
  readonly timeZone?: string | undefined
  /** Local hour (0–23) of the daily wake-up (default 8). */
  readonly hour?: number | undefined
  /** Local minute (0–59) of the daily wake-up (default 0). */
  readonly minute?: number | undefined
}

const zoneOf = (timeZone: string): Effect.Effect<DateTime.TimeZone.Named, ScheduleError> =>
  Option.match(DateTime.zoneMakeNamed(timeZone), {
    onNone: () => Effect.fail(new ScheduleError({ reason: new InvalidTimeZone({ timeZone }) })),
    onSome: Effect.succeed
  })

/** Today's date from effect's Clock in a time zone (default Europe/Bratislava). */
export const today = (timeZone: string = LocalDate.bankTimeZone): Effect.Effect<LocalDate.LocalDate, ScheduleError> =>
  Effect.flatMap(zoneOf(timeZone), (zone) => Effect.map(Clock.currentTimeMillis, (ms) => LocalDate.ofInstant(ms, zone)))

/**
 * The day to act on a payment executing on `execution`: `daysBefore` working days earlier (the execution date
 * itself for 0); 0001-01-01 when the calendar runs out.
 */
export const triggerDate = (
  execution: LocalDate.LocalDate,
  daysBefore: number,
  calendar: Calendar.Calendar = Calendar.target
): LocalDate.LocalDate =>
  daysBefore <= 0 ? execution : (Calendar.addWorkingDays(calendar, execution, -daysBefore) ?? LocalDate.MIN)

/**
 * The payments to act on when the days after `processed` up to `today` are handled: their trigger date lies in
 * that span and they have not executed yet (execution on or after today). Pure; used by {@link run}.
 */
export const dueOn = (
  orders: ReadonlyArray<Projection.ProjectableOrder>,
  processed: LocalDate.LocalDate,
  today: LocalDate.LocalDate,
  options?: Options
): Array<Payment.Payment> => {
  const daysBefore = Math.max(0, options?.daysBefore ?? 0)
  const calendar = options?.calendar ?? Calendar.target
  // a payment triggered by today executes before the (daysBefore + 1)-th working day after today
  const limit = Calendar.addWorkingDays(calendar, today, daysBefore + 1)
  const to = limit === undefined ? LocalDate.MAX : LocalDate.addDays(limit, -1)
  const { payments } = Projection.project(orders, { from: today, to }, options)
  return payments.filter((p) => {
    const t = triggerDate(p.executionDate, daysBefore, calendar)
    return t > processed && t <= today
  })
}

/**
 * Runs `action` once for every payment of `orders` on its trigger day (`daysBefore` working days before the
 * execution date), waking up daily at the configured local time; started late, it still acts on payments whose
 * trigger day passed but which have not executed yet. Never ends; fails when `action` fails.
 */
export const run = <E, R>(
  orders: ReadonlyArray<Projection.ProjectableOrder>,
  action: (payment: Payment.Payment) => Effect.Effect<void, E, R>,
  options?: Options
): Effect.Effect<never, E | ScheduleError, R> =>
  Effect.gen(function* () {
    const zone = yield* zoneOf(options?.timeZone ?? LocalDate.bankTimeZone)
    const daily = Cron.make({
      minutes: [options?.minute ?? 0],
      hours: [options?.hour ?? 8],
      days: [],
      months: [],
      weekdays: [],
      tz: zone
    })
    // nothing handled yet: the first tick acts on every payment triggered by today and not executed yet
    let processed = LocalDate.addDays(LocalDate.MIN, -1)
    const tick = Effect.gen(function* () {
      const now = LocalDate.ofInstant(yield* Clock.currentTimeMillis, zone)
      if (now <= processed) return
      const due = dueOn(orders, processed, now, options)
      processed = now
      for (const payment of due) yield* action(payment)
    })
    // the Cron value is built above, so the schedule cannot meet a parse error
    yield* Effect.repeat(tick, Schedule.cron(daily)).pipe(Effect.catchTag("CronParseError", (e) => Effect.die(e)))
    return yield* Effect.never
  })

/** Options of {@link fundsCheck}: the scheduler's options, the check, and what to do with each outcome. */
export interface FundsCheckOptions<E, R, E2, R2> extends Options {
  readonly check: (payment: Payment.Payment) => Effect.Effect<Coverage.Answer, E, R>
  readonly onOutcome: (outcome: Coverage.Outcome<E>) => Effect.Effect<void, E2, R2>
}

/**
 * The scheduled funds check: `daysBefore` working days before each payment, a balance check for its amount on
 * its debtor IBAN; each outcome (APPR, DECL = at risk, or the check's error) goes to `onOutcome`.
 */
export const fundsCheck = <E, R, E2, R2>(
  orders: ReadonlyArray<Projection.ProjectableOrder>,
  options: FundsCheckOptions<E, R, E2, R2>
): Effect.Effect<never, E2 | ScheduleError, R | R2> =>
  run(
    orders,
    (payment) =>
      Effect.flatMap(
        Effect.match(options.check(payment), {
          onSuccess: (answer): Coverage.Outcome<E> => ({ _tag: "Checked", payment, answer }),
          onFailure: (error): Coverage.Outcome<E> => ({ _tag: "Failed", payment, error })
        }),
        options.onOutcome
      ),
    options
  )
