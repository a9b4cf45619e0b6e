import { WorkerStatus } from "@tppkit/cli"
import { ErrorBody, type Iban } from "@tppkit/core"
import { BankError, Budget } from "@tppkit/http"
import type { SweepLog } from "@tppkit/worker"
import { Checks, Liveness } from "@tppkit/worker"
import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import { checkKeys } from "../e2e/harness.ts"

/** A check's row: its payment given as text (as the fleet keeps it), read with `Checks.Due`'s schemas. */
const row = (
  orderId: string,
  outcome: Checks.Verdict | undefined,
  {
    amount,
    nominalDate,
    executionDate,
    debtorIban,
    ...extra
  }: Partial<Omit<Checks.Row, keyof Checks.DueText>> & Partial<Checks.DueText> = {}
): Checks.Row => ({
  ...Schema.decodeSync(Checks.Due)({
    consent: "my-consent",
    orderId,
    nominalDate: nominalDate ?? "2026-11-02",
    executionDate: executionDate ?? "2026-11-02",
    amount: amount ?? "12.50",
    currency: "EUR",
    debtorIban: debtorIban ?? "SK2411000000002612345678",
    sweepDay: "2026-11-02",
    checkAt: 0
  }),
  outcome,
  failure: undefined,
  attempts: outcome === undefined ? 0 : 1,
  unconfirmed: 0,
  correlationIds: [],
  checkedAt: outcome === undefined ? undefined : "2026-11-02T07:00:01Z",
  requestId: outcome === undefined ? undefined : `req-${orderId}`,
  responseId: outcome === undefined ? undefined : `resp-${orderId}`,
  ...(extra as unknown as Partial<Checks.Row>)
})

/** The bank client's failure as a worker records it: the request refused for want of SCA. */
const failure = (requestId: string) =>
  new BankError.BankError({
    operation: "balanceCheck",
    identity: { requestId, correlationId: "c1", responseId: "s1" },
    request: "POST /piisp/api/v1/accounts/balanceCheck",
    reason: new BankError.Forbidden({
      body: ErrorBody.decode(403, "application/problem+json", '{"code":"SCA_REQUIRED","title":"Forbidden"}')
    }),
    attempts: 1
  })

const status: WorkerStatus.Status = {
  checks: [
    row("SO-1", "APPR"),
    row("SO-2", "DECL", { attempts: 2 }),
    row("SO-3", "failed", { failure: failure("r1") }),
    row("SO-4", "failed", { failure: failure("r2"), requestId: undefined }),
    row("SO-5", undefined)
  ],
  budget: [
    {
      consentKey: Budget.consentKey({
        environment: "sandbox",
        baseUrl: "http://127.0.0.1:8080",
        clientId: "tpp",
        consent: "my-consent"
      }),
      day: "2026-11-02",
      used: 2,
      limit: 4
    },
    { consentKey: "not-one-of-ours", day: "2026-11-02", used: 1, limit: 4 }
  ]
}

describe("worker status --format json", () => {
  it("lists finished checks with exactly the documented keys and an outcome, pending ones apart", () => {
    const json = WorkerStatus.json(status)
    expect(Object.keys(json)).toEqual(["checks", "budget", "pending"])
    expect(json.checks.map((c) => c.orderId)).toEqual(["SO-1", "SO-2", "SO-3", "SO-4"])
    for (const c of json.checks) {
      expect(Object.keys(c)).toEqual(checkKeys)
      expect(["APPR", "DECL", "failed"]).toContain(c.outcome)
    }
    expect(json.checks[1]).toMatchObject({ outcome: "DECL", attempts: 2, requestId: "req-SO-2" })
    // a failed check keeps its Request-ID; one that never reached the bank has none
    expect(json.checks[2]?.requestId).toBe("req-SO-3")
    expect(json.checks[3]?.requestId).toBeNull()
    expect(json.pending).toEqual([
      {
        orderId: "SO-5",
        nominalDate: "2026-11-02",
        executionDate: "2026-11-02",
        amount: "12.50",
        currency: "EUR",
        debtorIban: "SK2411000000002612345678",
        attempts: 0
      }
    ])
  })

  it("names each budget row by its consent (the whole key when it is not tppkit's)", () => {
    expect(WorkerStatus.json(status).budget).toEqual([
      { consent: "my-consent", day: "2026-11-02", used: 2, limit: 4 },
      { consent: "not-one-of-ours", day: "2026-11-02", used: 1, limit: 4 }
    ])
  })

  it("has exactly the two documented keys once every check is finished", () => {
    const finished = { ...status, checks: status.checks.filter((r) => r.outcome !== undefined) }
    expect(Object.keys(WorkerStatus.json(finished))).toEqual(["checks", "budget"])
  })

  it("is the same document through JSON text (no undefined left out)", () => {
    const json = WorkerStatus.json(status)
    expect(JSON.parse(JSON.stringify(json))).toEqual(json)
  })
})

