/**
 * One fleet, two banks (issue 37): a mock bank playing the seed bank's profile and one playing COBS, one consent at
 * each (the COBS one added with `tppkit consents add … --profile cobs` and the customer's refresh token), one `tppkit
 * worker --once`. Each consent is listed at its own bank (COBS with the customer's token renewed from the kept
 * refresh token), and each due payment is checked once at the bank of its consent: the two banks' journals are the
 * witness. `worker status` names the COBS consent's profile beside its budget.
 */
import { afterAll, assert, describe, it } from "@effect/vitest"
import { Profile } from "@tppkit/core"
import { Fixtures, Journal, Sandbox } from "@tppkit/sandbox"
import * as Database from "@tppkit/worker/Database"
import { Context, Effect, Exit, Layer, Redacted, Scope } from "effect"
import { SqlClient } from "effect/sql"
import { customerTokens } from "../sandbox/support.ts"
import { embeddedDb } from "../worker/pg.ts"
import { tppkit, workerOnce } from "./harness.ts"
import { expectedChecks } from "./plan.ts"

const db = embeddedDb()
const day = "2026-11-02"
const bankScope = Scope.makeUnsafe()
afterAll(() => Effect.runPromise(Scope.close(bankScope, Exit.void)))

describe("a fleet serving a Slovak and a Czech bank", () => {
  it("lists each consent at its profile's bank and checks every due payment once there", async () => {
    const sbasBank = await Effect.runPromise(
      Layer.buildWithScope(Sandbox.layer({ listingDay: Fixtures.baseDate }), bankScope)
    )
    const cobsBank = await Effect.runPromise(Layer.buildWithScope(Sandbox.layer({ profile: Profile.cobs }), bankScope))
    const sbas = Context.get(sbasBank, Sandbox.SandboxInfo)
    const cobs = Context.get(cobsBank, Sandbox.SandboxInfo)
    const url = Redacted.value(await Effect.runPromise(db.freshUrl()))
    const grant = await customerTokens(cobs)
    // the fleet's secret sealing refresh tokens at rest (the same for `consents add` and the worker)
    const tokenKey = "fleet-refresh-token-key-of-this-test-0123456789"

    const added = await tppkit(["consents", "add", "cz-customer", "--profile", "cobs"], {
      env: { TPPKIT_DATABASE_URL: url, TPPKIT_REFRESH_TOKEN: grant.refresh_token, TPPKIT_REFRESH_TOKEN_KEY: tokenKey },
      // the command loads the database driver: slow on a loaded machine
      timeoutMs: 90_000
    })
    assert.strictEqual(added.code, 0, added.stderr)
    // the refresh token is kept, never printed
    assert.notInclude(added.stdout + added.stderr, grant.refresh_token)

    const worker = await tppkit(workerOnce(url, sbas, day, "--consents", sbas.clientId), {
      env: {
        TPPKIT_CLIENT_SECRET: Redacted.value(sbas.clientSecret),
        TPPKIT_COBS_BASE_URL: cobs.baseUrl,
        TPPKIT_COBS_CLIENT_ID: cobs.clientId,
        TPPKIT_COBS_CLIENT_SECRET: Redacted.value(cobs.clientSecret),
        TPPKIT_COBS_API_KEY: Redacted.value(cobs.apiKey),
        TPPKIT_TPP_NAME: "My Budget App s.r.o.",
        TPPKIT_WORKER_POLL_MS: "250",
        TPPKIT_REFRESH_TOKEN_KEY: tokenKey
      },
      timeoutMs: 150_000
    })
    assert.strictEqual(worker.code, 0, worker.stderr)
    assert.notInclude(worker.stdout + worker.stderr, grant.refresh_token)
    const summary = JSON.parse(worker.stdout.trim().split("\n").at(-1) ?? "{}") as { sweep: string; checks: number }
    assert.strictEqual(summary.sweep, "complete")

    const rows = await Effect.runPromise(
      Effect.gen(function* () {
        const sql = yield* SqlClient.SqlClient
        return yield* sql<{
          consent: string
          order_id: string
          nominal_date: string
          attempts: number
          request_id: string | null
          outcome: string
        }>`SELECT consent, order_id, nominal_date, attempts, request_id, outcome FROM tppkit_checks`
      }).pipe(Effect.provide(Database.layer(Redacted.make(url), { maxConnections: 1 })), Effect.scoped)
    )
    const of = (consent: string) => rows.filter((r) => r.consent === consent)
    assert.isAbove(of(sbas.clientId).length, 0)
    assert.isAbove(of("cz-customer").length, 0)
    assert.strictEqual(summary.checks, rows.length)

    // the seed bank's consent: every due payment of what that bank lists is checked
    const expected = await expectedChecks(sbas, day)
    assert.deepStrictEqual(
      of(sbas.clientId)
        .map((r) => `${r.order_id}/${r.nominal_date}`)
        .sort(),
      expected.map((p) => `${p.orderId}/${p.nominalDate}`).sort()
    )

    // each bank's journal: one balance check per payment of its own consent (by the request's id, `Request-ID` at
    // the seed bank and `X-Request-ID` under COBS), and none for the other bank's consent
    for (const [consent, bank, header] of [
      [sbas.clientId, sbasBank, "request-id"],
      ["cz-customer", cobsBank, "x-request-id"]
    ] as const) {
      const entries = await Effect.runPromise(Context.get(bank, Journal.Journal).entries)
      const sent = entries.filter((e) => e.path.toLowerCase().includes("balance")).map((e) => e.headers[header] ?? "")
      for (const r of of(consent)) {
        assert.strictEqual(r.attempts, 1, `${consent} ${r.order_id}/${r.nominal_date}`)
        // an answer, or the bank's refusal (the seed bank's fixtures hold an account without a consent for checks)
        assert.include(["APPR", "DECL", "failed"], r.outcome)
        assert.strictEqual(sent.filter((id) => id === r.request_id).length, 1, `${r.order_id}/${r.nominal_date}`)
      }
      assert.strictEqual(sent.length, of(consent).length, `${consent}: one balance check per payment at its bank`)
    }

    // the COBS consent's budget is shown with its profile
    const status = await tppkit(["worker", "status", "--database-url", url, "--format", "json"], { timeoutMs: 90_000 })
    assert.strictEqual(status.code, 0, status.stderr)
    const budget = (JSON.parse(status.stdout) as { budget: Array<{ consent: string; profile?: string }> }).budget
    assert.deepStrictEqual(
      budget.map((b) => [b.consent, b.profile ?? null]).sort(),
      [
        [sbas.clientId, null],
        ["cz-customer", "cobs"]
      ].sort()
    )
  }, 200_000)
})
