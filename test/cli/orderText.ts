/**
 * Orders files written as text, for the suites that give the command or its decoder an amount exactly as a bank
 * could write it (`12.345`, `1e15`, `-5`): JavaScript would print such a number otherwise, so the record is written
 * with a placeholder and the amount's text put in its place.
 */

/**
 * One monthly order from 1 December 2026, from a Slovak to a Czech account, in EUR, as JSON text; its
 * `instructedAmount.value` is `value` as written (a JSON number's text, or a quoted string such as `'"10.50"'`).
 */
export const orderText = (orderId: string, value: string): string =>
  JSON.stringify({
    orderId,
    frequency: "MNTH",
    startDate: "2026-12-01",
    debtor: { name: "X", iban: "SK2411000000002612345678" },
    creditor: { iban: "CZ0708000000001234567890" },
    instructedAmount: { value: "@", currency: "EUR" }
  }).replace('"@"', value)

/** The records' texts as one JSON list. */
export const listText = (records: ReadonlyArray<string>): string => `[${records.join(",")}]`