describe("worker status --format table", () => {
  const lines = WorkerStatus.table(status)

  it("shows every check, pending ones marked, and counts them by outcome", () => {
    expect(lines.some((l) => /SO-5 .* pending +0/.test(l))).toBe(true)
    expect(lines).toContain("5 checks: 1 APPR, 1 at risk (DECL), 2 failed, 1 pending; 1 sent more than once")
  })

  it("groups the failures by reason, the request identifiers left out", () => {
    expect(failure("r1").message).toBe(
      "balance check POST /piisp/api/v1/accounts/balanceCheck: 403 forbidden (SCA_REQUIRED: Forbidden) " +
        "[Request-ID r1, Correlation-ID c1, Response-ID s1]"
    )
    const reasons = lines.filter((l) => l.includes("failed: balance check"))
    expect(reasons).toEqual(["  2 failed: balance check: 403 forbidden (SCA_REQUIRED: Forbidden)"])
  })

  it("shows the budget per bank, client and consent within the width", () => {
    expect(
      lines.some((l) => /^http:\/\/127\.0\.0\.1:8080 \(sandbox\) +tpp +my-consent +2026-11-02 +2 +4$/.test(l))
    ).toBe(true)
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(100)
  })
})

describe("worker status amounts", () => {
  // as the fleet stores them (Money.toPlainString): no trailing zeros
  // (a row whose amount is no decimal is no longer shown: the store refuses to read it, naming the row)
  const stored = ["6.9", "109", "650.1", "0.05", "12.345", "12345678901234567890.12"]
  const shown = ["6.90", "109.00", "650.10", "0.05", "12.345", "12345678901234567890.12"]
  const amounts = {
    checks: stored.map((amount, i) => row(`SO-A${i}`, i % 2 === 0 ? "APPR" : undefined, { amount })),
    budget: []
  }

  it("have two decimals where they have at most two, every decimal otherwise, in the JSON strings", () => {
    const json = WorkerStatus.json(amounts)
    const byOrder = new Map([...json.checks, ...(json.pending ?? [])].map((c) => [c.orderId, c.amount]))
    expect(stored.map((_, i) => byOrder.get(`SO-A${i}`))).toEqual(shown)
  })

  it("are printed in the table as they are held, never rounded", () => {
    const lines = WorkerStatus.table(amounts, 200)
    stored.forEach((_, i) => {
      const line = lines.find((l) => l.includes(`SO-A${i} `))
      expect(line).toMatch(new RegExp(` ${shown[i]!.replaceAll(".", "\\.")} +EUR `))
    })
  })
})

