/**
 * Step 4: the next 90 days projected, each payment on its currency's calendar (`--calendar auto`: EUR TARGET,
 * CZK Czech banking days), convention following; the first payments listed.
 */
import type { BusinessDayConvention } from "@tppkit/core"
import { LocalDate } from "@tppkit/core"
import { Holidays, Projection } from "@tppkit/schedule"
import { Effect } from "effect"
import * as Output from "../../Output.ts"
import * as Project from "../../Project.ts"
import * as ProjectionFormats from "../../ProjectionFormats.ts"
import * as Render from "../../Render.ts"
import * as Style from "../../Style.ts"
import { heading, INNER, indent, plural, say } from "./text.ts"

/** Days of the projection window, today included. */
export const HORIZON_DAYS = 90

/** How many upcoming payments the report lists before counting the rest. */
export const LISTED_PAYMENTS = 10

/** The calendar's name as the projection and the picture show it. */
export const calendarName = Project.AUTO

/** The business-day convention of the projection. */
export const convention: BusinessDayConvention.BusinessDayConvention = "following"

/** Projects the orders from `today` over {@link HORIZON_DAYS} days and lists the first payments. */
export const step = (orders: ReadonlyArray<Projection.ProjectableOrder>, today: LocalDate.LocalDate) =>
  Effect.gen(function* () {
    const style = yield* Output.stdoutStyle
    const to = LocalDate.addDays(today, HORIZON_DAYS - 1)
    // each payment on its currency's calendar (`--calendar auto`): EUR TARGET, CZK Czech banking days
    const projection = Projection.project(orders, { from: today, to }, { calendar: Holidays.byCurrency(), convention })
    const payments = projection.payments
    const moved = payments.reduce((n, p) => n + (p.nominalDate === p.executionDate ? 0 : 1), 0)
    yield* heading(4, `Upcoming payments ${LocalDate.format(today)} to ${LocalDate.format(to)} (${HORIZON_DAYS} days)`)
    yield* say(
      `${plural(payments.length, "payment")} (calendar auto: TARGET for EUR, Czech banking days for CZK; ` +
        `convention following), ` +
        `${moved} of them moved off a weekend or holiday; the first ${Math.min(LISTED_PAYMENTS, payments.length)}:`
    )
    yield* Output.line(
      indent(Style.table(style, ProjectionFormats.paymentTable(payments.slice(0, LISTED_PAYMENTS), INNER)))
    )
    if (payments.length > LISTED_PAYMENTS) yield* Output.line(`   … and ${payments.length - LISTED_PAYMENTS} more`)
    yield* say(ProjectionFormats.NOMINAL_NOTE)
    if (projection.skipped.length > 0) {
      yield* Output.line(`   ${plural(projection.skipped.length, "order")} not projectable:`)
      yield* Output.line(indent(Render.skippedLines(projection.skipped, INNER)))
    }
    return { ...projection, to }
  })
