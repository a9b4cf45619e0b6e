/**
 * The HTML pictures in a real browser (issue 24): `tppkit forecast --format html` and `tppkit project --format html`
 * from the CLI as a process, loaded into a headless Chromium that arrives with the project's own set-up (the npm
 * package `@sparticuz/chromium` ships the browser inside the package; `puppeteer-core` drives it; nothing is
 * downloaded at run time), with the network cut: no request may leave the page, nothing may be written to the
 * console as an error, and what a person sees is asserted: the text, the chart's size on screen, and a screenshot
 * whose pixels show the chart (its line and the red of the risk days). `TPPKIT_SCREENSHOT_UPDATE=1` writes the
 * forecast's screenshot to docs/forecast.png (the README shows it).
 */
import { writeFileSync } from "node:fs"
import { join } from "node:path"
import chromium from "@sparticuz/chromium"
import { Text } from "@tppkit/core"
import * as fc from "fast-check"
import puppeteer, { type Browser, type Page } from "puppeteer-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { CONTROL, hostileText } from "../arbitraries/hostile.ts"
import { run as inProcess } from "../cli/inProcess.ts"
import { tempFolder } from "../cli/tempFiles.ts"
import { root, tppkit } from "./harness.ts"

// what the functions run inside the page use of the browser's DOM (the tests' type-check has no DOM library)
interface Canvas2d {
  drawImage(image: unknown, x: number, y: number): void
  getImageData(x: number, y: number, w: number, h: number): { readonly data: Uint8ClampedArray }
}
declare const document: {
  readonly body: { readonly innerText: string }
  createElement(tag: "canvas"): { width: number; height: number; getContext(kind: "2d"): Canvas2d | null }
  createTreeWalker(root: unknown, show: number): { nextNode(): { readonly nodeValue: string | null } | null }
}
declare const Image: new () => { src: string; readonly width: number; readonly height: number; decode(): Promise<void> }

let browser: Browser | undefined
beforeAll(async () => {
  // the first call unpacks the browser from the package into the temporary folder (tens of seconds on a busy machine)
  const executablePath = await chromium.executablePath()
  browser = await puppeteer.launch({ executablePath, args: chromium.args, headless: true })
}, 240_000)
afterAll(async () => {
  await browser?.close()
})
const { file } = tempFolder("tppkit-browser")
// two answers of the bank: a DECL for the rent the forecast covers (the most urgent finding), an APPR for savings
const checks = file("checks.json", [
  {
    orderId: "SO-RENT",
    executionDate: "2027-02-01",
    debtorIban: "SK2411000000002612345678",
    amount: "650.10",
    currency: "EUR",
    checkedOn: "2027-01-26",
    answer: "DECL"
  },
  {
    orderId: "SO-SAVINGS",
    executionDate: "2027-03-22",
    debtorIban: "SK2411000000002612345678",
    amount: "50.00",
    currency: "EUR",
    checkedOn: "2027-03-15",
    answer: "APPR"
  }
])

interface Seen {
  readonly page: Page
  readonly text: string
  readonly problems: ReadonlyArray<string>
  readonly requests: ReadonlyArray<string>
  readonly screenshot: Uint8Array
}

/** Loads a page's HTML with the network cut and collects what went wrong on the way. */
const open = async (html: string): Promise<Seen> => {
  const page = await browser!.newPage()
  const problems: Array<string> = []
  const requests: Array<string> = []
  page.on("console", (m) => {
    if (m.type() === "error" || m.type() === "warn") problems.push(`${m.type()}: ${m.text()}`)
  })
  page.on("pageerror", (e) => problems.push(`page error: ${String(e)}`))
  await page.setOfflineMode(true)
  await page.setRequestInterception(true)
  page.on("request", (request) => {
    const url = request.url()
    if (url.startsWith("data:") || url === "about:blank") return void request.continue()
    requests.push(url)
    return void request.abort()
  })
  await page.setViewport({ width: 1100, height: 800 })
  await page.setContent(html, { waitUntil: "load" })
  // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is what a person sees
  const text = await page.evaluate(() => document.body.innerText)
  const screenshot = await page.screenshot({ fullPage: true, type: "png" })
  return { page, text, problems, requests, screenshot }
}

