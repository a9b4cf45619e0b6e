/** `tppkit webhook verify` in this process: the event on stdout, or one line and the exit code of its class. */
import { Webhook } from "@tppkit/worker"
import { Redacted } from "effect"
import { afterEach, beforeEach, describe, expect, it } from "vitest"
import { tppkit } from "../e2e/harness.ts"
import { run } from "./inProcess.ts"

const secret = "receiver-secret"
const body = JSON.stringify({ id: "evt_1", type: "sweep.failed", occurredAt: "2026-11-02T07:00:00Z", data: {} })
const signed = (at: number) => Webhook.sign(Redacted.make(secret), Math.floor(at / 1000), body)

describe("tppkit webhook verify", () => {
  beforeEach(() => {
    process.env.TPPKIT_WEBHOOK_SECRET = secret
  })
  afterEach(() => {
    delete process.env.TPPKIT_WEBHOOK_SECRET
  })

  it("prints the event of a request signed with the secret, from stdin", async () => {
    const ok = await run(["webhook", "verify", "--signature", signed(Date.now())], { stdin: body })
    expect(ok.code, ok.stderr).toBe(0)
    expect(JSON.parse(ok.stdout)).toEqual(JSON.parse(body))
  })

  it("refuses an old request (a replay) with one line, exit 7; a wider tolerance takes it", async () => {
    const old = signed(Date.now() - 3600_000)
    const late = await run(["webhook", "verify", "--signature", old], { stdin: body })
    expect(late.code).toBe(7)
    expect(late.stderr).toMatch(
      /^tppkit: webhook: signed at \S+, 3\d{3} s from now \(tolerance 300 s\): a late or replayed request\n$/
    )
    const wide = await run(["webhook", "verify", "--signature", old, "--tolerance", "7200"], { stdin: body })
    expect(wide.code, wide.stderr).toBe(0)
  })

  it("without a secret: exit 3, naming TPPKIT_WEBHOOK_SECRET; a malformed header: exit 7", async () => {
    // a process of its own: the environment this process read at its start has the secret
    const none = await tppkit(["webhook", "verify", "--signature", signed(Date.now())], { stdin: body })
    expect(none.code).toBe(3)
    expect(none.stderr).toBe("tppkit: no secret: set TPPKIT_WEBHOOK_SECRET (or give --secret)\n")
    const malformed = await run(["webhook", "verify", "--signature", "sha256=abc"], { stdin: body })
    expect(malformed.code).toBe(7)
    expect(malformed.stderr).toBe("tppkit: webhook: tppkit-signature is not t=<unix seconds>,v1=<64 hex digits>\n")
  })
})
