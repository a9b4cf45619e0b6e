/**
 * UK Open Banking standing orders to and from `Recurrence`, each way a `Translation` (packages/core/README.md, "Other
 * standards"): v3.1 (`Frequency` strings with `FirstPaymentDateTime`, `FinalPaymentDateTime`, `NumberOfPayments`)
 * and v4 (`MandateRelatedInformation` with an `OBFrequency6` object), kept apart: `decodeV3` / `encodeV3` read and
 * write only the string, `decodeV4` / `encodeV4` the object (v4's reader also takes the legacy string v4 allows).
 * Written here, not taken from a library: none reads the grammar with the tolerances real banks need.
 *
 * @since 0.2.0
 */

import type * as Decoded from "./Decoded.ts"
import type { Options, V3StandingOrder, V4MandateRelatedInformation } from "./internal/ukOpenBanking.ts"
import * as Engine from "./internal/ukOpenBanking.ts"
import type * as Recurrence from "./Recurrence.ts"
import type * as Translation from "./Translation.ts"

export type {
  OBFrequency6,
  Options,
  V3StandingOrder,
  V4Code,
  V4MandateRelatedInformation
} from "./internal/ukOpenBanking.ts"

/** The fixed quarter days of `QtrDay:…` (month, day). */
export const quarterDays: typeof Engine.quarterDays = Engine.quarterDays

/**
 * The recurrence of a v3 standing order (a record of unknown shape): anchored on `FirstPaymentDateTime`, else
 * `NextPaymentDateTime` (the date part as written); `FinalPaymentDateTime` is the end, `NumberOfPayments` the
 * count. Lossy where the standard is silent: a day of the month 29–31 in a month without it is read as that month's
 * last day (the loss names it). Unrepresentable: `NotKnown`, a string outside the grammar, no first or next date.
 */
export const decodeV3: (record: unknown, options?: Options) => Decoded.Decoded<Recurrence.Recurrence> = Engine.decodeV3

/**
 * The v3 standing order of a recurrence (packages/core/README.md, "Other standards"): `FirstPaymentDateTime` is the
 * first occurrence (it carries the month of yearly rules, the phase of weeks), `FinalPaymentDateTime` the last
 * occurrence on or before the end, `NumberOfPayments` the count. The convention and calendar are the bank's, not
 * fields: pass them to {@link decodeV3}. Lossy: pauses, a missing-day rule where a month lacks day 29–31 (the
 * standard does not define it), a convention on every day. Unrepresentable: what the grammar has no string for.
 */
export const encodeV3: (recurrence: Recurrence.Recurrence) => Translation.Translation<V3StandingOrder> = Engine.encodeV3

/** v4 `OBFrequency6Code`: the API's codes and the OB internal code set's (WODL, FOWK, TWMH, ALMH, FOMH, FIMH, TWYR, …). */
export const v4Codes: typeof Engine.v4Codes = Engine.v4Codes

/**
 * The recurrence of a v4 standing order's `MandateRelatedInformation` (a record of unknown shape; a `Frequency`
 * text is the legacy v3 string v4 still allows, read by {@link decodeV3}'s rules): anchored on
 * `FirstPaymentDateTime`, else `RecurringPaymentDateTime`; `FinalPaymentDateTime` the end, the order's own
 * `NumberOfPayments` (restored in v4.0-Update-4) the count. `PointInTime` is the
 * weekday of the week codes (01 = Monday) and the day of the month codes (else the start's). Lossy where the standard
 * is silent: day 29–31 in a shorter month. Unrepresentable: ADHO, INDA, NONE, the undocumented LWMH / LXMH, more than
 * one payment a period (the days are not given), a negative count, no first date.
 */
export const decodeV4: (record: unknown, options?: Options) => Decoded.Decoded<Recurrence.Recurrence> = Engine.decodeV4

/**
 * The v4 `MandateRelatedInformation` of a recurrence (packages/core/README.md, "Other standards"): an `OBFrequency6`
 * object, never the legacy string (the two shapes are kept apart; {@link encodeV3} writes the string). Codes of the
 * OB internal code set (WODL, FOWK, TWMH, FOMH, FIMH, TWYR) are used where the API's own have none.
 * `FirstPaymentDateTime` is the first occurrence, `FinalPaymentDateTime` the last one the end and count allow. Lossy:
 * pauses, day 29–31 and the month's last day (not defined), a convention on DAIL. Unrepresentable: what no code says.
 */
export const encodeV4: (recurrence: Recurrence.Recurrence) => Translation.Translation<V4MandateRelatedInformation> =
  Engine.encodeV4
