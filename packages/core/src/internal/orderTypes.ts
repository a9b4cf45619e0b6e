/**
 * The types of `Orders`, declared beside its engines (`orderReading.ts`, `orderKeys.ts`, `records/orders.ts`), which
 * read and name orders of them; the public module re-exports each and documents it.
 */
import type { BigDecimal } from "effect"
import type * as AccountMap from "../AccountMap.ts"
import type * as BusinessDayConvention from "../BusinessDayConvention.ts"
import type * as Decoded from "../Decoded.ts"
import type * as LocalDate from "../LocalDate.ts"
import type * as Recurrence from "../Recurrence.ts"
import type * as SourceRecord from "../SourceRecord.ts"
import type * as Standard from "../Standard.ts"
import type * as StandingOrder from "../StandingOrder.ts"
import type * as Translation from "../Translation.ts"

/**
 * What reading one record raised without refusing it: a tolerance (`Tolerated`: the record breaks its standard in a
 * way whose meaning is clear, e.g. `"01"` for `1`) or a loss (`Lost`: the standard's meaning differs from what
 * tppkit's model can say, named field by field). Data, never a sentence: `Decoded.describe` and
 * `Translation.describe` word them.
 */
export type Warning =
  | ({ readonly _tag: "Tolerated"; readonly standard: Standard.Standard } & Decoded.Warning)
  | ({ readonly _tag: "Lost"; readonly standard: Standard.Standard } & Translation.Loss)
  | ({ readonly _tag: "Missing"; readonly standard: Standard.Standard } & SourceRecord.Missing)

/**
 * An account of an order: its IBAN and, when the record names one, the holder's name. A whole record of another
 * source may name an account otherwise (packages/core/README.md, "Whole records"): `iban` then holds the identifier as
 * given and `scheme` says what it is (`account-id`, `cz`, a UK `SchemeName`, `ynab`, …; `unknown` with an empty
 * identifier when the record names no payer). A payee whose account the record does not name is a {@link Creditor}
 * with `iban` undefined.
 */
export interface Party {
  readonly iban: string
  readonly name?: string | undefined
  readonly scheme?: string | undefined
}

/**
 * The payee of an order: a {@link Party}, or, when the record names no payee's account (a COBS list item, a UK record
 * of the Basic permission, a YNAB or Actual schedule), `iban` undefined: the creditor is unknown (by its name alone
 * when the record gives one). The order is still projected, money leaving the debtor, and a `Missing` warning says so.
 */
export interface Creditor {
  readonly iban: string | undefined
  readonly name?: string | undefined
  readonly scheme?: string | undefined
}

/**
 * A standing order as read: who pays what and when. `recurrence` always says when it pays; that of an order in the
 * bank's own standard remembers its code (`Recurrence.code`: the engine plans it on the code's own arithmetic,
 * packages/core/README.md, "Nominal dates"). `ownConvention` says whether the record states
 * or fixes its business-day convention (a Berlin Group `executionRule`, a COBS `modeDue`, a daily code that never
 * moves): a reader that applies its own convention keeps such an order's ({@link withConvention}). `position` is the
 * record's place in the list, counted from 1.
 */
export interface Order {
  readonly _tag: "Order"
  readonly position: number
  readonly orderId: string
  readonly standard: Standard.Standard
  readonly recurrence: Recurrence.Recurrence
  readonly ownConvention: boolean
  readonly startDate?: LocalDate.LocalDate | undefined
  readonly nextDate?: LocalDate.LocalDate | undefined
  readonly endDate?: LocalDate.LocalDate | undefined
  readonly instructedAmount: { readonly value: BigDecimal.BigDecimal; readonly currency: string }
  readonly debtor: Party
  readonly creditor: Creditor
  readonly warnings: ReadonlyArray<Warning>
}

