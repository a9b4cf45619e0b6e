/**
 * @tppkit/core: pure schemas and domain logic of the bank interface. No I/O.
 *
 * @since 0.1.0
 */

/** Token by secret: form request and JSON response (docs/bank-interface.md, "Token"). */
export * as AccessToken from "./AccessToken.ts"
/** Account ids mapped to IBANs and currencies: what UK, YNAB and Actual records do not carry. */
export * as AccountMap from "./AccountMap.ts"
/** Actual Budget schedules (`RecurConfig`) from and to recurrences, every loss named. */
export * as Actual from "./Actual.ts"
/** How long to wait before each retry: exponential (initial, factor, cap) or a table, with jitter; one for every retry. */
export * as Backoff from "./Backoff.ts"
/** Balance check: request and response bodies (docs/bank-interface.md, "Balance check"). */
export * as BalanceCheck from "./BalanceCheck.ts"
/** A bank's date rule: convention, calendar (or every day) and whether it lists execution or nominal dates. */
export * as BankRule from "./BankRule.ts"
/** Berlin Group NextGenPSD2 standing orders (`standingOrderDetails`) to and from recurrences, every loss named. */
export * as BerlinGroup from "./BerlinGroup.ts"
/** Business-day conventions: following, preceding, modified-following, modified-preceding, none. */
export * as BusinessDayConvention from "./BusinessDayConvention.ts"
/** Working-day calendars: weekends, TARGET2 and custom holidays. */
export * as Calendar from "./Calendar.ts"
/** Card-transaction details: merchant category code and masked card number. */
export * as Card from "./Card.ts"
/** Czech Open Banking Standard (COBS) standing orders to and from recurrences, every loss named. */
export * as Cobs from "./Cobs.ts"
/** Currency codes (ISO 4217) and country codes (ISO 3166). */
export * as Currency from "./Currency.ts"
/** Why a payment falls on its date: a trace from the anchor to the execution date that replays exactly. */
export * as DateTrace from "./DateTrace.ts"
/** A standard decoder's result: the translation and each tolerance applied to a record that breaks its standard. */
export * as Decoded from "./Decoded.ts"
/** Easter Sunday by the Gregorian computus. */
export * as Easter from "./Easter.ts"
/** LIVE and SANDBOX paths of the three operations (docs/bank-interface.md, "Environments and paths"). */
export * as Endpoint from "./Endpoint.ts"
/** Error bodies: OAuth, problem details, tppMessages, CZ/SK errors, or raw text. */
export * as ErrorBody from "./ErrorBody.ts"
/** The standing-order frequency codes. */
export * as Frequency from "./Frequency.ts"
/** Request and response headers of both operations (docs/bank-interface.md, "Headers"). */
export * as Headers from "./Headers.ts"
/** IBANs: normalised, country length and mod-97 checked. */
export * as Iban from "./Iban.ts"
/** ISO 20022 frequencies (Frequency6Code, EventFrequency7Code, Frequency36Choice) to and from recurrences. */
export * as Iso20022 from "./Iso20022.ts"
/** JSON read exactly: numbers as their source text, repeated keys reported, invalid UTF-8 named by byte offset. */
export * as Json from "./Json.ts"
/** Calendar dates as integer day numbers, `YYYY-MM-DD` on the wire. */
export * as LocalDate from "./LocalDate.ts"
/** Exact money amounts (BigDecimal) with the [12.2] and [9.2] wire formats. */
export * as Money from "./Money.ts"
/** The frequency engine: nominal and execution dates of a standing order, lazily and by index. */
export * as Occurrence from "./Occurrence.ts"
/** Standing orders of any standard read once: bytes to orders, each with its recurrence, unread records named. */
export * as Orders from "./Orders.ts"
/** Bank profiles as data: operations, paths, authentication, headers, paging, limits; `sbas` and `cobs` built in. */
export * as Profile from "./Profile.ts"
/** One recurrence model for standing orders of every standard; the bank's seven codes are values of it. */
export * as Recurrence from "./Recurrence.ts"
/** The identifiers of one request and its response: Request-ID, Correlation-ID, Process-ID, Response-ID. */
export * as RequestIdentity from "./RequestIdentity.ts"
/** RFC 5545 RRULEs (with RFC 7529 SKIP) to and from recurrences, every loss named. */
export * as Rrule from "./Rrule.ts"
/** The bank's seven frequency codes to and from recurrences, every loss named. */
export * as Sbas from "./Sbas.ts"
/** Schema failures as a field path and a message, the one way every package words them. */
export * as SchemaProblem from "./SchemaProblem.ts"
/** Standing orders read whole as each standard's banks and apps send them: who pays what, next date, what is missing. */
export * as SourceRecord from "./SourceRecord.ts"
/** Records of any standard in one list: which standard a record reveals, and its recurrence through that decoder. */
export * as Standard from "./Standard.ts"
/**
 * Standing-order list: request, response, strict and lenient decoding (docs/bank-interface.md, "Standing-order list").
 */
export * as StandingOrder from "./StandingOrder.ts"
/** Bounded texts with the bank's field lengths. */
export * as Text from "./Text.ts"
/** RFC 3339 date-times kept as text, with pure epoch-millisecond conversions. */
export * as Timestamp from "./Timestamp.ts"
/** A translation's result: exact, lossy (every change named) or unrepresentable (the reason). */
export * as Translation from "./Translation.ts"
/** UK Open Banking v3 (`Frequency` strings) and v4 (`OBFrequency6`) standing orders to and from recurrences. */
export * as UkOpenBanking from "./UkOpenBanking.ts"
/** YNAB scheduled transactions (`frequency`, `date_first`) from and to recurrences, every loss named. */
export * as Ynab from "./Ynab.ts"
