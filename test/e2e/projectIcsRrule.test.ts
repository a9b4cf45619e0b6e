/**
 * `tppkit project --format ics --ics-rrule`, run as a process: the events it writes, the recurring ones expanded
 * by the `rrule` package (an implementation of RFC 5545 of its own) with their EXDATEs and RDATEs, give each order
 * exactly the dates `tppkit project --format json` gives it over the window; DTSTAMP is the time the file was made;
 * every order written as one event per payment is named on stderr with why.
 */
import rrule from "rrule"
import { describe, expect, it } from "vitest"
import { tppkit } from "./harness.ts"

interface Event {
  readonly orderId: string
  readonly rule: boolean
  readonly stamp: string
  readonly lines: ReadonlyArray<string>
}

/** The document's events, unfolded, each with its order (from its UID: `ID-rule@…` or `ID-YYYYMMDD@…`). */
const events = (text: string): Array<Event> =>
  text
    .replace(/\r\n /g, "")
    .split("BEGIN:VEVENT\r\n")
    .slice(1)
    .map((block) => {
      const lines = block.split("\r\n")
      const uid = /^UID:(.*)-(rule|\d{8})@tppkit$/.exec(lines.find((l) => l.startsWith("UID:")) ?? "")
      if (uid === null) throw new Error(`no UID in ${block}`)
      const stamp = lines.find((l) => l.startsWith("DTSTAMP:"))!.slice("DTSTAMP:".length)
      return { orderId: uid[1]!.replace(/\\(.)/g, "$1"), rule: uid[2] === "rule", stamp, lines }
    })

const iso = (date: string) => `${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6, 8)}`

/** The dates of an event inside the window: a recurring one expanded by the rrule package, else its DTSTART. */
const datesOf = (event: Event, from: string, to: string): Array<string> => {
  const start = event.lines.find((l) => l.startsWith("DTSTART;VALUE=DATE:"))!.slice("DTSTART;VALUE=DATE:".length)
  if (!event.rule) return [iso(start)]
  const body = event.lines
    .filter((l) => /^(DTSTART|RRULE|EXDATE|RDATE)/.test(l))
    .map((l) =>
      l
        .replace(";VALUE=DATE:", ":")
        .replace(
          /^(DTSTART|EXDATE|RDATE):(.*)$/,
          (_, k: string, v: string) => `${k}:${v.replace(/(\d{8})/g, "$1T000000Z")}`
        )
        .replace(/UNTIL=(\d{8})(?!T)/, "UNTIL=$1T000000Z")
    )
    .join("\n")
  const set = rrule.rrulestr(body, { forceset: true })
  return set
    .between(new Date(`${from}T00:00:00Z`), new Date(`${to}T00:00:00Z`), true)
    .map((x) => x.toISOString().slice(0, 10))
}

/** Each order's dates, sorted: `[orderId, dates]` sorted by order. */
const byOrder = (pairs: ReadonlyArray<readonly [string, string]>) => {
  const map = new Map<string, Array<string>>()
  for (const [id, date] of pairs) map.set(id, [...(map.get(id) ?? []), date])
  return [...map].map(([id, dates]) => [id, dates.sort()] as const).sort((a, b) => (a[0] < b[0] ? -1 : 1))
}

const cases: ReadonlyArray<{
  readonly orders: string
  readonly from: string
  readonly to: string
  readonly more?: Array<string>
  /** Some order falls back to one event per payment. */
  readonly fallback?: true
}> = [
  { orders: "examples/orders.json", from: "2027-01-01", to: "2027-12-31" },
  { orders: "examples/orders.json", from: "2026-03-01", to: "2026-06-30", more: ["--convention", "preceding"] },
  { orders: "test/cli/golden/inputs/generated-100.json", from: "2027-01-01", to: "2027-06-30" },
  {
    orders: "test/cli/golden/inputs/generated-100.json",
    from: "2027-03-20",
    to: "2027-05-10",
    more: ["--calendar", "SK"]
  },
  {
    orders: "test/cli/golden/inputs/generated-100.json",
    from: "2027-01-01",
    to: "2027-03-31",
    more: ["--calendar", "auto"]
  },
  // the listing's nextDates: bank-confirmed dates, each an event of its own beside the order's rule
  { orders: "test/cli/golden/inputs/sandbox-listing.json", from: "2026-11-01", to: "2027-02-28" },
  // orders whose only payments in the window are their nextDates: one event per payment, the reason on stderr
  { orders: "test/cli/golden/inputs/sandbox-listing.json", from: "2026-11-01", to: "2026-11-16", fallback: true },
  { orders: "test/cli/golden/inputs/rrule-orders.json", from: "2027-01-01", to: "2027-06-30" }
]

describe("tppkit project --format ics --ics-rrule", { timeout: 120_000 }, () => {
  for (const c of cases) {
    it(`gives each order the JSON projection's dates: ${c.orders} ${c.from}..${c.to} ${(c.more ?? []).join(" ")}`, async () => {
      const args = ["project", "--orders", c.orders, "--from", c.from, "--to", c.to, ...(c.more ?? [])]
      const before = new Date().toISOString().replace(/[-:]/g, "").slice(0, 15)
      const ics = await tppkit([...args, "--format", "ics", "--ics-rrule"])
      const after = new Date().toISOString().replace(/[-:]/g, "").slice(0, 15)
      const json = await tppkit([...args, "--format", "json"])
      expect(ics.code).toBe(json.code)
      const payments: ReadonlyArray<{ orderId: string; executionDate: string }> = JSON.parse(json.stdout).payments
      const written = events(ics.stdout)
      expect(byOrder(written.flatMap((e) => datesOf(e, c.from, c.to).map((d) => [e.orderId, d] as const)))).toEqual(
        byOrder(payments.map((p) => [p.orderId, p.executionDate] as const))
      )
      // DTSTAMP: the time the file was made, the same in every event
      for (const e of written) {
        expect(e.stamp >= `${before}Z`).toBe(true)
        expect(e.stamp <= `${after}Z`).toBe(true)
      }
      // an order without a rule is named on stderr with why; an order with one is not
      const ruled = new Set(written.filter((e) => e.rule).map((e) => e.orderId))
      const unruled = [...new Set(written.filter((e) => !ruled.has(e.orderId)).map((e) => e.orderId))]
      for (const id of unruled)
        expect(ics.stderr).toMatch(new RegExp(`tppkit: ${id} written as one event per payment: \\S`))
      for (const id of ruled) expect(ics.stderr).not.toContain(`tppkit: ${id} written as one event per payment`)
      expect(ruled.size).toBeGreaterThan(0)
      if (c.fallback) expect(unruled.length).toBeGreaterThan(0)
    })
  }

  it("is refused with exit 2 outside --format ics", async () => {
    const run = await tppkit(
      ["project", "--orders", "examples/orders.json", "--from", "2027-01-01"].concat([
        "--to",
        "2027-01-31",
        "--format",
        "csv",
        "--ics-rrule"
      ])
    )
    expect(run.code).toBe(2)
    expect(run.stderr).toContain("tppkit: --ics-rrule writes iCalendar: it needs --format ics")
    expect(run.stdout).toBe("")
  })
})
