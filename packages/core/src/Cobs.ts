/**
 * Czech Open Banking Standard (COBS, Czech Banking Association) standing orders to and from `Recurrence`, each way a
 * `Translation` (packages/core/README.md, "Other standards"): `standingOrder.execution` (`interval`, `intervalDue`,
 * `mode`, `modeDue`), `validity` (`lastExecutionDate`, `maxIterations`, `maxAmount`), `exceptions` (stopped months
 * and breaks), and the first date `requestedExecutionDate`. Written here: no library translates these fields.
 *
 * @since 0.2.0
 */
import type * as Decoded from "./Decoded.ts"
import type { Options, StandingOrder } from "./internal/cobs.ts"
import * as Engine from "./internal/cobs.ts"
import type * as Recurrence from "./Recurrence.ts"
import type * as Translation from "./Translation.ts"

export type { Options, StandingOrder } from "./internal/cobs.ts"

/** `execution.interval`. */
export const intervals: typeof Engine.intervals = Engine.intervals
/** An `execution.interval`. */
export type Interval = (typeof intervals)[number]

/** `execution.modeDue`: the day itself, the banking day before or after it, or the month's last day. */
export const modeDues: typeof Engine.modeDues = Engine.modeDues
/** An `execution.modeDue`. */
export type ModeDue = (typeof modeDues)[number]

/** `execution.mode`: how the order ends. */
export const modes: typeof Engine.modes = Engine.modes
/** An `execution.mode`. */
export type Mode = (typeof modes)[number]

/**
 * The recurrence of a COBS standing order (a record of unknown shape): from `requestedExecutionDate` (else the
 * `start` option); WEEKLY on weekday `intervalDue` (1 = Monday), MONTHLY on day `intervalDue`, the longer intervals
 * on the start's day and month; `DUE_LAST_DAY_OF_MONTH` the month's last day; `modeDue` the convention (the day
 * itself: `none`, before: `preceding`, next: `following`); `lastExecutionDate` the end, `maxIterations` the count;
 * stopped months and breaks are pauses. Lossy where the standard is silent: DAILY on non-banking days (read as every
 * calendar day), `intervalDue` of the longer intervals (unless it is the start's day), day 29–31, stopped months with `maxIterations`, and
 * `maxAmount` (the dates alone cannot say when the total is reached). Unrepresentable: IRREGULAR, no start.
 */
export const decode: (record: unknown, options?: Options) => Decoded.Decoded<Recurrence.Recurrence> = Engine.decode

/**
 * The COBS standing order of a recurrence (packages/core/README.md, "Other standards"): `requestedExecutionDate` the
 * first occurrence (the longer intervals take their day and month from it), the convention as `modeDue`, the end as
 * `lastExecutionDate` (the last occurrence it allows), a count alone as `maxIterations`, pauses as stopped months and
 * breaks, selected months as the others stopped. Lossy: DAILY (not defined on non-banking days), the modified
 * conventions (the month's last day, `DUE_LAST_DAY_OF_MONTH`, leaves the convention to the bank), day 29–31 of the
 * longer intervals (not defined), a start moved to the first occurrence on the day itself. Unrepresentable: working
 * days, other steps, several days, weekdays of the month, days from the end other than the last, monthly days 29–30.
 */
export const encode: (recurrence: Recurrence.Recurrence) => Translation.Translation<StandingOrder> = Engine.encode
