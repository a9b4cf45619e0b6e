/**
 * The cash-flow picture, read back the way a browser reads it: parse5 parses the document (inline SVG lands in
 * the SVG namespace), and the tests check what the chart and the table say against the projection itself.
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { Html, Project } from "@tppkit/cli"
import { LocalDate, Money } from "@tppkit/core"
import { CashFlow, Export, Payment } from "@tppkit/schedule"
import { BigDecimal, Result } from "effect"
import { type DefaultTreeAdapterTypes, parse } from "parse5"
import { describe, expect, it } from "vitest"

type Node = DefaultTreeAdapterTypes.ChildNode | DefaultTreeAdapterTypes.Document
type Element = DefaultTreeAdapterTypes.Element

const SVG = "http://www.w3.org/2000/svg"

const elements = (node: Node): Array<Element> => {
  const out: Array<Element> = []
  const walk = (n: Node) => {
    if ("tagName" in n) out.push(n)
    const children =
      "content" in n && n.nodeName === "template" ? n.content.childNodes : "childNodes" in n ? n.childNodes : []
    for (const c of children) walk(c)
  }
  walk(node)
  return out
}

const attr = (e: Element, name: string): string | undefined => e.attrs.find((a) => a.name === name)?.value
const classes = (e: Element): Array<string> => (attr(e, "class") ?? "").split(/\s+/).filter((c) => c.length > 0)
const text = (n: Node): string =>
  n.nodeName === "#text"
    ? (n as DefaultTreeAdapterTypes.TextNode).value
    : "childNodes" in n
      ? n.childNodes.map(text).join("")
      : ""
const byClass = (list: ReadonlyArray<Element>, tag: string, cls: string) =>
  list.filter((e) => e.tagName === tag && classes(e).includes(cls))

const fixture = (name: string) => readFileSync(join(import.meta.dirname, "fixtures", name), "utf8")

/** The projected payments of the fixture orders over a window, as an array (the report's list is read once). */
const projection = (from: string, to: string) => {
  const settings = Result.getOrThrow(Project.settings({ from, to, calendar: "target", convention: "following" }))
  const report = Project.report(Result.getOrThrow(Project.decodeOrders(fixture("orders.json"))), settings)
  const payments: Array<Payment.Payment> = Array.from(Export.payments(report), Payment.toPlain)
  return {
    from: report.from,
    to: report.to,
    calendar: report.calendarName,
    convention: report.convention,
    skipped: report.skipped,
    payments
  }
}

const sum = (values: ReadonlyArray<string>): string =>
  BigDecimal.format(
    values.reduce((acc, v) => BigDecimal.sum(acc, BigDecimal.fromStringUnsafe(v)), BigDecimal.fromBigInt(0n))
  )

