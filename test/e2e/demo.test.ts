import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { parse } from "parse5"
import { describe, expect, it } from "vitest"
import { tppkit } from "./harness.ts"

const IBAN = {
  branch: "SK2411000000002612345678",
  electronic: "CZ0708000000001234567890",
  none: "SK1709000000005012348888"
}

/** The numbers of one account's row in the funds-check table. */
const fundsRow = (out: string, iban: string) => {
  const m = new RegExp(`^ {3}${iban} +(\\d+) +([\\d.]+) +([A-Z]{3}) +(\\d+) +(\\d+) +(\\d+)$`, "m").exec(out)
  expect(m, `funds-check row of ${iban}`).not.toBeNull()
  const [, count, , , appr, decl, none] = m!
  return { count: Number(count), appr: Number(appr), decl: Number(decl), none: Number(none) }
}

describe("tppkit demo", { timeout: 90_000 }, () => {
  it("runs the whole flow against the mock bank and prints the report within 80 columns", async () => {
    const run = await tppkit(["demo"], { timeoutMs: 60_000 })
    expect(run.timedOut).toBe(false)
    expect(run.stderr).toBe("")
    expect(run.code).toBe(0)
    const out = run.stdout
    // sentences wrap onto lines indented by five spaces; joined, they can be matched as one line
    const flat = out.replace(/\n {5}(?=\S)/g, " ")
    expect(out).toMatch(/^tppkit demo: mock bank at http:\/\/127\.0\.0\.1:\d+ \(sandbox\)/)
    for (const heading of [
      "1. Tokens",
      "2. Balance check",
      "3. Standing orders",
      "4. Upcoming payments",
      "5. Cash flow per month and currency",
      "6. Funds check: payments due",
      "7. Payments at risk, per account and order",
      "8. Fleet worker on PostgreSQL (tppkit worker --today ",
      "9. Summary"
    ]) {
      expect(out).toContain(`\n${heading}`)
    }

    // tokens: the SCA stand-in is obtained; no token value, secret or token field is ever printed
    expect(out).toMatch(/^ {3}AISP PIISP +Bearer +1200 s/m)
    expect(out).not.toContain("sandbox-secret")
    expect(out).not.toContain("access_token")
    for (const word of out.match(/[A-Za-z0-9_-]{30,}/g) ?? []) {
      expect(word).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/) // Response-IDs only
    }

    // balance checks under both kinds of consent, each with its Response-ID
    expect(out).toMatch(
      new RegExp(`${IBAN.branch} {2}100\\.00 EUR: APPR {2}\\(branch consent\\)\\n {3}\\[Response-ID `)
    )
    expect(out).toMatch(
      new RegExp(`${IBAN.electronic} {2}100\\.00 CZK: APPR {2}\\(electronic consent\\)\\n {3}\\[Response-ID `)
    )

    expect(out).toMatch(/\d+ standing orders of 3 accounts on [2-9] pages/)
    expect(out).toContain('Nominal: the scheduled date; "=" when the payment executes on it')
    expect(out).toMatch(/^ {3}All +EUR +\d+ +\d+\.\d\d$/m)

    // funds check: the electronic consent answers with the SCA-style token; only the account without consent
    // stays unanswered, explained as such
    const branch = fundsRow(out, IBAN.branch)
    const electronic = fundsRow(out, IBAN.electronic)
    const none = fundsRow(out, IBAN.none)
    expect(branch.count).toBeGreaterThan(0)
    expect(branch.appr + branch.decl).toBe(branch.count)
    expect(electronic.count).toBeGreaterThan(0)
    expect(electronic.appr + electronic.decl).toBe(electronic.count)
    expect(electronic.none).toBe(0)
    expect(none).toEqual({ count: none.count, appr: 0, decl: 0, none: none.count })
    // (the interactive steps pass the SCA-style token; only the unattended fleet worker of step 8 has none)
    expect(out.slice(0, out.indexOf("\n8. Fleet worker"))).not.toContain("SCA_REQUIRED")
    expect(flat).toContain(`${none.count} payments without an answer: 403 CONSENT_MISSING`)
    expect(flat).toContain(`${IBAN.none}: no consent: the bank refuses to answer`)

    const total = branch.count + electronic.count + none.count
    const appr = branch.appr + electronic.appr
    const decl = branch.decl + electronic.decl
    expect(flat).toMatch(
      new RegExp(
        `Funds check: ${total} payments due by \\d{4}-\\d\\d-\\d\\d: ${appr} APPR, ${decl} DECL, ${none.count} without an answer\\.`
      )
    )
    expect(out).toMatch(/^ {3}All accounts +\d+ +\d+ +\d+ +\d+$/m)

    // the extra check is labelled, and every account's running total is reported
    expect(flat).toContain("Extra check, all approved payments of an account together")
    expect(electronic.appr).toBe(electronic.count) // the fixture balance covers each payment alone
    expect(flat).toMatch(
      new RegExp(`${IBAN.electronic}: (all ${electronic.appr} covered together|the first \\d+ of ${electronic.appr})`)
    )
    expect(flat).toMatch(
      new RegExp(`${IBAN.branch}: (all ${branch.appr} covered together|the first \\d+ of ${branch.appr})`)
    )

    // payments at risk are grouped per account, with counts, amounts and the earliest date
    expect(flat).toMatch(
      new RegExp(`${IBAN.none}: ${none.count} payments, \\d+\\.\\d\\d EUR, first \\d{4}-\\d\\d-\\d\\d; no consent`)
    )
    expect(flat).toMatch(/At risk: \d+ payments? on \d accounts?, the earliest \d{4}-\d\d-\d\d/)

    // the fleet step: a worker on a temporary PostgreSQL swept today; the unattended worker gets an answer for the
    // branch consent only (no customer token for the electronic one, no consent for the third account)
    const fleet = out.slice(out.indexOf("\n8. Fleet worker"), out.indexOf("\n9. Summary"))
    const fleetFlat = fleet.replace(/\n {5}(?=\S)/g, " ")
    const planned = /durable funds check for each of the (\d+) payments due by \d{4}-\d\d-\d\d \(2 working days\)/.exec(
      fleetFlat
    )
    expect(planned, "the fleet's checks").not.toBeNull()
    const fleetBranch = fundsRow(fleet, IBAN.branch)
    const fleetElectronic = fundsRow(fleet, IBAN.electronic)
    const fleetNone = fundsRow(fleet, IBAN.none)
    expect(fleetBranch.count).toBeGreaterThan(0)
    expect(fleetBranch.appr + fleetBranch.decl).toBe(fleetBranch.count)
    expect(fleetElectronic).toEqual({ count: fleetElectronic.count, appr: 0, decl: 0, none: fleetElectronic.count })
    expect(fleetNone).toEqual({ count: fleetNone.count, appr: 0, decl: 0, none: fleetNone.count })
    expect(fleetBranch.count + fleetElectronic.count + fleetNone.count).toBe(Number(planned![1]))
    expect(fleetFlat).toContain(
      `${IBAN.electronic}: ${fleetElectronic.count} payments without an answer: 403 SCA_REQUIRED`
    )
    expect(fleetFlat).toContain(`${IBAN.none}: ${fleetNone.count} payments without an answer: 403 CONSENT_MISSING`)
    expect(fleetFlat).toContain("shared by the fleet: 2 of 4 used")
    expect(fleetFlat).toMatch(/PostgreSQL was up \d+\.\d s after the demo began/)
    expect(flat).toMatch(
      new RegExp(
        `Fleet worker: ${planned![1]} payments due by \\d{4}-\\d\\d-\\d\\d checked once each \\(${fleetBranch.appr} APPR, ` +
          `${fleetBranch.decl} DECL, ${fleetElectronic.count + fleetNone.count} without an answer\\), 2 of 4 listing calls spent\\.`
      )
    )

    for (const line of out.split("\n")) expect(line.length).toBeLessThanOrEqual(80)
  })

  it("--html writes the cash-flow picture with the funds check's payments at risk marked", async () => {
    const dir = mkdtempSync(join(tmpdir(), "tppkit-demo-html-"))
    try {
      const file = join(dir, "cashflow.html")
      const run = await tppkit(["demo", "--html", file, "--skip-fleet"], { timeoutMs: 60_000 })
      expect(run.code).toBe(0)
      // --skip-fleet leaves the fleet step out (no PostgreSQL): the summary is step 8
      expect(run.stdout).not.toContain("Fleet worker")
      expect(run.stdout).toContain("\n8. Summary")
      expect(run.stdout).toContain(`Cash-flow picture written to ${file}.`)
      expect(run.stdout).toContain("calendar auto: TARGET for EUR, Czech banking days for CZK")
      // the balance forecast of the bank's accounts after step 7: each account's first day at or below zero
      const flat = run.stdout.replace(/\n +/g, " ")
      expect(flat).toMatch(
        /Balance forecast \d{4}-\d\d-\d\d to \d{4}-\d\d-\d\d: the bank's balances today as the opening/
      )
      expect(flat).toMatch(/4 accounts, \d at or below zero on some day/)
      expect(flat).toMatch(new RegExp(`${IBAN.none}: runs out \\(at or below zero\\) from \\d{4}-\\d\\d-\\d\\d`))
      const html = readFileSync(file, "utf8")
      expect(parse(html).childNodes.some((n) => n.nodeName === "html")).toBe(true)
      expect(html).not.toMatch(/<script|src=|href=/)
      expect(html).toContain("calendar auto")
      // the account without consent cannot be confirmed: its payments are marked at risk, on the chart and rows
      expect(html).toMatch(new RegExp(`<circle class="risk-marker"[^>]*data-account="${IBAN.none}"`))
      expect(html).toMatch(/<rect class="bar at-risk"/)
      expect(html).toMatch(/<tr class="at-risk">.*CONSENT_MISSING/)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it("says why the fleet step is left out when PostgreSQL cannot start, and goes on", async () => {
    const run = await tppkit(["demo"], { env: { TMPDIR: "/nonexistent/tppkit-demo" }, timeoutMs: 60_000 })
    expect(run.code).toBe(0)
    expect(run.stderr).toBe("")
    const flat = run.stdout.replace(/\n {5}(?=\S)/g, " ")
    expect(flat).toContain("8. Fleet worker on PostgreSQL")
    expect(flat).toMatch(/^ {3}Left out: PostgreSQL could not start: cannot make a data directory: /m)
    expect(flat).toContain("\n9. Summary")
    expect(flat).toMatch(/Fleet worker: left out \(PostgreSQL could not start: /)
  })

  // Interrupted while its PostgreSQL starts, or once it runs: the server is stopped and its directory removed
  // (TMPDIR points the demo's temporary files at a directory of the test's own, which must end up empty).
  for (const when of ["while PostgreSQL starts", "once PostgreSQL runs"] as const) {
    it(`on SIGINT ${when}, leaves no server and no files behind`, async () => {
      const tmp = mkdtempSync(join(tmpdir(), "tppkit-demo-int-"))
      // open to others to pass through: run as root, PostgreSQL runs as the OS user postgres, which must reach the
      // demo's temporary directory in here (tppkit changes no permission outside its own directory)
      chmodSync(tmp, 0o711)
      try {
        let pid = 0
        const running = tppkit(["demo"], {
          env: { TMPDIR: tmp },
          timeoutMs: 60_000,
          onSpawn: (p) => {
            pid = p
          }
        })
        // "runs": the server's lock file says ready (its eighth line). initdb's bootstrap backend writes a lock
        // file of its own and removes it, so the file alone may be there one moment and gone the next
        const ready = () => {
          const dir = readdirSync(tmp).find((f) => f.startsWith("tppkit-pg-"))
          if (dir === undefined) return false
          if (when === "while PostgreSQL starts") return true
          const lock = join(tmp, dir, "data", "postmaster.pid")
          try {
            return existsSync(lock) && readFileSync(lock, "utf8").split("\n")[7]?.trim() === "ready"
          } catch {
            return false // removed meanwhile
          }
        }
        const deadline = Date.now() + 40_000
        let seen = ready()
        while (!seen && Date.now() < deadline) {
          await new Promise((r) => setTimeout(r, 20))
          seen = ready()
        }
        expect(seen, "the demo's PostgreSQL directory").toBe(true)
        process.kill(pid, "SIGINT")
        const run = await running
        expect(run.timedOut).toBe(false)
        expect(readdirSync(tmp)).toEqual([])
        expect(processesMentioning(tmp)).toEqual([])
      } finally {
        rmSync(tmp, { recursive: true, force: true })
      }
    })
  }
})

/** The processes whose command line mentions `text` (a PostgreSQL server names its data directory). */
const processesMentioning = (text: string): Array<string> =>
  readdirSync("/proc")
    .filter((p) => /^\d+$/.test(p))
    .flatMap((p) => {
      try {
        const cmd = readFileSync(`/proc/${p}/cmdline`, "utf8").replaceAll("\0", " ")
        return cmd.includes(text) ? [`${p}: ${cmd}`] : []
      } catch {
        return [] // gone meanwhile
      }
    })