describe("worker status sections", () => {
  const entry = (over: Partial<SweepLog.Entry>): SweepLog.Entry => ({
    day: "2026-11-02",
    consent: "my-consent",
    run: 0,
    state: "complete",
    planned: 5,
    tries: 1,
    cause: undefined,
    reason: undefined,
    retryAt: undefined,
    startedAt: Date.UTC(2026, 10, 2, 7, 0, 0),
    finishedAt: Date.UTC(2026, 10, 2, 7, 0, 4),
    ...over
  })
  const timeout = new BankError.BankError({
    operation: "balanceCheck",
    identity: { correlationId: "c9" },
    request: "POST /piisp/api/v1/accounts/balanceCheck",
    reason: new BankError.TransportFailure({ kind: "timeout", detail: "no answer within 10 s" }),
    attempts: 1
  })
  const full: WorkerStatus.Status = {
    ...status,
    checks: [
      ...status.checks,
      row("SO-6", "failed", { failure: timeout, executionDate: "2026-11-03", nominalDate: "2026-11-01" }),
      row("SO-7", "failed", { failure: timeout, executionDate: "2026-10-30" }),
      {
        ...row(`SO-${"LONG".repeat(20)}`, "DECL", { amount: "12345678901234567890.1" }),
        // the longest an IBAN may be (34 characters), unchecked: the table's widths are what is tested
        debtorIban: "SK".padEnd(34, "9") as Iban.Iban
      }
    ],
    sweeps: [
      entry({}),
      entry({
        consent: "other-consent-with-a-very-long-key-that-must-be-cut-to-fit-the-width",
        state: "failed",
        planned: 0,
        tries: 8,
        run: 1,
        cause: "daily budget of 4 unattended calls cannot cover 3 more (used 4); it frees up at 2026-11-03 00:00",
        reason: "BudgetExhausted"
      }),
      entry({
        day: "2026-11-03",
        state: "retrying",
        planned: 0,
        tries: 2,
        finishedAt: undefined,
        retryAt: Date.UTC(2026, 10, 3, 7, 0, 40),
        cause: "connection refused",
        reason: "TransportFailure"
      })
    ],
    deliveries: [
      {
        eventId: "evt_0123456789abcdef0123456789abcdef",
        type: "check.declined",
        endpoint: "https://hooks.example.com/tppkit/treasury",
        attempts: 3,
        nextAt: Date.UTC(2026, 10, 2, 7, 5),
        lastError: "HTTP 503 from https://hooks.example.com/tppkit/treasury"
      }
    ],
    endpoints: [
      {
        endpoint: "https://hooks.example.com/tppkit/treasury",
        addedAt: Date.UTC(2026, 10, 1),
        disabledAt: undefined,
        disabledReason: undefined,
        failed: 0
      },
      {
        endpoint: "https://old.example.com/hooks",
        addedAt: Date.UTC(2026, 10, 1),
        disabledAt: Date.UTC(2026, 10, 2, 7, 1),
        disabledReason: "HTTP 410 Gone from https://old.example.com/hooks",
        failed: 4
      }
    ],
    today: "2026-11-02"
  }
  const lines = WorkerStatus.table(full)
  const frequencyWarning =
    '"mnth" is read as "MNTH", because the bank\'s frequency codes are spelt in upper case (DAIL, DAI7, WEEK, MNTH, QUTR, SEMI, YEAR)'
  /** The lines as one text, each wrapped line joined back to the one it continues. */
  const oneText = (lines: ReadonlyArray<string>) => lines.join("\n").replaceAll(/\n +/g, " ")
  /**
   * The sweeps section when cz-1's finished sweep carries `over`, beside my-consent's plain one, as one text; every
   * line of it is asserted to fit 100 columns.
   */
  const cz1Sweep = (over: Partial<SweepLog.Entry>) => {
    const section = WorkerStatus.sweepsSection({ ...full, sweeps: [entry({ consent: "cz-1", ...over }), entry({})] })
    for (const l of section) expect(l.length, l).toBeLessThanOrEqual(100)
    return oneText(section)
  }

  it("shows a Slovak IBAN whole beside a typical order id in 100 columns", () => {
    const plain = WorkerStatus.table({ checks: [row("GEN-000087", "APPR", { amount: "131.1" })], budget: [] })
    expect(plain.some((l) => l.includes(" SK2411000000002612345678 ") && l.length <= 100)).toBe(true)
    expect(plain[0]).not.toContain("Moved")
  })

  it("fits 100 columns, every line of every section", () => {
    for (const l of lines) expect(l.length, l).toBeLessThanOrEqual(100)
    expect(lines.some((l) => /^2026-11-02 +SO-L/.test(l))).toBe(true)
  })

  it("lists each day's sweep per consent: finished with its checks, failed and why, retrying and when", () => {
    expect(lines).toContain("Sweeps by day and consent:")
    expect(lines.some((l) => /^2026-11-02 +my-consent +0 +finished +5 +1 +11-02 07:00$/.test(l))).toBe(true)
    expect(lines.some((l) => /^2026-11-03 +my-consent +0 +retrying +2 +again 11-03 07:00$/.test(l))).toBe(true)
    const text = oneText(lines)
    expect(text).toContain("failed (BudgetExhausted): daily budget of 4 unattended calls")
    expect(text).toContain("runs again when a worker starts or at the next sweep hour")
    expect(text).toContain(
      "2026-11-03 my-consent: retrying (TransportFailure): connection refused; tried again at 2026-11-03T07:00:40Z"
    )
  })

  /** What a finished sweep of cz-1 carries, what its text then says, and what it does not say of my-consent. */
  const finished: ReadonlyArray<{
    name: string
    sweep: Partial<SweepLog.Entry>
    said: ReadonlyArray<string>
    unsaid?: string
  }> = [
    {
      name: "names the orders a finished sweep left unplanned while their details are pending (issue 37)",
      sweep: { detailsPending: ["SO0005", "SO0006"] },
      said: [
        "2026-11-02 cz-1: 2 order(s) not planned, their details pending (the list names no start): SO0005, SO0006; read within a later day's budget"
      ],
      unsaid: "my-consent: 0 order(s)"
    },
    {
      name: "names a finished sweep's records that could not be read, with their positions and reasons (issue 34)",
      sweep: {
        unread: {
          count: 7,
          first: [{ position: "page 0, record 2 (SO-0002)", reason: "instructedAmount: Missing key" }]
        }
      },
      said: [
        "2026-11-02 cz-1: 7 record(s) of the listing could not be read, not planned: page 0, record 2 (SO-0002): instructedAmount: Missing key; …"
      ],
      unsaid: "my-consent: 0 record(s)"
    },
    {
      name: "names a finished sweep's records that pay nothing beside those unread, with positions and reasons (issue 34)",
      sweep: {
        skipped: {
          count: 1,
          first: [
            {
              position: "page 0, record 2 (SO-0002)",
              reason: "endDate 2026-01-01 is before startDate 2026-03-01: the order never pays"
            }
          ]
        },
        unread: { count: 1, first: [{ position: "page 1, record 7", reason: "not JSON" }] }
      },
      said: [
        "2026-11-02 cz-1: 1 record(s) of the listing could not be read, not planned: page 1, record 7: not JSON 2026-11-02 cz-1: 1 record(s) of the listing pay nothing, skipped: page 0, record 2 (SO-0002): endDate 2026-01-01 is before startDate 2026-03-01: the order never pays"
      ],
      unsaid: "my-consent: 0 record(s)"
    },
    {
      name: "names a finished sweep's reading warnings, one line per field and reason with the count (issue 34)",
      sweep: {
        warnings: [
          { field: "frequency", reason: frequencyWarning, count: 4, orderIds: ["SO-0001", "SO-0002", "SO-0003"] },
          { field: "instructedAmount.value", reason: "12.345: amount has 3 decimals", count: 1, orderIds: ["SO-0009"] }
        ]
      },
      said: [
        `2026-11-02 cz-1: 4 record(s) read with a warning, planned as read: frequency: ${frequencyWarning} (SO-0001, SO-0002, SO-0003, …)`,
        "2026-11-02 cz-1: 1 record(s) read with a warning, planned as read: instructedAmount.value: 12.345: amount has 3 decimals (SO-0009)"
      ]
    }
  ]

  it.each(finished)("$name", ({ sweep, said, unsaid }) => {
    const text = cz1Sweep(sweep)
    for (const line of said) expect(text).toContain(line)
    if (unsaid !== undefined) expect(text).not.toContain(unsaid)
  })

  it("lists each check without an answer with where it stands and its typed reason", () => {
    const text = oneText(lines)
    expect(text).toMatch(/2026-11-02 SO-3 12\.50 EUR SK2411000000002612345678: refused \(refused\/Forbidden, 1 sent\)/)
    expect(text).toMatch(/2026-11-03 SO-6 12\.50 EUR \S+: retrying \(unavailable\/TransportFailure, 1 sent\)/)
    expect(text).toMatch(/2026-10-30 SO-7 12\.50 EUR \S+: gave up \(unavailable\/TransportFailure/)
    // a payment moved from its nominal date shows it
    expect(lines.some((l) => /^2026-11-03 +SO-6 +11-01 +12\.50 +EUR /.test(l))).toBe(true)
  })

  it("says which webhook endpoint is disabled since when and why, and the ways out; an endpoint in order is not shown", () => {
    const text = oneText(lines)
    expect(text).toContain(
      "Webhook endpoint https://old.example.com/hooks disabled since 11-02 07:01 UTC (HTTP 410 Gone from https://old.example.com/hooks); tppkit webhook enable URL turns it back on; 4 deliveries given up, tppkit webhook replay --since D sends them again"
    )
    expect(text).not.toContain("Webhook endpoint https://hooks.example.com")
  })

  it("ends with whether the fleet still advances: live, stopped, or stalled since when and why, in 100 columns", () => {
    const at = Date.UTC(2026, 10, 29, 7, 5)
    const reading: Liveness.Reading = {
      at,
      unread: 0,
      oldestUnreadAt: undefined,
      runners: 3,
      lastSweepAt: Date.UTC(2026, 10, 29, 7, 0)
    }
    const of = (r: Liveness.Reading) =>
      WorkerStatus.livenessSection({ ...status, liveness: { reading: r, verdict: Liveness.verdict(r) } })
    expect(of(reading)).toEqual([
      "",
      "Fleet: live: 3 runners healthy, 0 due requests wait unread; last sweep 11-29 07:00 UTC"
    ])
    expect(of({ ...reading, runners: 0, unread: 1, oldestUnreadAt: at - 600_000 })).toEqual([
      "",
      "Fleet: stopped: no runner is healthy; 1 due request waits unread; last sweep 11-29 07:00 UTC"
    ])
    const stalled = of({ ...reading, unread: 12, oldestUnreadAt: at - 130_000 })
    for (const l of stalled) expect(l.length, l).toBeLessThanOrEqual(100)
    expect(stalled.join(" ").replaceAll(/ +/g, " ")).toBe(
      " Fleet: stalled since 11-29 07:02 UTC: the cluster has read none of 12 due requests for 130 s while 3 runners look healthy"
    )
    expect(WorkerStatus.table(status).join("\n")).not.toContain("Fleet:")
    // the JSON: each key only when the status read it
    expect(WorkerStatus.fleetJson(status)).toEqual({})
    const read = { ...reading, unread: 12, oldestUnreadAt: at - 130_000 }
    expect(
      WorkerStatus.fleetJson({
        ...full,
        liveness: { reading: read, verdict: Liveness.verdict(read) }
      })
    ).toEqual({
      fleet: {
        state: "stalled",
        what: "queue",
        since: "2026-11-29T07:02:50.000Z",
        reason: "the cluster has read none of 12 due requests for 130 s while 3 runners look healthy",
        unread: 12,
        oldestUnreadAt: "2026-11-29T07:02:50.000Z",
        runners: 3,
        lastSweepAt: "2026-11-29T07:00:00.000Z"
      },
      webhookEndpoints: [
        {
          endpoint: "https://hooks.example.com/tppkit/treasury",
          disabledAt: null,
          disabledReason: null,
          failed: 0
        },
        {
          endpoint: "https://old.example.com/hooks",
          disabledAt: "2026-11-02T07:01:00.000Z",
          disabledReason: "HTTP 410 Gone from https://old.example.com/hooks",
          failed: 4
        }
      ]
    })
  })

  it("lists the webhook deliveries not made yet, and nothing of sweeps or webhooks when none were read", () => {
    expect(oneText(lines)).toContain(
      "check.declined evt_0123456789abcdef0123456789abcdef to https://hooks.example.com/tppkit/treasury: 3 attempts, next 11-02 07:05 UTC"
    )
    const plain = WorkerStatus.table(status).join("\n")
    expect(plain).not.toContain("Sweeps")
    expect(plain).not.toContain("disabled")
    expect(plain).not.toContain("Webhook")
  })
})
