/**
 * fast-check generators for the schemas of @tppkit/core, shared by every suite: valid IBANs (with computed check
 * digits), currency codes, exact amounts within the [12.2] and [9.2] formats, dates, date-times and whole standing
 * orders (domain values and their wire JSON).
 */
import {
  type Card,
  type Currency,
  Frequency,
  type Headers,
  Iban,
  LocalDate,
  Money,
  StandingOrder,
  Timestamp
} from "@tppkit/core"
import { BigDecimal, Schema } from "effect"
import fc from "fast-check"

const countries = Object.entries(Iban.countryLengths)

/** Upper-case letters and digits, as a BBAN may contain. */
const alnum = fc.constantFrom(..."ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".split(""))
const digit = fc.constantFrom(..."0123456789".split(""))

/** A valid IBAN of a known country: random BBAN (mostly digits) with correct check digits. */
export const iban: fc.Arbitrary<Iban.Iban> = fc.constantFrom(...countries).chain(([country, length]) =>
  fc
    .array(fc.oneof({ weight: 4, arbitrary: digit }, { weight: 1, arbitrary: alnum }), {
      minLength: length - 4,
      maxLength: length - 4
    })
    .map((chars) => {
      const bban = chars.join("")
      return Iban.parseUnsafe(`${country}${Iban.checkDigits(country, bban)}${bban}`)
    })
)

/** A valid IBAN as a person might type it: print form with spaces, or lower case. */
export const ibanText: fc.Arbitrary<string> = fc.tuple(iban, fc.boolean(), fc.boolean()).map(([i, spaced, lower]) => {
  const text = spaced ? Iban.formatPrint(i) : i
  return lower ? text.toLowerCase() : text
})

/** A currency code: three upper-case letters. */
export const currencyCode: fc.Arbitrary<Currency.CurrencyCode> = fc
  .stringMatching(/^[A-Z]{3}$/)
  .map((s) => s as Currency.CurrencyCode)

/** A positive exact amount within a format `[i.f]`, spread over every magnitude. */
export const amount = (format: Money.Format): fc.Arbitrary<Money.Amount> =>
  fc.integer({ min: 0, max: format.fractionDigits }).chain((scale) =>
    fc
      .integer({ min: 1, max: format.integerDigits + scale })
      .chain((digits) => fc.bigInt({ min: 10n ** BigInt(digits - 1), max: 10n ** BigInt(digits) - 1n }))
      .map((value) => BigDecimal.normalize(BigDecimal.make(value, scale)))
  )

/** A positive balance-check amount, format [12.2]. */
export const balanceCheckAmount: fc.Arbitrary<Money.Amount> = amount(Money.balanceCheckFormat)

/** A positive standing-order amount, format [9.2]. */
export const standingOrderAmount: fc.Arbitrary<Money.Amount> = amount(Money.standingOrderFormat)

/** Any supported date, 0001-01-01..9999-12-31. */
export const localDate: fc.Arbitrary<LocalDate.LocalDate> = fc
  .integer({ min: LocalDate.MIN, max: LocalDate.MAX })
  .map((n) => n as LocalDate.LocalDate)

/** A date in the years 2000–2099, where real orders live. */
export const recentDate: fc.Arbitrary<LocalDate.LocalDate> = fc
  .integer({ min: LocalDate.makeUnsafe(2000, 1, 1), max: LocalDate.makeUnsafe(2099, 12, 31) })
  .map((n) => n as LocalDate.LocalDate)

/** A text of at most `max` printable characters. */
export const text = (max: number, min = 0): fc.Arbitrary<string> =>
  fc.string({ minLength: min, maxLength: max, unit: "grapheme-ascii" })

/** A frequency code. */
export const frequency: fc.Arbitrary<Frequency.Frequency> = fc.constantFrom(...Frequency.codes)

/** The fields of a standing order; optional ones present or absent at random. */
const orderFields = fc.record(
  {
    orderId: text(20, 1),
    debtor: fc.record({ name: text(70), iban }),
    creditor: fc.record(
      { name: text(70), addressLine1: text(35), addressLine2: text(35), iban },
      { requiredKeys: ["iban"] }
    ),
    instructedAmount: fc.record({ value: standingOrderAmount, currency: currencyCode }),
    endToEndIdentification: text(35),
    remittanceInformation: text(140),
    standingOrderName: text(40),
    startDate: recentDate,
    nextDate: recentDate,
    endDate: recentDate,
    frequency
  },
  {
    requiredKeys: ["orderId", "debtor", "creditor", "instructedAmount", "frequency"]
  }
)

