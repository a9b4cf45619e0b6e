/**
 * `Lifecycle`: each event as one logfmt or JSON line with the cause first, and effect's own log messages (the
 * cluster's 2 KB warnings) shortened to one line with the cause first and no stack trace.
 */
import { assert, describe, it } from "@effect/vitest"
import { Lifecycle } from "@tppkit/worker"
import { Cause, Effect, Logger, References } from "effect"
import { ClusterError } from "effect/cluster"
import { listingExhausted } from "./support.ts"

const time = new Date("2026-11-25T07:00:00Z")

/** A line without its time stamp. */
const untimed = (line: string) => line.replace(/^time=\S+ /, "")

/** The line of `event` at {@link time}, without its time stamp. */
const lineOf = (event: Lifecycle.Event) => untimed(Lifecycle.line(time, event))

describe("Lifecycle", () => {
  it("writes each event as one logfmt line: level and event first, then the cause, then the counts", () => {
    assert.strictEqual(
      Lifecycle.line(time, {
        _tag: "NextSweep",
        at: Date.parse("2026-11-26T07:00:00Z"),
        timeZone: "Europe/Bratislava"
      }),
      "time=2026-11-25T07:00:00.000Z level=info event=next_sweep at=2026-11-26T08:00:00+01:00 zone=Europe/Bratislava"
    )
    // summer time, and a zone west of Greenwich
    assert.include(
      Lifecycle.line(time, {
        _tag: "NextSweep",
        at: Date.parse("2026-07-01T06:00:00Z"),
        timeZone: "Europe/Bratislava"
      }),
      "at=2026-07-01T08:00:00+02:00"
    )
    assert.include(
      Lifecycle.line(time, { _tag: "NextSweep", at: Date.parse("2026-07-01T12:00:00Z"), timeZone: "America/New_York" }),
      "at=2026-07-01T08:00:00-04:00"
    )
    const failed = Lifecycle.finished("2026-11-25", 1, [
      { consent: "a", planned: 3 },
      { consent: "b c", planned: 0, failure: { message: 'budget: "4 of 4" used' } }
    ])
    assert.strictEqual(
      Lifecycle.line(time, failed),
      'time=2026-11-25T07:00:00.000Z level=error event=sweep_failed cause="budget: \\"4 of 4\\" used" day=2026-11-25 run=1 consents=2 failed=1 unlisted="b c" planned=3'
    )
    assert.strictEqual(
      Lifecycle.line(time, Lifecycle.finished("2026-11-25", 0, [{ consent: "a", planned: 3 }])),
      "time=2026-11-25T07:00:00.000Z level=info event=sweep_finished day=2026-11-25 run=0 consents=1 planned=3"
    )
    assert.deepStrictEqual(JSON.parse(Lifecycle.line(time, { _tag: "ShardsHeld", count: 10, total: 30 }, "json")), {
      time: "2026-11-25T07:00:00.000Z",
      level: "info",
      event: "shards",
      held: 10,
      of: 30
    })
  })

  it.effect("shortens effect's own log messages: one line, the cause first, no stack trace", () =>
    Effect.gen(function* () {
      const lines: Array<string> = []
      const cause = new Error(`connection reset ${"x".repeat(3000)}`)
      yield* Effect.logWarning(
        `Error in entity manager ${"detail ".repeat(300)}\n    at somewhere (file.ts:1:1)`,
        cause
      ).pipe(
        Effect.provide(Logger.layer([Lifecycle.logger((l) => lines.push(l))])),
        Effect.provideService(References.MinimumLogLevel, "Warn")
      )
      assert.strictEqual(lines.length, 1)
      const [line = ""] = lines
      assert.match(line, /^time=\S+ level=warn event=log cause="connection reset x+…" message="Error in entity manager/)
      assert.notInclude(line, "\n")
      assert.notInclude(line, "file.ts:1:1")
      assert.isAtMost(line.length, 2 * Lifecycle.maxText + 100)
      assert.strictEqual(Lifecycle.shorten("failed\n    at f (a.ts:1:1)\n    at g (b.ts:2:2)\nafter"), "failed after")
    })
  )

  it.effect("names what lies under a cluster error without a message (the database out of reach), cause first", () =>
    Effect.gen(function* () {
      const lines: Array<string> = []
      const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5433"), { code: "ECONNREFUSED" })
      // effect's SqlError wraps its reason, which has the same message
      const reason = new Error("PgConnection: Failed to connect", { cause: refused })
      const sql = new Error("PgConnection: Failed to connect", { cause: reason })
      const persistence = new ClusterError.PersistenceError({ cause: sql })
      yield* Effect.logWarning("Could not read messages from storage", Cause.fail(persistence)).pipe(
        Effect.provide(Logger.layer([Lifecycle.logger((l) => lines.push(l))])),
        Effect.provideService(References.MinimumLogLevel, "Warn")
      )
      assert.strictEqual(lines.length, 1)
      assert.match(
        lines[0] ?? "",
        /^time=\S+ level=warn event=log cause="PersistenceError: PgConnection: Failed to connect: connect ECONNREFUSED 127\.0\.0\.1:5433" message="Could not read messages from storage"$/
      )
    })
  )

  it("names only a worker's ways out of a budget refusal (no --max-age, no --psu-last-logged-time)", () => {
    const refused = listingExhausted("k", "2026-11-26T00:00:00+01:00")
    assert.include(refused.message, "--max-age")
    const cause = Lifecycle.listingCause(refused)
    assert.notInclude(cause, "max-age")
    assert.notInclude(cause, "psu-last-logged-time")
    assert.include(cause, "it frees up at 2026-11-26T00:00:00+01:00")
    assert.include(cause, "tppkit worker --today DAY --once")
    const line = Lifecycle.line(
      time,
      Lifecycle.finished("2026-11-25", 0, [{ consent: "a", planned: 0, failure: refused }])
    )
    assert.include(line, 'cause="daily budget of 4 unattended calls cannot cover 1 more (used 4)')
  })

  it.effect(
    "effect's own lines stay below error and a message repeated within 30 s is counted, not written again",
    () =>
      Effect.gen(function* () {
        const lines: Array<string> = []
        const log = Effect.provide(Logger.layer([Lifecycle.logger((l) => lines.push(l))]))
        yield* Effect.logError("Shard lock storage is unhealthy").pipe(log)
        for (let i = 0; i < 5; i++) yield* Effect.logWarning("No healthy runners available").pipe(log)
        assert.deepStrictEqual(lines.map(untimed), [
          'level=warn event=log message="Shard lock storage is unhealthy"',
          'level=warn event=log message="No healthy runners available"'
        ])
      })
  )

  it("says what a fault cost: the database away and back, shards lost, a listing read in part", () => {
    const lines = [
      Lifecycle.line(time, { _tag: "DatabaseUnreachable", cause: "no answer within 3 s" }),
      Lifecycle.line(time, { _tag: "DatabaseBack", afterMillis: 31_400 }),
      Lifecycle.line(time, { _tag: "ShardsLost", held: 10, pausedMillis: 61_000 }),
      Lifecycle.line(time, {
        _tag: "ListingPartial",
        day: "2026-11-25",
        consent: "fleet-003",
        pagesKept: 3,
        pagesUnread: [3],
        plannedFrom: "2026-11-24",
        planned: 270,
        plannedFromEarlier: 54,
        cause: "503 service unavailable"
      })
    ].map(untimed)
    // a consent whose unread pages no kept listing has: the failed sweep's line (and the sweep.failed event made
    // from it) says so before why
    const unplanned = Lifecycle.finished("2026-11-25", 0, [
      { consent: "fleet-003", planned: 81, pagesUnread: [3], failure: { message: "503 service unavailable" } }
    ])
    assert.strictEqual(
      unplanned.failed[0]?.cause,
      "page(s) 3 not read and no complete listing kept: their payments are not planned; 503 service unavailable"
    )
    assert.deepStrictEqual(lines, [
      'level=warn event=database_unreachable cause="no answer within 3 s"',
      "level=info event=database_back after=31.4s",
      "level=warn event=shards_lost held=10 paused=61s",
      'level=warn event=listing_partial cause="503 service unavailable" day=2026-11-25 consent=fleet-003 pages_kept=3 pages_unread=1 planned_from=2026-11-24 planned=270 planned_from_earlier=54'
    ])
  })

  // one event each, and its line as written (the time left out)
  const named: Array<[string, Lifecycle.Event, string]> = [
    [
      "names the orders left unplanned while their details are pending (issue 37)",
      {
        _tag: "DetailsPending",
        day: "2026-11-25",
        consent: "cz-1",
        orders: ["SO0005", "SO0006"]
      },
      `level=warn event=details_pending day=2026-11-25 consent=cz-1 orders=2 order_ids=SO0005,SO0006 message="not planned today: their details are pending (the list names no start); read within a later day's budget"`
    ],
    [
      "names a listing's reading warnings, one line per field and reason with the count (issue 34)",
      {
        _tag: "RecordsWarned",
        day: "2026-11-25",
        consent: "fleet-001",
        field: "frequency",
        reason: '"mnth" is read as "MNTH", because the codes are upper case',
        count: 4,
        orderIds: ["SO-0001", "SO-0002", "SO-0003"]
      },
      `level=warn event=records_warned day=2026-11-25 consent=fleet-001 field=frequency records=4 order_ids=SO-0001,SO-0002,SO-0003 reason="\\"mnth\\" is read as \\"MNTH\\", because the codes are upper case" message="records of the listing were read with this warning; they were planned as read"`
    ],
    [
      "names a listing's records that pay nothing, one info line per consent (issue 34)",
      {
        _tag: "RecordsSkipped",
        day: "2026-11-25",
        consent: "fleet-001",
        count: 1,
        first: [
          {
            position: "page 0, record 2 (SO-0002)",
            reason: "endDate 2026-01-01 is before startDate 2026-03-01: the order never pays"
          }
        ]
      },
      `level=info event=records_skipped day=2026-11-25 consent=fleet-001 records=1 first="page 0, record 2 (SO-0002): endDate 2026-01-01 is before startDate 2026-03-01: the order never pays" message="records of the listing pay nothing and were not planned; the others were"`
    ]
  ]
  for (const [name, event, line] of named) it(name, () => assert.strictEqual(lineOf(event), line))

  it("names a listing's records that could not be read, one line per consent (issue 34)", () => {
    assert.strictEqual(
      lineOf({
        _tag: "RecordsUnread",
        day: "2026-11-25",
        consent: "fleet-001",
        count: 2,
        first: [
          { position: "page 0, record 2 (SO-0002)", reason: "instructedAmount: Missing key" },
          { position: "page 1, record 7", reason: "not JSON" }
        ]
      }),
      `level=warn event=records_unread day=2026-11-25 consent=fleet-001 records=2 first="page 0, record 2 (SO-0002): instructedAmount: Missing key; page 1, record 7: not JSON" message="records of the listing could not be read as standing orders; the others were planned"`
    )
    // no record of the listing could be read: the line says nothing was planned, not that the others were (issue 34)
    assert.strictEqual(
      lineOf({
        _tag: "RecordsUnread",
        day: "2026-11-25",
        consent: "fleet-001",
        count: 1,
        first: [{ position: "record 1 (SO-0001)", reason: "not read as cobs: the record has no standingOrder" }],
        nothingRead: true
      }),
      `level=warn event=records_unread day=2026-11-25 consent=fleet-001 records=1 first="record 1 (SO-0001): not read as cobs: the record has no standingOrder" message="no record of the listing could be read as a standing order; nothing was planned from it"`
    )
  })

  it("the end of a --once run: its repeats named with their attempts, its unplanned consents with their pages", () => {
    const at = new Date(Date.UTC(2026, 10, 25, 7))
    const repeats = Array.from({ length: Lifecycle.namedRepeats + 2 }, (_, i) => ({
      consent: "fleet-001",
      orderId: `GEN-${i + 1}`,
      nominalDate: "2026-11-27",
      attempts: 2,
      unconfirmed: i === 0 ? 1 : 0
    }))
    const line = (event: Lifecycle.RunFinished) => untimed(Lifecycle.line(at, event))
    assert.strictEqual(
      line({ _tag: "RunFinished", day: "2026-11-25", checks: 270, repeats: [], standIns: 0, unplanned: [] }),
      "level=info event=run_finished day=2026-11-25 checks=270 repeated=0 unconfirmed=0 stand_ins=0 unplanned=none"
    )
    const named = repeats
      .slice(0, Lifecycle.namedRepeats)
      .map((r) => `fleet-001/${r.orderId}/2026-11-27:2`)
      .join(",")
    assert.strictEqual(
      line({
        _tag: "RunFinished",
        day: "2026-11-25",
        checks: 270,
        repeats,
        standIns: 54,
        unplanned: [{ consent: "fleet-003", pagesUnread: [2, 3], cause: "503 service unavailable" }]
      }),
      `level=error event=run_finished cause="503 service unavailable" day=2026-11-25 checks=270 repeated=12 unconfirmed=1 repeats="${named},…" stand_ins=54 unplanned=fleet-003:2+3`
    )
  })
})