describe("Html.document", () => {
  it("is one self-contained document: no script, nothing loaded from elsewhere", () => {
    const html = Html.document(projection("2024-01-01", "2024-06-30"))
    const all = elements(parse(html))
    expect(html.startsWith("<!DOCTYPE html>")).toBe(true)
    expect(all.filter((e) => ["script", "link", "img", "iframe", "object", "embed"].includes(e.tagName))).toEqual([])
    for (const e of all) {
      for (const a of e.attrs) {
        expect(["src", "href", "srcset", "xlink:href", "action"]).not.toContain(a.name)
        if (a.name !== "xmlns") expect(a.value).not.toMatch(/(https?:|\/\/)/)
      }
    }
    expect(all.find((e) => e.tagName === "style")).toBeDefined()
    expect(html).not.toMatch(/@import|url\(/)
  })

  it("charts the outgoing payments per month and currency in SVG, the bars adding up to the totals", () => {
    const report = projection("2024-01-01", "2024-06-30")
    const all = elements(parse(Html.document(report)))
    const svgs = all.filter((e) => e.tagName === "svg")
    expect(svgs.map((s) => attr(s, "data-currency"))).toEqual(["CZK", "EUR"])
    for (const svg of svgs) {
      expect(svg.namespaceURI).toBe(SVG)
      const currency = attr(svg, "data-currency")!
      const inside = elements(svg)
      const bars = byClass(inside, "rect", "bar").filter((b) => !classes(b).includes("at-risk"))
      const months = CashFlow.totals(report.payments, { period: "month" }).byPeriod.filter(
        (t) => t.currency === currency
      )
      expect(bars.map((b) => attr(b, "data-period"))).toEqual(months.map((m) => m.label))
      expect(bars.map((b) => attr(b, "data-amount"))).toEqual(
        months.map((m) => Html.amountText(m.amount).replace(/\u2009/g, ""))
      )
      const viewBox = attr(svg, "viewBox")!.split(" ").map(Number)
      for (const b of bars) {
        expect(b.namespaceURI).toBe(SVG)
        const y = Number(attr(b, "y"))
        const height = Number(attr(b, "height"))
        expect(height).toBeGreaterThan(0)
        expect(y).toBeGreaterThanOrEqual(0)
        expect(y + height).toBeLessThanOrEqual(viewBox[3]!)
        expect(text(b.childNodes.find((c) => c.nodeName === "title")!)).toContain(currency)
      }
    }
  })

  it("draws the running total of each debtor account, ending at the account's total", () => {
    const report = projection("2024-01-01", "2024-06-30")
    const all = elements(parse(Html.document(report)))
    const paths = byClass(all, "path", "running")
    const byDebtor = CashFlow.totals(report.payments).byDebtor
    expect(paths.map((p) => [attr(p, "data-account"), attr(p, "data-total")]).sort()).toEqual(
      byDebtor.map((d) => [d.debtorIban, Money.formatFixed2(d.amount)]).sort()
    )
    for (const p of paths) expect(attr(p, "d")).toMatch(/^M[\d.]+,[\d.]+( [HV][\d.]+)+$/)
  })

  it("marks the month bars a window cuts as partial, in the class, the data and the title", () => {
    const report = projection("2024-01-15", "2024-06-10")
    const all = elements(parse(Html.document(report)))
    for (const svg of all.filter((e) => e.tagName === "svg")) {
      const bars = byClass(elements(svg), "rect", "bar").filter((b) => !classes(b).includes("at-risk"))
      const partial = bars.filter((b) => attr(b, "data-partial") === "true")
      expect(partial.every((b) => classes(b).includes("partial"))).toBe(true)
      expect(partial.map((b) => attr(b, "data-period"))).toEqual(
        bars.map((b) => attr(b, "data-period")).filter((p) => p === "2024-01" || p === "2024-06")
      )
      for (const b of partial) {
        const title = text(b.childNodes.find((c) => c.nodeName === "title")!)
        expect(title).toMatch(/^2024-0(1 \(partial: 15–31\)|6 \(partial: 1–10\)): /)
      }
      const whole = bars.filter((b) => attr(b, "data-partial") === undefined)
      expect(whole.map((b) => attr(b, "data-period"))).not.toContain("2024-01")
    }
    expect(Html.document(projection("2024-01-01", "2024-06-30"))).not.toContain('data-partial="true"')
  })

  it("charts short windows per day", () => {
    const report = projection("2024-01-01", "2024-03-31")
    const bars = byClass(elements(parse(Html.document(report))), "rect", "bar")
    const days = new Set(report.payments.map((p) => `${p.currency} ${LocalDate.format(p.executionDate)}`))
    expect(bars).toHaveLength(days.size)
    expect(bars.every((b) => /^\d{4}-\d\d-\d\d$/.test(attr(b, "data-period") ?? ""))).toBe(true)
  })

  it("lists every payment in the table, in order, with the skipped orders below", () => {
    const report = projection("2024-01-01", "2024-06-30")
    const all = elements(parse(Html.document(report)))
    const table = all.find((e) => e.tagName === "table" && classes(e).includes("payments"))!
    const rows = elements(table)
      .filter((e) => e.tagName === "tr")
      .slice(1)
    expect(rows).toHaveLength(report.payments.length)
    const cells = rows.map((r) =>
      elements(r)
        .filter((e) => e.tagName === "td")
        .map(text)
    )
    expect(cells.map((c) => [c[0], c[2], c[5]?.replace(/\u2009/g, ""), c[6]])).toEqual(
      report.payments.map((p) => [
        LocalDate.format(p.executionDate),
        p.orderId,
        Money.formatFixed2(p.amount),
        p.currency
      ])
    )
    // the nominal date is shown only when a holiday or weekend moved the payment
    expect(cells.find((c) => c[0] === "2024-04-02")?.[1]).toBe("2024-03-31")
    const skipped = all.find((e) => e.tagName === "ul" && classes(e).includes("skipped"))!
    expect(elements(skipped).filter((e) => e.tagName === "li")).toHaveLength(report.skipped.length)
  })

  it("marks the payments a funds check found at risk: red bar parts, markers on the lines, rows", () => {
    const report = projection("2024-01-01", "2024-06-30")
    const risky = report.payments.filter((p) => p.currency === "EUR").slice(1, 3)
    const atRisk = new Map(risky.map((p) => [Html.riskKey(p), "declined (DECL)"]))
    const all = elements(parse(Html.document({ ...report, atRisk, fundsCheck: "payments due by 2024-06-30" })))
    const riskBars = byClass(all, "rect", "at-risk")
    expect(sum(riskBars.map((b) => attr(b, "data-amount")!))).toBe(
      BigDecimal.format(risky.reduce((a, p) => BigDecimal.sum(a, p.amount), BigDecimal.fromBigInt(0n)))
    )
    const markers = byClass(all, "circle", "risk-marker")
    expect(markers.map((m) => `${attr(m, "data-account")} ${attr(m, "data-date")}`)).toEqual(
      risky.map((p) => `${p.debtorIban} ${LocalDate.format(p.executionDate)}`)
    )
    for (const m of markers) expect(text(m)).toContain("declined (DECL)")
    const rows = all.filter((e) => e.tagName === "tr" && classes(e).includes("at-risk"))
    expect(rows).toHaveLength(2)
    expect(text(rows[0]!)).toContain("at risk")
    // without a funds check nothing is marked and the table has no funds column
    const plain = elements(parse(Html.document(report)))
    expect(byClass(plain, "rect", "at-risk")).toEqual([])
    expect(plain.filter((e) => e.tagName === "th").map(text)).not.toContain("Funds")
  })

  it("escapes what the bank sent: a creditor name cannot inject markup", () => {
    const report = projection("2024-01-01", "2024-02-29")
    const first = report.payments[0]!
    const hostile = { ...first, creditorName: '<script>alert("x")</script><img src=x>' }
    const html = Html.document({ ...report, payments: [hostile, ...report.payments.slice(1)] })
    const all = elements(parse(html))
    expect(all.filter((e) => e.tagName === "script" || e.tagName === "img")).toEqual([])
    expect(html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;")
  })

  it("says so when no payment falls in the window", () => {
    const report = projection("2030-01-01", "2030-01-31")
    expect(report.payments.length).toBeGreaterThanOrEqual(0)
    const empty = Html.document({ ...report, payments: [] })
    expect(empty).toContain("No payments fall in this window.")
    expect(elements(parse(empty)).filter((e) => e.tagName === "svg")).toEqual([])
  })

  it("reads the payments once and holds one step per point of the axis over a long window", () => {
    // 40 years of a daily payment: 14,610 days on an axis of 864 px, drawn to a tenth of a pixel
    const from = LocalDate.parseUnsafe("2000-01-01")
    const to = LocalDate.parseUnsafe("2039-12-31")
    let reads = 0
    function* payments(): Generator<Html.Row> {
      reads++
      for (let day = from; day <= to; day = LocalDate.addDays(day, 1)) {
        yield {
          orderId: "SO-DAILY",
          nominalDate: day,
          executionDate: day,
          amount: BigDecimal.fromStringUnsafe("0.10"),
          currency: "EUR",
          debtorIban: "SK3112000000198742637541",
          creditorIban: "SK6809000000005012345678",
          creditorName: "Daily"
        }
      }
    }
    const days = to - from + 1
    const html = Html.document({
      from,
      to,
      calendar: "target",
      convention: "following",
      skipped: [],
      payments: payments()
    })
    expect(reads).toBe(1)
    const all = elements(parse(html))
    const [path] = byClass(all, "path", "running")
    expect(attr(path!, "data-total")).toBe(Money.formatFixed2(BigDecimal.fromStringUnsafe(`${days / 10}`)))
    const xs = attr(path!, "d")!
      .split(" ")
      .filter((c) => c.startsWith("H"))
      .map((c) => Number(c.slice(1)))
      .slice(0, -1)
    // the steps (the path's end left out) strictly increasing: no two on one point; at most one per tenth of a pixel
    expect(xs.every((x, i) => i === 0 || x > xs[i - 1]!)).toBe(true)
    expect(xs.length).toBeLessThanOrEqual(8641)
    expect(xs.length).toBeGreaterThan(8000)
    // the table lists the first rows and says how many more the chart and totals cover
    expect(
      byClass(all, "table", "payments").flatMap((t) => elements(t).filter((e) => e.tagName === "tr"))
    ).toHaveLength(Html.TABLE_ROWS + 1)
    expect(html).toContain(`${days - Html.TABLE_ROWS} more payments are in the chart and the totals but not listed`)
    expect(html).toContain(`${days} payments`)
  })
})