/** A valid standing order (domain value), with every optional field present or absent at random. */
export const standingOrder: fc.Arbitrary<StandingOrder.StandingOrder> = orderFields.map(
  (fields) => new StandingOrder.StandingOrder(fields)
)

/** The wire JSON of a valid standing order (what the bank would send). */
export const standingOrderJson: fc.Arbitrary<Record<string, unknown>> = standingOrder.map(
  (o) => StandingOrder.encode(o) as unknown as Record<string, unknown>
)

/** A standing-order list request with each attribute present or absent. */
export const listRequest: fc.Arbitrary<StandingOrder.ListRequest> = fc.record(
  {
    iban,
    pageSize: fc.integer({ min: 1, max: 10 }).map((n) => n * 10),
    page: fc.integer({ min: 0, max: 1000 })
  },
  { requiredKeys: [] }
)

/** A list response body on the wire: encoded orders, pageCount as a number, a string or absent. */
export const listResponseJson: fc.Arbitrary<Record<string, unknown>> = fc
  .tuple(fc.array(standingOrder, { maxLength: 10 }), fc.option(fc.nat({ max: 50 })), fc.boolean())
  .map(([orders, pageCount, asString]) => {
    const encoded = Schema.encodeSync(StandingOrder.ListResponse)({
      standingOrders: orders,
      ...(pageCount === null ? {} : { pageCount })
    }) as unknown as Record<string, unknown>
    return pageCount !== null && asString ? { ...encoded, pageCount: String(pageCount) } : encoded
  })

/** A country code: two upper-case letters. */
export const countryCode: fc.Arbitrary<Currency.CountryCode> = fc
  .stringMatching(/^[A-Z]{2}$/)
  .map((s) => s as Currency.CountryCode)

/** A merchant category code: four digits. */
export const merchantCategoryCode: fc.Arbitrary<Card.MerchantCategoryCode> = fc
  .stringMatching(/^\d{4}$/)
  .map((s) => s as Card.MerchantCategoryCode)

/** A masked card number in one of its three accepted spellings. */
export const maskedCardNumber: fc.Arbitrary<Card.MaskedCardNumber> = fc
  .tuple(fc.constantFrom("", " ", "-"), fc.stringMatching(/^\d{4}$/))
  .map(([sep, last]) => `****${sep}****${sep}****${sep}${last}` as Card.MaskedCardNumber)

/** An RFC 3339 date-time in the years 2000–2099 at a whole-minute offset, with or without milliseconds. */
export const dateTime: fc.Arbitrary<Timestamp.Timestamp> = fc
  .tuple(
    fc.integer({ min: 946_684_800_000, max: 4_102_444_799_999 }),
    fc.integer({ min: -14 * 60, max: 14 * 60 }),
    fc.boolean()
  )
  .map(([ms, offset, wholeSeconds]) => Timestamp.fromEpochMillis(wholeSeconds ? ms - (ms % 1000) : ms, offset))

/** An IPv4 or IPv6 address. */
export const ipAddress: fc.Arbitrary<string> = fc.oneof(fc.ipV4(), fc.ipV6())

/** A customer context with optional geo-location and last log-in time. */
export const psu: fc.Arbitrary<Headers.Psu> = fc.record(
  {
    ipAddress,
    deviceOs: text(30, 1).filter((s) => s.trim() === s && s.length > 0),
    userAgent: text(60, 1).filter((s) => s.trim() === s && s.length > 0),
    geoLocation: fc
      .tuple(fc.integer({ min: -90_000, max: 90_000 }), fc.integer({ min: -180_000, max: 180_000 }))
      .map(([lat, lon]) => `${lat / 1000}, ${lon / 1000}`),
    lastLoggedTime: dateTime
  },
  { requiredKeys: ["ipAddress", "deviceOs", "userAgent"] }
)