/**
 * The pixels of the screenshot inside a box (CSS pixels of the page): how many are neither white nor the page's
 * background, and how many are reddish (the risk days' colour, blended or not).
 */
const pixels = (
  seen: Seen,
  box: { x: number; y: number; width: number; height: number }
): Promise<{ drawn: number; red: number; total: number }> =>
  seen.page.evaluate(
    async (png: string, b: { x: number; y: number; width: number; height: number }) => {
      const image = new Image()
      image.src = `data:image/png;base64,${png}`
      await image.decode()
      const canvas = document.createElement("canvas")
      canvas.width = image.width
      canvas.height = image.height
      const context = canvas.getContext("2d")!
      context.drawImage(image, 0, 0)
      const data = context.getImageData(Math.round(b.x), Math.round(b.y), Math.round(b.width), Math.round(b.height))
      let drawn = 0
      let red = 0
      for (let i = 0; i < data.data.length; i += 4) {
        const [r, g, bl] = [data.data[i]!, data.data[i + 1]!, data.data[i + 2]!]
        if (Math.min(r, g, bl) < 235) drawn++
        if (r > 180 && r - g > 40 && r - bl > 40) red++
      }
      return { drawn, red, total: data.data.length / 4 }
    },
    Buffer.from(seen.screenshot).toString("base64"),
    box
  )

/** `open`, and nothing went wrong on the page and nothing was fetched. */
const openClean = async (html: string): Promise<Seen> => {
  const seen = await open(html)
  expect(seen.problems).toEqual([])
  expect(seen.requests).toEqual([])
  return seen
}

/**
 * Runs `tppkit <args> --from 2027-01-01 --to <to> --format html` as a process, expects its exit code, and loads the
 * page (`openClean`).
 */
const picture = async (args: ReadonlyArray<string>, code: number, to = "2027-03-31"): Promise<Seen> => {
  const run = await tppkit([...args, "--from", "2027-01-01", "--to", to, "--format", "html"])
  expect(run.code).toBe(code)
  return openClean(run.stdout)
}

const boxOf = async (page: Page, selector: string) => {
  const box = await (await page.$(selector))?.boundingBox()
  if (box === null || box === undefined) throw new Error(`${selector} is not on screen`)
  return box
}

