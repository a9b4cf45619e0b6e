/**
 * The line writer behind `Export` (schedule's internal/lines.ts) over payments given one by one, in any order and
 * with dates anywhere: its JSON and CSV bytes equal the straightforward renderings ({@link Oracle}).
 */
import { LocalDate } from "@tppkit/core"
import { BigDecimal } from "effect"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import * as Lines from "../../packages/schedule/src/internal/lines.ts"
import type * as Plans from "../../packages/schedule/src/internal/plans.ts"
import * as Oracle from "./exportOracle.ts"
import { row as payment, rows } from "./payments.ts"

const d = LocalDate.parseUnsafe

/**
 * Payments in projection order as the writer's source: consecutive payments with one execution date make a date,
 * and each distinct set of an order's fields (orderId, amount, currency, accounts, creditor name) one order.
 */
const columnsOf = (payments: Iterable<Oracle.Row>): Lines.Source => {
  const orders: Array<Plans.Fields> = []
  const latest = new Map<string, number>()
  // a bank-confirmed payment executes on its order's nextDate, an engine-predicted one does not
  const confirmed = (p: Oracle.Row): boolean => p.provenance === "bank-confirmed"
  const same = (o: Plans.Fields, p: Oracle.Row): boolean =>
    (confirmed(p) ? o.nextDate === p.executionDate : o.nextDate !== p.executionDate) &&
    o.amount === p.amount &&
    o.currency === p.currency &&
    o.debtorIban === p.debtorIban &&
    o.creditorIban === p.creditorIban &&
    o.creditorName === p.creditorName
  function* days() {
    const day = { day: 0, length: 0, order: new Int32Array(64), nominal: new Int32Array(64) }
    for (const p of payments) {
      if (day.length > 0 && p.executionDate !== day.day) {
        yield day
        day.length = 0
      }
      day.day = p.executionDate
      let i = latest.get(p.orderId)
      if (i === undefined || !same(orders[i]!, p)) {
        i = orders.length
        orders.push({
          orderId: p.orderId,
          amount: p.amount,
          currency: p.currency,
          debtorIban: p.debtorIban,
          creditorIban: p.creditorIban,
          creditorName: p.creditorName,
          ...(confirmed(p) ? { nextDate: p.executionDate } : {})
        })
        latest.set(p.orderId, i)
      }
      if (day.length === day.order.length) {
        const order = new Int32Array(2 * day.length)
        const nominal = new Int32Array(2 * day.length)
        order.set(day.order)
        nominal.set(day.nominal)
        day.order = order
        day.nominal = nominal
      }
      day.order[day.length] = i
      day.nominal[day.length++] = p.nominalDate
    }
    if (day.length > 0) yield day
  }
  return { orders, days: days() }
}

/** The writer's JSON document of a report, as chunks. */
const jsonChunks = (report: Oracle.Document): Iterable<Uint8Array> =>
  Lines.encode(columnsOf(report.payments), report, Lines.jsonFormat(report))

/** The writer's CSV of a report, as chunks. */
const csvChunks = (report: Oracle.Document): Iterable<Uint8Array> =>
  Lines.encode(columnsOf(report.payments), report, Lines.csvFormat())

const text = (chunks: Iterable<Uint8Array>): string => Oracle.bytesOf(chunks).toString("utf8")
const projectionJson = (report: Oracle.Document): string => text(jsonChunks(report))
const projectionCsv = (report: Oracle.Document): string => text(csvChunks(report))

const report: Oracle.Document = {
  from: d("2026-01-01"),
  to: d("2026-03-31"),
  calendar: "target",
  convention: "following",
  payments: rows,
  skipped: [{ orderId: "SO-9", reason: 'frequency "FOO" is not one of DAIL, DAI7, WEEK, MNTH, QUTR, SEMI, YEAR' }]
}