/**
 * A record that could not be read as an order: `record` (not an order of its standard: malformed, a required field
 * missing or invalid, at `path`), `schedule` (its fields are an order's but its schedule cannot be said in tppkit's
 * model, or names no standard tppkit reads) or `list` (a problem of the list itself, e.g. a malformed `pageCount` or
 * a repeated key; no `position`). `position` counts records from 1.
 */
export interface Unread {
  readonly _tag: "Unread"
  readonly kind: "record" | "schedule" | "list"
  readonly position: number | undefined
  readonly orderId: string | undefined
  readonly path: string
  readonly reason: string
  /** The standard the record was read in, for a schedule that could not be read. */
  readonly standard: Standard.Standard | undefined
}

/**
 * An order read whole that yields no payment: the bank's record without `startDate` and `nextDate` has no anchor
 * (packages/core/README.md, "Anchor"), an order whose end is before its start never pays, a whole record of another
 * source is inactive, deleted or reaches no date; the projection lists it with the reason and the other orders are
 * projected. `order` keeps the bank's fields as read (no recurrence) where the record is listed as given.
 */
export interface Skipped {
  readonly _tag: "Skipped"
  readonly position: number
  readonly orderId: string
  readonly reason: string
  /** The bank's record as read; absent for a whole record of another source that is no order to project. */
  readonly order?: StandingOrder.StandingOrder | undefined
  /** The field that makes the bank's record pay nothing (`startDate` absent with `nextDate`, an `endDate` before them). */
  readonly field?: string | undefined
}

/** What a record is read as. */
export type Item = Order | Unread | Skipped

/** How records are read. */
export interface Options {
  /** One standard for every record (the CLI's `--standard`); else each says (`standard`) or reveals its own. */
  readonly standard?: Standard.Standard | undefined
  /** The convention of a recurrence whose record leaves it to the bank (default `following`). */
  readonly convention?: BusinessDayConvention.BusinessDayConvention | undefined
  /**
   * Read a list response body (docs/bank-interface.md, "Standing-order list"): `standingOrders` may be absent or
   * `null` (an empty page). Default: an orders file, where an object without `standingOrders` is none.
   */
  readonly body?: boolean | undefined
  /** The longest record read, in characters (default `StandingOrder.MAX_RECORD_LENGTH`). */
  readonly maxRecordLength?: number | undefined
  /** The deepest nesting inside a record (default 64). */
  readonly maxDepth?: number | undefined
  /** Account ids mapped to IBANs and currencies, for whole records that carry neither (UK, YNAB, Actual). */
  readonly accounts?: AccountMap.AccountMap | undefined
  /** The day the list was read: a COBS list item names no start, and a daily, weekly or monthly one counts from it. */
  readonly listedOn?: LocalDate.LocalDate | undefined
}

/** What the list said besides its records, known once the text has ended. */
export interface Ending {
  /** The list's `pageCount` when it has a well-formed one. */
  readonly pageCount: number | undefined
  /** Whether the text was an object whose `standingOrders` is absent or `null` (only with `body`). */
  readonly listMissing: boolean
  /** The top-level keys of an object text, once each in text order (empty for a bare array). */
  readonly keys: ReadonlyArray<string>
  /** The problems of the list itself (`kind` `list`), and the records still held when the text ended. */
  readonly items: ReadonlyArray<Item>
}

/** Options of {@link decodeBankList}. */
export interface BankListOptions {
  /**
   * A list response body (docs/bank-interface.md, "Standing-order list": `standingOrders` may be absent or `null`, an
   * empty page); default an orders file (a bare array, or an object with `standingOrders`).
   */
  readonly body?: boolean | undefined
  /** The deepest nesting inside a record (default 64). */
  readonly maxDepth?: number | undefined
  /** The longest record read, in characters (default `StandingOrder.MAX_RECORD_LENGTH`). */
  readonly maxRecordLength?: number | undefined
}

/** An orderId given by more than one record, with the records' positions (from 1, ascending). */
export interface Repeated {
  readonly orderId: string
  readonly positions: ReadonlyArray<number>
}