describe("the HTML pictures in a real browser", { timeout: 120_000 }, () => {
  it("tppkit forecast --format html: the day money runs short, the lowest point, the at-risk payment, a drawn chart", async () => {
    // the README's forecast, with the two answers of the bank
    const readme = ["--orders", "examples/orders.json", "--flows", "examples/salary.json"]
    const seen = await picture(["forecast", ...readme, "--balances", "examples/balances.json", "--checks", checks], 8)
    expect(seen.text).toContain("Balance forecast 2027-01-01..2027-03-31")
    expect(seen.text).toContain("1 account, 1 at risk")
    expect(seen.text).toMatch(/below the threshold of 100\.00 from 2027-03-22/)
    expect(seen.text).toContain("lowest 79.35 on 2027-03-22")
    // the risk days as the table lists them, with their payments
    expect(seen.text).toMatch(/2027-03-22\.\.2027-03-29\s+closing 79\.35, out 50\.00 that day together, short 20\.65/)
    expect(seen.text).toMatch(/2027-03-22\s+SO-SAVINGS\s+50\.00 EUR/)
    // the funds checks: the DECL of the covered rent listed first and drawn as a ringed red point at its check day
    expect(seen.text).toMatch(
      /DECL SO-RENT 650\.10 EUR checked 2027-01-26 for 2027-02-01: URGENT: declined, but the forecast covers its day/
    )
    expect(seen.text).toMatch(
      /APPR SO-SAVINGS 50\.00 EUR checked 2027-03-15 for 2027-03-22: approved, but the forecast puts its day at risk/
    )
    const points = await seen.page.$$eval("svg circle.decl, svg circle.appr", (cs) =>
      cs.map((c) => ({ answer: c.getAttribute("class"), x: Number(c.getAttribute("cx")), title: c.textContent }))
    )
    expect(points.map((p) => p.answer)).toEqual(["decl", "appr"])
    expect(points[0]!.x).toBeLessThan(points[1]!.x)
    expect(await seen.page.$$eval("svg circle.clash", (cs) => cs.length)).toBe(2)
    const box = await boxOf(seen.page, "svg")
    expect(box.width).toBeGreaterThan(600)
    expect(box.height).toBeGreaterThan(100)
    const chart = await pixels(seen, box)
    // the balance line and the axes are drawn, the risk days are red
    expect(chart.drawn).toBeGreaterThan(chart.total / 100)
    expect(chart.red).toBeGreaterThan(200)
    if (process.env.TPPKIT_SCREENSHOT_UPDATE === "1") {
      writeFileSync(join(root, "docs", "forecast.png"), seen.screenshot)
    }
    await seen.page.close()
  })
  it("tppkit forecast --format html: the chart's width follows the window and no two labels overlap (issue 40)", async () => {
    // one account whose lowest point is at the window's start and close to zero (its label met the axis' "0.00"),
    // another in CZK paid in EUR (not netted), one without a usable balance, over a month, a year and ten years
    const orders = file("labels-orders.json", [
      ...["2026-01-01", "2026-01-15"].map((startDate, i) => ({
        orderId: `SO-${i}`,
        frequency: "MNTH",
        startDate,
        instructedAmount: { value: 99.5, currency: "EUR" },
        debtor: { name: "Jana", iban: "SK2411000000002612345678" },
        creditor: { name: "Landlord", iban: "AT611904300234573201" }
      })),
      {
        orderId: "SO-IN",
        frequency: "WEEK",
        startDate: "2026-01-05",
        instructedAmount: { value: 60, currency: "EUR" },
        debtor: { name: "Other", iban: "SK6609000000005012345678" },
        creditor: { name: "Jana", iban: "SK2411000000002612345678" }
      },
      {
        orderId: "SO-CZ",
        frequency: "MNTH",
        startDate: "2026-01-10",
        instructedAmount: { value: 10, currency: "EUR" },
        debtor: { name: "Petr", iban: "CZ6508000000192000145399" },
        creditor: { name: "Jana", iban: "SK2411000000002612345678" }
      }
    ])
    const balances = file("labels-balances.json", [
      { iban: "SK2411000000002612345678", currency: "EUR", amount: "0.10", date: "2027-01-01", threshold: "0.05" },
      { iban: "CZ6508000000192000145399", currency: "CZK", amount: "1000", date: "2027-01-01" },
      { iban: "SK6609000000005012345678", currency: "EUR", amount: "abc", date: "2027-01-01" }
    ])
    const widths: Array<number> = []
    for (const to of ["2027-01-31", "2027-12-31", "2036-12-31"]) {
      const seen = await picture(["forecast", "--orders", orders, "--balances", balances], 7, to)
      // what the table shows, in its words: not netted, the account without a usable balance, the skipped record
      expect(seen.text).toContain("Not netted (another currency than the account's; no exchange rate is known)")
      expect(seen.text).toMatch(/SK6609000000005012345678 EUR: \d+ payments out in the window; its balance/)
      expect(seen.text).toMatch(/Skipped \(1\)/)
      const charts = await seen.page.$$eval("svg", (svgs) =>
        svgs.map((svg) => ({
          width: Number(svg.getAttribute("width")),
          height: Number(svg.getAttribute("height")),
          texts: [...svg.querySelectorAll("text")].map((t) => {
            const b = (t as unknown as { getBBox(): { x: number; y: number; width: number; height: number } }).getBBox()
            return { text: t.textContent ?? "", x: b.x, y: b.y, width: b.width, height: b.height }
          })
        }))
      )
      expect(charts.length).toBe(2)
      for (const c of charts) {
        const texts = c.texts.map((t) => t.text)
        // the threshold is named on the amount axis, the lowest point labelled, zero on its axis
        if (texts.some((t) => t.startsWith("lowest 0.10"))) {
          expect(texts).toContain("threshold 0.05")
          expect(texts).toContain("0.00")
        }
        for (const t of c.texts) {
          expect(t.x).toBeGreaterThanOrEqual(0)
          expect(t.y).toBeGreaterThanOrEqual(0)
          expect(t.x + t.width).toBeLessThanOrEqual(c.width)
          expect(t.y + t.height).toBeLessThanOrEqual(c.height)
        }
        for (let i = 0; i < c.texts.length; i++) {
          for (let j = i + 1; j < c.texts.length; j++) {
            const p = c.texts[i]!
            const q = c.texts[j]!
            const apart = p.x + p.width <= q.x || q.x + q.width <= p.x || p.y + p.height <= q.y || q.y + q.height <= p.y
            expect(apart, `"${p.text}" and "${q.text}" overlap (${to})`).toBe(true)
          }
        }
      }
      widths.push(charts[0]!.width)
      await seen.page.close()
    }
    // a year is wider than a month, ten years no narrower than a year
    expect(widths[1]!).toBeGreaterThan(widths[0]!)
    expect(widths[2]!).toBeGreaterThanOrEqual(widths[1]!)
  })
  it("tppkit project --format html: the cash-flow picture renders, its bars drawn, nothing fetched", async () => {
    const seen = await picture(["project", "--orders", "examples/orders.json"], 0)
    expect(seen.text).toContain("Cash flow")
    expect(seen.text).toMatch(/2\s720\.75/u)
    expect(seen.text).toContain("17 payments")
    const box = await boxOf(seen.page, "svg.chart")
    expect(box.width).toBeGreaterThan(600)
    const chart = await pixels(seen, box)
    expect(chart.drawn).toBeGreaterThan(chart.total / 50)
    // the bars (blue) are on screen
    const bars = await seen.page.$$eval(
      "svg.chart rect.bar",
      (rects) => rects.filter((r) => r.getBoundingClientRect().height > 0).length
    )
    expect(bars).toBe(14)
    await seen.page.close()
  })
})

