/**
 * The engine of `ScenarioText`: a scenario's text read change by change into `Forecast.Change`s, and a change written
 * back as its text.
 */
import { BusinessDayConvention, Calendar, LocalDate } from "@tppkit/core"
import { Result, Schema } from "effect"
import type * as Forecast from "../Forecast.ts"
import * as Holidays from "../Holidays.ts"
import type * as Projection from "../Projection.ts"
import { InvalidScenario, ScheduleError } from "../ScheduleError.ts"

/** What a scenario's text is read with (see `ScenarioText.Options`). */
export interface Options {
  readonly added?: ReadonlyMap<string, ReadonlyArray<Projection.ProjectableOrder>> | undefined
  readonly holidays?: ReadonlyArray<LocalDate.LocalDate> | undefined
  readonly calendarOf?: ((name: string) => Result.Result<Calendar.Calendar, string>) | undefined
}

/** A built-in calendar by its name, or a country's by its ISO 3166 code (`Holidays.national`). */
export const calendarOf = (name: string): Result.Result<Calendar.Calendar, string> => {
  const trimmed = name.trim()
  const builtIn = Calendar.builtInNamed(trimmed)
  if (builtIn !== undefined) return Result.succeed(builtIn)
  if (/^[A-Za-z]{2}$/.test(trimmed)) return Holidays.national(trimmed)
  return Result.fail(
    `expected ${Calendar.builtIn.map((c) => c.name).join(", ")} or an ISO 3166 country code such as SK`
  )
}

/** The files a scenario adds orders from (`add:FILE`), in the order named. */
export const addedFiles = (text: string): Array<string> =>
  text
    .split(",")
    .map((raw) => raw.trim())
    .filter((part) => part.slice(0, 4).toLowerCase() === "add:")
    .map((part) => part.slice(4).trim())

const isConvention = Schema.is(BusinessDayConvention.BusinessDayConvention)

/** `ID@DATE` split at its last `@` (no date when there is none). */
const at = (s: string): { readonly id: string; readonly date: string | undefined } => {
  const i = s.lastIndexOf("@")
  return i < 0 ? { id: s, date: undefined } : { id: s.slice(0, i), date: s.slice(i + 1) }
}

/** A scenario's text read (see `ScenarioText.parse`). */
export const parse = (text: string, options: Options = {}): Result.Result<Forecast.Scenario, ScheduleError> =>
  Result.gen(function* () {
    const added = options.added ?? new Map()
    const holidays = options.holidays ?? []
    const changes: Array<Forecast.Change> = []
    const bad = (part: string | undefined, detail: string) =>
      Result.fail(new ScheduleError({ reason: new InvalidScenario({ text, part, detail }) }))
    for (const raw of text.split(",")) {
      const part = raw.trim()
      if (part.length === 0) continue
      const colon = part.indexOf(":")
      const kind = colon < 0 ? part : part.slice(0, colon).toLowerCase()
      const arg = colon < 0 ? "" : part.slice(colon + 1).trim()
      switch (kind) {
        case "skip":
        case "fail": {
          const { id, date } = at(arg)
          if (id.length === 0 || date === undefined) return yield* bad(part, `expected ${kind}:ORDER@YYYY-MM-DD`)
          const day = LocalDate.parse(date)
          if (Result.isFailure(day)) return yield* bad(part, day.failure)
          changes.push({ _tag: kind === "skip" ? "Skip" : "Fail", orderId: id, date: day.success })
          break
        }
        case "delay": {
          const plus = arg.lastIndexOf("+")
          const days = plus < 0 ? Number.NaN : Number(arg.slice(plus + 1))
          if (!(Number.isInteger(days) && days >= 1)) {
            return yield* bad(
              part,
              "expected delay:ORDER+DAYS or delay:ORDER@YYYY-MM-DD+DAYS (DAYS a whole number ≥ 1)"
            )
          }
          const { id, date } = at(arg.slice(0, plus))
          if (id.length === 0) return yield* bad(part, "no orderId")
          if (date === undefined) {
            changes.push({ _tag: "Delay", orderId: id, days })
          } else {
            const day = LocalDate.parse(date)
            if (Result.isFailure(day)) return yield* bad(part, day.failure)
            changes.push({ _tag: "Delay", orderId: id, days, date: day.success })
          }
          break
        }
        case "add": {
          const orders = added.get(arg)
          if (arg.length === 0 || orders === undefined) return yield* bad(part, "expected add:FILE (an orders file)")
          for (const order of orders) changes.push({ _tag: "Add", order })
          if (orders.length === 0) return yield* bad(part, "the file holds no order that can be read")
          break
        }
        case "remove":
          if (arg.length === 0) return yield* bad(part, "expected remove:ORDER")
          changes.push({ _tag: "Remove", orderId: arg })
          break
        case "convention":
          if (!isConvention(arg)) {
            return yield* bad(part, `expected one of ${BusinessDayConvention.conventions.join(", ")}`)
          }
          changes.push({ _tag: "Settings", convention: arg })
          break
        case "calendar": {
          const calendar = (options.calendarOf ?? calendarOf)(arg)
          if (Result.isFailure(calendar)) return yield* bad(part, calendar.failure)
          // the bank's own closing days stay closed on another calendar
          changes.push({
            _tag: "Settings",
            calendar: holidays.length === 0 ? calendar.success : Calendar.withHolidays(calendar.success, [...holidays])
          })
          break
        }
        default:
          return yield* bad(part, "expected skip:, fail:, delay:, add:, remove:, convention: or calendar:")
      }
    }
    if (changes.length === 0) return yield* bad(undefined, "no change named")
    return { name: text, changes }
  })

/** A change as a scenario's text names it (see `ScenarioText.format`). */
export const format = (c: Forecast.Change): string => {
  switch (c._tag) {
    case "Skip":
    case "Fail":
      return `${c._tag.toLowerCase()}:${c.orderId}@${LocalDate.format(c.date)}`
    case "Delay":
      return `delay:${c.orderId}${c.date === undefined ? "" : `@${LocalDate.format(c.date)}`}+${c.days}`
    case "Remove":
      return `remove:${c.orderId}`
    case "Add":
      return `add:${c.order.orderId}`
    case "Settings":
      return "settings"
  }
}
