/**
 * `tppkit webhook secret`, `verify`, `enable` and `replay` in this process: what each prints and the exit code of
 * each failure's class; `verify` checks requests signed by the `standardwebhooks` package (the reference library),
 * `enable` and `replay` work on a real PostgreSQL.
 */
import { Webhook } from "@tppkit/worker"
import * as Database from "@tppkit/worker/Database"
import { Effect, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { Webhook as StandardWebhook } from "standardwebhooks"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { tppkit } from "../e2e/harness.ts"
import { embeddedDb } from "../worker/pg.ts"
import { run } from "./inProcess.ts"
import { tempFolder } from "./tempFiles.ts"

const secret = Redacted.value(Webhook.makeSecret())
const body = JSON.stringify({ type: "sweep.failed", timestamp: "2026-11-02T07:00:00Z", data: { consent: "c2" } })
const id = "evt_0123456789abcdef0123456789abcdef"
/** The three headers of `body` signed at `at` (epoch milliseconds) by the reference library. */
const signed = (at: number, key = secret) => {
  const timestamp = new Date(Math.floor(at / 1000) * 1000)
  return {
    id,
    timestamp: String(timestamp.getTime() / 1000),
    signature: new StandardWebhook(key).sign(id, timestamp, body)
  }
}
const flags = (h: ReturnType<typeof signed>) => ["--id", h.id, "--timestamp", h.timestamp, "--signature", h.signature]
const { file } = tempFolder("tppkit-webhook")

describe("tppkit webhook secret", () => {
  it("prints a new whsec_ secret the reference library takes; --bytes out of 24 to 64 is a usage error", async () => {
    const made = await run(["webhook", "secret"])
    expect(made.code, made.stderr).toBe(0)
    const text = made.stdout.trim()
    expect(text).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
    const h = new StandardWebhook(text).sign(id, new Date(), body)
    expect(h).toMatch(/^v1,/)
    const long = await run(["webhook", "secret", "--bytes", "64"])
    expect(Buffer.from(long.stdout.trim().slice(6), "base64").length).toBe(64)
    const small = await run(["webhook", "secret", "--bytes", "16"])
    expect(small.code).toBe(2)
    expect(small.stderr.split("\n")[0]).toBe("tppkit: --bytes must be a whole number from 24 to 64")
  })
})

describe("tppkit webhook verify", () => {
  beforeEach(() => {
    process.env.TPPKIT_WEBHOOK_SECRET = secret
  })
  afterEach(() => {
    delete process.env.TPPKIT_WEBHOOK_SECRET
  })

  it("prints the event with its id of a request the reference library signed: headers as flags, body from stdin", async () => {
    const ok = await run(["webhook", "verify", ...flags(signed(Date.now()))], { stdin: body })
    expect(ok.code, ok.stderr).toBe(0)
    expect(JSON.parse(ok.stdout)).toEqual({ id, ...JSON.parse(body) })
  })

  it("reads the headers from a file as curl -D writes them, or a JSON object; a flag wins over the file", async () => {
    const h = signed(Date.now())
    const curl = file(
      "headers.txt",
      `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nWebhook-Id: ${h.id}\r\nwebhook-timestamp: ${h.timestamp}\r\nWEBHOOK-SIGNATURE: ${h.signature}\r\n\r\n`
    )
    const bodyFile = file("body.json", body)
    const fromCurl = await run(["webhook", "verify", "--headers", curl, "--body", bodyFile])
    expect(fromCurl.code, fromCurl.stderr).toBe(0)
    const json = file("headers.json", {
      "webhook-id": h.id,
      "webhook-timestamp": h.timestamp,
      "webhook-signature": h.signature
    })
    const fromJson = await run(["webhook", "verify", "--headers", json], { stdin: body })
    expect(fromJson.code, fromJson.stderr).toBe(0)
    const overridden = await run(["webhook", "verify", "--headers", json, "--id", "evt_other"], { stdin: body })
    expect(overridden.code).toBe(7)
    expect(overridden.stderr).toBe(
      "tppkit: webhook: the signature does not match the id, the timestamp, the body and the secret\n"
    )
    const both = await run(["webhook", "verify", "--headers", "-"], { stdin: body })
    expect(both.code).toBe(2)
  })

  it("refuses an old request (a replay) with one line, exit 7; a wider tolerance takes it", async () => {
    const old = signed(Date.now() - 3600_000)
    const late = await run(["webhook", "verify", ...flags(old)], { stdin: body })
    expect(late.code).toBe(7)
    expect(late.stderr).toMatch(
      /^tppkit: webhook: signed at \S+, 3\d{3} s from now \(tolerance 300 s\): a late or replayed request\n$/
    )
    const wide = await run(["webhook", "verify", ...flags(old), "--tolerance", "7200"], { stdin: body })
    expect(wide.code, wide.stderr).toBe(0)
  })

  it("during a rotation the secret is the new and the old, space-separated: either's signature verifies", async () => {
    const next = Redacted.value(Webhook.makeSecret())
    for (const key of [next, secret]) {
      const ok = await run(["webhook", "verify", ...flags(signed(Date.now(), key)), "--secret", `${next} ${secret}`], {
        stdin: body
      })
      expect(ok.code, ok.stderr).toBe(0)
    }
  })

  it("without a secret or with one that is not whsec_: exit 3 with the way out; a missing header: exit 2; the old header: exit 7", async () => {
    // a process of its own: the environment this process read at its start has the secret
    const none = await tppkit(["webhook", "verify", ...flags(signed(Date.now()))], { stdin: body })
    expect(none.code).toBe(3)
    expect(none.stderr).toBe(
      "tppkit: no secret: set TPPKIT_WEBHOOK_SECRET (or give --secret), the endpoint's whsec_… secret\n"
    )
    const plain = await run(["webhook", "verify", ...flags(signed(Date.now())), "--secret", "e2e-webhook-secret"], {
      stdin: body
    })
    expect(plain.code).toBe(3)
    expect(plain.stderr).toContain("starts with whsec_ (Standard Webhooks); make one with tppkit webhook secret")
    expect(plain.stderr).not.toContain("e2e-webhook-secret")
    const noId = await run(["webhook", "verify", "--timestamp", "1", "--signature", "v1,x"], { stdin: body })
    expect(noId.code).toBe(2)
    expect(noId.stderr.split("\n")[0]).toBe("tppkit: no webhook-id: give --id or --headers FILE")
    const h = signed(Date.now())
    const oldScheme = await run(
      [
        "webhook",
        "verify",
        "--id",
        id,
        "--timestamp",
        h.timestamp,
        "--signature",
        `t=${h.timestamp},v1=${"0".repeat(64)}`
      ],
      { stdin: body }
    )
    expect(oldScheme.code).toBe(7)
    expect(oldScheme.stderr).toBe("tppkit: webhook: webhook-signature has no v1,<base64 HMAC-SHA256> signature\n")
  })
})

const db = embeddedDb()

describe("tppkit webhook enable and replay", { timeout: 60_000 }, () => {
  it("enable turns a disabled endpoint back on; replay makes the events due again, counted per endpoint", async () => {
    const url = await Effect.runPromise(db.freshUrl())
    const database = Redacted.value(url)
    const on = "http://127.0.0.1:9/on"
    const gone = "http://127.0.0.1:9/gone?token=abc"
    const at = Date.UTC(2026, 10, 2, 7)
    await Effect.runPromise(
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        yield* sql`INSERT INTO tppkit_webhook_endpoint (url, added_at, disabled_at, disabled_reason)
          VALUES (${on}, ${at - 1000}, NULL, NULL), (${gone}, ${at - 1000}, ${at}, 'HTTP 410 Gone from x')`
        for (const [event, type, when] of [
          ["evt_a", "check.declined", at],
          ["evt_b", "sweep.failed", at + 1000],
          ["evt_old", "check.declined", at - 86_400_000]
        ] as const) {
          yield* sql`INSERT INTO tppkit_webhook_outbox (event_id, endpoint, type, body, occurred_at, created_at,
              next_at, delivered_at)
            VALUES (${event}, ${on}, ${type}, '{}', ${when}, ${when}, ${when}, ${when + 10})`
        }
      }).pipe(Effect.provide(Database.layer(url)), Effect.scoped)
    )
    // worker status says which endpoint is disabled, and the way out
    const table = await run(["worker", "status", "--database-url", database])
    expect(table.code, table.stderr).toBe(0)
    expect(table.stdout.replaceAll(/\n +/g, " ")).toContain(
      "Webhook endpoint http://127.0.0.1:9/gone disabled since 11-02 07:00 UTC (HTTP 410 Gone from x); tppkit webhook enable URL turns it back on"
    )
    expect(table.stdout).toMatch(/\nFleet: stopped: no runner is healthy; 0 due requests wait unread; no sweep yet\n$/)
    const json = await run(["worker", "status", "--database-url", database, "--format", "json"])
    const document = JSON.parse(json.stdout)
    expect(document.fleet.state).toBe("stopped")
    expect(document.webhookEndpoints.map((e: { disabledAt: string | null }) => e.disabledAt)).toEqual([
      "2026-11-02T07:00:00.000Z",
      null
    ])
    const replay = await run(["webhook", "replay", "--since", "2026-11-02", "--database-url", database])
    expect(replay.code, replay.stderr).toBe(0)
    expect(JSON.parse(replay.stdout)).toEqual({
      since: "2026-11-02T00:00:00.000Z",
      endpoints: { "http://127.0.0.1:9/on": 2 }
    })
    expect(replay.stderr).toBe("tppkit: 2 deliveries due again; a worker with the endpoint's --webhook posts them\n")
    const typed = await run([
      "webhook",
      "replay",
      "--since",
      "2026-11-01T00:00:00+01:00",
      "--type",
      "check.declined",
      "--endpoint",
      on,
      "--database-url",
      database
    ])
    expect(JSON.parse(typed.stdout).endpoints).toEqual({ "http://127.0.0.1:9/on": 2 })
    const disabled = await run([
      "webhook",
      "replay",
      "--since",
      "2026-11-02",
      "--endpoint",
      gone,
      "--database-url",
      database
    ])
    expect(disabled.code).toBe(3)
    expect(disabled.stderr).toBe(
      "tppkit: --endpoint http://127.0.0.1:9/gone is disabled (it answered 410 Gone): tppkit webhook enable URL first\n"
    )
    const badSince = await run(["webhook", "replay", "--since", "yesterday", "--database-url", database])
    expect(badSince.code).toBe(2)
    const badType = await run([
      "webhook",
      "replay",
      "--since",
      "2026-11-02",
      "--type",
      "check.ok",
      "--database-url",
      database
    ])
    expect(badType.code).toBe(2)
    expect(badType.stderr).toContain("one of check.declined, check.refused, check.unanswered, sweep.failed")
    const unknown = await run(["webhook", "enable", "http://127.0.0.1:9/nowhere", "--database-url", database])
    expect(unknown.code).toBe(2)
    expect(unknown.stderr.split("\n")[0]).toBe(
      "tppkit: http://127.0.0.1:9/nowhere: no such webhook endpoint; the fleet's: http://127.0.0.1:9/gone, http://127.0.0.1:9/on"
    )
    // named without its query (which may hold a token): the one endpoint shown so
    const enabled = await run(["webhook", "enable", "http://127.0.0.1:9/gone", "--database-url", database])
    expect(enabled.code, enabled.stderr).toBe(0)
    expect(enabled.stdout).toMatch(/^http:\/\/127\.0\.0\.1:9\/gone: enabled; /)
    const again = await run(["webhook", "enable", gone, "--database-url", database])
    expect(again.stdout).toBe("http://127.0.0.1:9/gone: was not disabled; nothing changed\n")
    const noDb = await run(["webhook", "enable", gone])
    expect(noDb.code).toBe(2)
  })
})