describe("the JSON and CSV formats", () => {
  it("JSON has the documented keys in order and two-decimal amounts", () => {
    const json = JSON.parse(projectionJson(report))
    expect(Object.keys(json)).toEqual(["from", "to", "calendar", "convention", "payments", "skipped", "totals"])
    expect(json.payments[0]).toEqual({
      orderId: "SO-1",
      nominalDate: "2026-01-01",
      executionDate: "2026-01-02",
      provenance: "engine-predicted",
      amount: "1250.50",
      currency: "EUR",
      debtorIban: "SK3112000000198742637541",
      creditorIban: "SK6807200002891987426353",
      creditorName: 'Landlord, "Ltd"'
    })
    expect(Object.keys(json.payments[1])).not.toContain("creditorName")
    expect(json.skipped).toEqual([{ orderId: "SO-9", reason: report.skipped[0]!.reason }])
    expect(json.totals).toEqual([
      { currency: "CZK", count: 1, amount: "0.10" },
      { currency: "EUR", count: 2, amount: "1250.70" }
    ])
  })

  it("streamed JSON equals the JSON value, also for empty lists, with one payment per line", () => {
    expect(JSON.parse(projectionJson(report))).toEqual(Oracle.jsonValue(report))
    const empty = { ...report, payments: [], skipped: [] }
    expect(JSON.parse(projectionJson(empty))).toEqual(Oracle.jsonValue(empty))
    const lines = projectionJson(report).split("\n")
    expect(lines.filter((l) => l.includes('"executionDate"'))).toHaveLength(3)
    // a lazy sequence is consumed once, while rendering
    function* lazy() {
      yield* report.payments
    }
    expect(JSON.parse(text(Lines.encode(columnsOf(lazy()), report, Lines.jsonFormat(report))))).toEqual(
      Oracle.jsonValue(report)
    )
  })

  it("CSV quotes fields per RFC 4180", () => {
    const lines = projectionCsv(report).split("\r\n")
    expect(lines[0]).toBe(
      "orderId,nominalDate,executionDate,provenance,amount,currency,debtorIban,creditorIban,creditorName"
    )
    expect(lines[1]).toBe(
      'SO-1,2026-01-01,2026-01-02,engine-predicted,1250.50,EUR,SK3112000000198742637541,SK6807200002891987426353,"Landlord, ""Ltd"""'
    )
    expect(lines).toHaveLength(5)
  })

  it("CSV neutralises every text cell a spreadsheet would take for a formula, a number excepted (issue 40)", () => {
    const names = [
      '=HYPERLINK("http://x","y")',
      "+1+1",
      "-2",
      "-2.50",
      "@SUM(A1)",
      "\tcmd",
      "\rcmd",
      "Ann = Bob",
      "-",
      "\uff1dcmd",
      "\u001b]0;x\u0007"
    ]
    const payments = names.map((name) => payment("=SO-1", "2026-01-02", "1", "EUR", { creditorName: name }))
    // the payment rows (no header, no empty last line), and each row's creditorName cell
    const paymentRows = (csv: string) => csv.split("\r\n").slice(1, -1)
    const creditorIban = ",SK6807200002891987426353,"
    const creditorNameCells = (rows: ReadonlyArray<string>) =>
      rows.map((l) => l.slice(l.indexOf(creditorIban) + creditorIban.length))
    const lines = paymentRows(projectionCsv({ ...report, payments, skipped: [] }))
    expect(creditorNameCells(lines)).toEqual([
      '"\'=HYPERLINK(""http://x"",""y"")"',
      '"\'+1+1"',
      // a plain number stays a number (a negative balance a spreadsheet sums)
      "-2",
      "-2.50",
      '"\'@SUM(A1)"',
      // control characters are shown escaped, as the table shows them: no longer a formula's start
      "\\x09cmd",
      "\\x0dcmd",
      "Ann = Bob",
      '"\'-"',
      '"\'\uff1dcmd"',
      "\\x1b]0;x\\x07"
    ])
    // an orderId is a cell like any other: neutralised too
    for (const l of lines)
      expect(l.startsWith(`"'=SO-1",2026-01-02,2026-01-02,engine-predicted,1.00,EUR,SK3112000000198742637541,`)).toBe(
        true
      )
    // rawFormulas (--raw-csv): as they are, control characters still escaped
    const raw = paymentRows(text(Lines.encode(columnsOf(payments), report, Lines.csvFormat({ rawFormulas: true }))))
    expect(creditorNameCells(raw)).toEqual([
      '"=HYPERLINK(""http://x"",""y"")"',
      "+1+1",
      "-2",
      "-2.50",
      "@SUM(A1)",
      "\\x09cmd",
      "\\x0dcmd",
      "Ann = Bob",
      "-",
      "\uff1dcmd",
      "\\x1b]0;x\\x07"
    ])
    expect(raw[0]!.startsWith("=SO-1,")).toBe(true)
  })

  it("skipped orders without an orderId are null in JSON", () => {
    const json = Oracle.jsonValue({ ...report, skipped: [{ orderId: undefined, reason: "no orderId" }] })
    expect(json.skipped).toEqual([{ orderId: null, reason: "no orderId" }])
    expect(JSON.parse(projectionJson({ ...report, skipped: [{ orderId: undefined, reason: "x" }] })).skipped).toEqual([
      { orderId: null, reason: "x" }
    ])
  })
})