describe("hostile text in the HTML pictures, in a real browser (issue 40)", { timeout: 180_000 }, () => {
  it("project and forecast --format html: each orderId and name shown as the terminal shows it, no control character", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(hostileText, { minLength: 1, maxLength: 12 }), async (texts) => {
        const orders = file(
          "hostile.json",
          texts.map((t, i) => ({
            orderId: `${t}#${i}`,
            debtor: { name: "Debtor", iban: "SK2411000000002612345678" },
            creditor: { name: t, iban: "SK6609000000005012345678" },
            instructedAmount: { value: 10 + i, currency: "EUR" },
            startDate: "2027-01-04",
            frequency: "MNTH"
          }))
        )
        const balances = file("hostile-balances.json", [
          { iban: "SK2411000000002612345678", currency: "EUR", amount: "5.00", date: "2027-01-01" }
        ])
        const window = ["--from", "2027-01-01", "--to", "2027-01-31"]
        /** `tppkit <command> --orders <orders> <more> …` in January 2027 in `format`, in this process. */
        const january = (format: string, command: string, ...more: ReadonlyArray<string>) =>
          inProcess([command, "--orders", orders, ...more, ...window, "--format", format])
        // the texts as read: JSON keeps every character
        const json = await january("json", "project")
        const payments = JSON.parse(json.stdout).payments as ReadonlyArray<{ orderId: string; creditorName: string }>
        const project = await january("html", "project")
        const forecast = await january("html", "forecast", "--balances", balances)
        expect([project.code, forecast.code]).toEqual([0, 8])
        for (const html of [project.stdout, forecast.stdout]) {
          const seen = await openClean(html)
          // every text node as the browser parsed it: the shown text, and no control character in any of it
          const texts = await seen.page.evaluate(() => {
            const out: Array<string> = []
            const walker = document.createTreeWalker(document.body, 4)
            for (let n = walker.nextNode(); n !== null; n = walker.nextNode()) out.push(n.nodeValue ?? "")
            return out
          })
          const all = texts.join("\n")
          for (const p of payments) {
            expect(all).toContain(Text.printable(p.orderId))
            expect(all).toContain(Text.printable(p.creditorName))
          }
          for (const t of texts) expect(t.replaceAll("\n", "")).not.toMatch(CONTROL)
          await seen.page.close()
        }
      }),
      { numRuns: 8 }
    )
  })
})
