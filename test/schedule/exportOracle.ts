/**
 * The straightforward renderings of a projection document that the byte writers (schedule's `Export` and its
 * internal line writer) are judged against: `JSON.stringify` of every item of the JSON value one per line, and RFC
 * 4180 CSV of every payment's fields, with the totals from `CashFlow.totals` over the payments.
 */
import { LocalDate, Money, Text } from "@tppkit/core"
import { CashFlow, Payment } from "@tppkit/schedule"

/** A payment as the documents show it (its occurrence number not shown). */
export type Row = Omit<Payment.Payment, "k">

/** What a document states: the window, the settings, the payments in order and the skipped orders. */
export interface Document {
  readonly from: LocalDate.LocalDate
  readonly to: LocalDate.LocalDate
  readonly calendar: string
  readonly convention: string
  readonly payments: ReadonlyArray<Row>
  readonly skipped: ReadonlyArray<{ readonly orderId: string | undefined; readonly reason: string }>
}

const paymentJson = (p: Row) => ({
  orderId: p.orderId,
  nominalDate: LocalDate.format(p.nominalDate),
  executionDate: LocalDate.format(p.executionDate),
  provenance: Payment.provenanceOf(p),
  amount: Money.formatMinor(p.amount, p.currency),
  currency: p.currency,
  debtorIban: p.debtorIban,
  creditorIban: p.creditorIban ?? null,
  ...(p.creditorName === undefined ? {} : { creditorName: p.creditorName })
})

/** The JSON document as a value: keys in the documented order, amounts with their currency's minor unit digits. */
export const jsonValue = (doc: Document) => ({
  from: LocalDate.format(doc.from),
  to: LocalDate.format(doc.to),
  calendar: doc.calendar,
  convention: doc.convention,
  payments: doc.payments.map(paymentJson),
  skipped: doc.skipped.map((s) => ({ orderId: s.orderId ?? null, reason: s.reason })),
  totals: CashFlow.totals(doc.payments).byCurrency.map((t) => ({
    currency: t.currency,
    count: t.count,
    amount: Money.formatMinor(t.amount, t.currency)
  }))
})

/** The JSON text: `JSON.stringify` of every item of the JSON value, one per line. */
export const json = (doc: Document): string => {
  const value = jsonValue(doc)
  const list = (items: ReadonlyArray<unknown>) =>
    items.length === 0 ? "[]" : `[\n${items.map((item) => `    ${JSON.stringify(item)}`).join(",\n")}\n  ]`
  return (
    `{\n  "from": ${JSON.stringify(value.from)},\n  "to": ${JSON.stringify(value.to)},\n` +
    `  "calendar": ${JSON.stringify(value.calendar)},\n  "convention": ${JSON.stringify(value.convention)},\n` +
    `  "payments": ${list(value.payments)},\n  "skipped": ${list(value.skipped)},\n  "totals": ${list(value.totals)}\n}\n`
  )
}

const csvField = (text: string): string => (/[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text)

/**
 * A text cell: its control characters shown escaped (core's `Text.printable`), and, when a spreadsheet could take it
 * for a formula and it is no plain number, a quote before it and quoted (OWASP).
 */
const formulaStart = ["=", "+", "-", "@", "\t", "\r", "\n", "\u0000", "\uff1d", "\uff0b", "\uff0d", "\uff20"]
const freeText = (raw: string): string => {
  const text = Text.printable(raw)
  return formulaStart.some((c) => text.startsWith(c)) && !/^-?\d+(\.\d+)?$/.test(text)
    ? `"'${text.split('"').join('""')}"`
    : csvField(text)
}

/** The columns that hold text from the orders (the others are dates, a provenance word and an amount). */
const textColumns = new Set([0, 5, 6, 7, 8])

/** RFC 4180 CSV, CRLF-terminated lines: the header, then every payment's fields (each text cell neutralised). */
export const csv = (doc: Document): string =>
  [
    [
      "orderId",
      "nominalDate",
      "executionDate",
      "provenance",
      "amount",
      "currency",
      "debtorIban",
      "creditorIban",
      "creditorName"
    ],
    ...doc.payments.map((p) => [
      p.orderId,
      LocalDate.format(p.nominalDate),
      LocalDate.format(p.executionDate),
      Payment.provenanceOf(p),
      Money.formatMinor(p.amount, p.currency),
      p.currency,
      p.debtorIban,
      p.creditorIban ?? "",
      p.creditorName ?? ""
    ])
  ]
    .map(
      (r, i) => `${r.map((cell, c) => (i > 0 && textColumns.has(c) ? freeText(cell) : csvField(cell))).join(",")}\r\n`
    )
    .join("")

/** The bytes of chunks, each copied before the next is asked for (the writers reuse their buffers). */
export const bytesOf = (chunks: Iterable<string | Uint8Array>): Buffer => {
  const copies: Array<Buffer> = []
  for (const chunk of chunks) copies.push(Buffer.from(chunk))
  return Buffer.concat(copies)
}