describe("projection JSON text", () => {
  it("parses to the JSON value for any texts, and one orderId with changing fields", () => {
    const text = fc.string({ maxLength: 12, unit: "grapheme" })
    const row = fc.record({
      orderId: fc.constantFrom("A", 'B"q', "C\\d", "\u00e9"),
      day: fc.integer({ min: d("2026-01-01"), max: d("2026-03-31") }),
      cents: fc.bigInt({ min: 1n, max: 10n ** 12n }),
      currency: fc.constantFrom("EUR", "CZK"),
      creditorName: fc.option(text, { nil: undefined }),
      creditorIban: text
    })
    fc.assert(
      fc.property(fc.array(row, { maxLength: 20 }), (rows) => {
        const payments = rows.map((r) => ({
          ...payment(r.orderId, LocalDate.format(r.day as LocalDate.LocalDate), "0", r.currency),
          amount: BigDecimal.make(r.cents, 2),
          creditorIban: r.creditorIban,
          ...(r.creditorName === undefined ? {} : { creditorName: r.creditorName })
        }))
        const value = { ...report, payments }
        expect(JSON.parse(projectionJson(value))).toEqual(Oracle.jsonValue(value))
      }),
      { numRuns: 300 }
    )
  })
})

describe("projection JSON and CSV bytes", () => {
  /** Equal bytes; when not, the first difference with some context around it. */
  const expectBytes = (actual: Buffer, expected: Buffer) => {
    if (actual.equals(expected)) return
    let at = 0
    while (at < actual.length && actual[at] === expected[at]) at++
    const around = (b: Buffer) => JSON.stringify(b.subarray(Math.max(0, at - 80), at + 80).toString("utf8"))
    expect({ at, length: actual.length, text: around(actual) }).toEqual({
      at,
      length: expected.length,
      text: around(expected)
    })
  }

  const expectSameBytes = (report: Oracle.Document) => {
    expectBytes(
      Oracle.bytesOf(Lines.encode(columnsOf(report.payments.values()), report, Lines.jsonFormat(report))),
      Buffer.from(Oracle.json(report), "utf8")
    )
    expectBytes(
      Oracle.bytesOf(Lines.encode(columnsOf(report.payments.values()), report, Lines.csvFormat())),
      Buffer.from(Oracle.csv(report), "utf8")
    )
  }

  // texts with JSON escapes, CSV quoting, non-ASCII, astral and lone surrogate characters
  const awkward = fc.constantFrom(
    '"',
    "\\",
    "\n",
    "\r",
    ",",
    "\u0000",
    "\u001f",
    "\u007f",
    "é",
    "\u2028",
    "😀",
    "\ud800",
    "=",
    "+",
    "-",
    "@",
    "\t"
  )
  const text = fc
    .array(fc.oneof(awkward, fc.string({ maxLength: 6, unit: "binary" })), { maxLength: 4 })
    .map((parts) => parts.join(""))
  const day = (lo: string, hi: string) => fc.integer({ min: d(lo), max: d(hi) }).map((n) => n as LocalDate.LocalDate)
  const amount = fc.oneof(
    fc.record({ value: fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }), scale: fc.integer({ min: -3, max: 6 }) }),
    fc.record({ value: fc.bigInt({ min: 0n, max: 999n }), scale: fc.constant(2) })
  )
  const order = fc.record({
    orderId: fc.oneof(fc.constantFrom("SO-1", "SO-2", "SO-3"), text),
    amount,
    currency: fc.oneof(fc.constantFrom("EUR", "CZK", "USD", "JPY"), text),
    debtorIban: fc.oneof(fc.constant("SK3112000000198742637541"), text),
    creditorIban: fc.oneof(fc.constant("SK6807200002891987426353"), text),
    creditorName: fc.option(text, { nil: undefined })
  })
  const paymentOf = (
    o: {
      orderId: string
      amount: { value: bigint; scale: number }
      currency: string
      debtorIban: string
      creditorIban: string
      creditorName: string | undefined
    },
    amount: BigDecimal.BigDecimal,
    execution: LocalDate.LocalDate,
    shift: number,
    confirmed = false
  ): Oracle.Row => ({
    orderId: o.orderId,
    nominalDate: LocalDate.addDays(execution, shift),
    executionDate: execution,
    provenance: confirmed ? "bank-confirmed" : "engine-predicted",
    amount,
    currency: o.currency,
    debtorIban: o.debtorIban,
    creditorIban: o.creditorIban,
    ...(o.creditorName === undefined ? {} : { creditorName: o.creditorName })
  })

  it("equal the straightforward renderings for random projections (escapes, currencies, amounts, dates)", () => {
    const projection = fc
      .record({
        from: day("2000-01-01", "2030-12-31"),
        span: fc.integer({ min: 0, max: 800 }),
        orders: fc.array(order, { minLength: 1, maxLength: 8 }),
        rows: fc.array(
          fc.record({
            order: fc.nat(),
            // mostly in the window; some far outside it (the date table's margin and beyond)
            offset: fc.oneof(fc.integer({ min: 0, max: 800 }), fc.integer({ min: -3000, max: 3000 })),
            shift: fc.oneof(fc.integer({ min: -7, max: 7 }), fc.integer({ min: -200, max: 200 })),
            // a fresh amount object of the same value (the per-order text is then made again)
            fresh: fc.boolean(),
            // on its order's nextDate: the bank's own date
            confirmed: fc.boolean()
          }),
          { maxLength: 40 }
        ),
        sorted: fc.boolean(),
        skipped: fc.array(fc.record({ orderId: fc.option(text, { nil: undefined }), reason: text }), { maxLength: 3 }),
        calendar: text,
        convention: fc.constantFrom("following", "modifiedFollowing")
      })
      .map((g) => {
        const amounts = g.orders.map((o) => BigDecimal.make(o.amount.value, o.amount.scale))
        const payments = g.rows.map((r) => {
          const i = r.order % g.orders.length
          const o = g.orders[i]!
          const amount = r.fresh ? BigDecimal.make(o.amount.value, o.amount.scale) : amounts[i]!
          return paymentOf(o, amount, LocalDate.addDays(g.from, r.offset), r.shift, r.confirmed)
        })
        if (g.sorted) payments.sort((a, b) => a.executionDate - b.executionDate)
        return {
          from: g.from,
          to: LocalDate.addDays(g.from, g.span),
          calendar: g.calendar,
          convention: g.convention,
          payments,
          skipped: g.skipped
        } satisfies Oracle.Document
      })
    fc.assert(fc.property(projection, expectSameBytes), { numRuns: 500 })
  })

  it("equal them across many chunks, at the ends of the date range and for a line longer than a chunk", () => {
    const from = d("2026-01-01")
    const orders = Array.from({ length: 500 }, (_, i) => ({
      orderId: `SO-${i}`,
      amount: { value: BigInt(i * 37 + 1), scale: i % 4 },
      currency: i % 3 === 0 ? "CZK" : "EUR",
      debtorIban: `SK${i % 7}`,
      creditorIban: `CZ${i}`,
      creditorName: i % 5 === 0 ? undefined : `Creditor ${"é".repeat(i % 11)} ${i}`
    }))
    const amounts = orders.map((o) => BigDecimal.make(o.amount.value, o.amount.scale))
    const payments: Array<Oracle.Row> = []
    for (let day = 0; day < 365; day++) {
      for (let i = day % 9; i < orders.length; i += 9) {
        payments.push(paymentOf(orders[i]!, amounts[i]!, LocalDate.addDays(from, day), i % 4 === 0 ? -1 : 0))
      }
    }
    const base = { from, to: d("2026-12-31"), calendar: "target", convention: "following", skipped: [] }
    expectSameBytes({ ...base, payments })
    const big = { ...orders[1]!, creditorName: "x".repeat(1_500_000) }
    const ends = [
      paymentOf(orders[0]!, amounts[0]!, LocalDate.MIN, 0),
      paymentOf(big, amounts[1]!, from, 0),
      paymentOf(orders[2]!, amounts[2]!, LocalDate.MAX, 0),
      paymentOf(orders[3]!, amounts[3]!, LocalDate.addDays(from, 9), 0)
    ]
    expectSameBytes({ ...base, payments: [...payments.slice(0, 6000), ...ends, ...payments.slice(6000, 9000)] })
    expectSameBytes({ ...base, from: LocalDate.MIN, to: LocalDate.MAX, payments: ends })
  })
})
