/**
 * `tppkit consents add|remove|list` on the fleet's database (issue 43): rows with their IBAN, profile and validity,
 * the JSON list, a key it does not have (exit 7) and a date that is none (exit 2).
 */
import { assert, describe, it } from "@effect/vitest"
import { Effect, Redacted } from "effect"
import { embeddedDb } from "../worker/pg.ts"
import { tppkit } from "./harness.ts"

const db = embeddedDb()

describe("tppkit consents", () => {
  it("adds, lists and removes the fleet's consents", async () => {
    const url = Redacted.value(await Effect.runPromise(db.freshUrl()))
    const env = { env: { TPPKIT_DATABASE_URL: url } }
    const added = await tppkit(
      [
        "consents",
        "add",
        "fleet-004",
        "--iban",
        "SK98 1100 0000 0000 0000 0004",
        "--profile",
        "sbas",
        "--valid-until",
        "2027-01-31"
      ],
      env
    )
    assert.strictEqual(added.code, 0, added.stderr)
    assert.strictEqual(added.stdout, "added consent fleet-004; the fleet sweeps it from its next sweep run\n")
    assert.strictEqual((await tppkit(["consents", "add", "fleet-005"], env)).code, 0)
    const json = await tppkit(["consents", "list", "--format", "json"], env)
    assert.deepStrictEqual(JSON.parse(json.stdout), [
      { key: "fleet-004", iban: "SK9811000000000000000004", profile: "sbas", validUntil: "2027-01-31" },
      { key: "fleet-005", iban: null, profile: null, validUntil: null }
    ])
    const table = await tppkit(["consents", "list"], env)
    assert.strictEqual(
      table.stdout,
      [
        "KEY        IBAN                      PROFILE  VALID UNTIL",
        "fleet-004  SK9811000000000000000004  sbas     2027-01-31",
        "fleet-005  -                         -        -",
        ""
      ].join("\n")
    )
    assert.strictEqual((await tppkit(["consents", "remove", "fleet-005"], env)).code, 0)
    const missing = await tppkit(["consents", "remove", "fleet-005"], env)
    assert.strictEqual(missing.code, 7, missing.stderr)
    assert.strictEqual(missing.stderr, "tppkit: the fleet has no consent fleet-005\n")
    const bad = await tppkit(["consents", "add", "x", "--valid-until", "2027-02-30"], env)
    assert.strictEqual(bad.code, 2, bad.stderr)
  }, 90_000)
})
