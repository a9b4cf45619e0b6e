/**
 * Bank commands with `--profile cobs` (and TPPKIT_PROFILE) against the mock bank playing COBS, as processes: the
 * listing with the customer's token (each record's reading: projected, or details pending), the balance check with
 * the API key and an id COBS can hold; a worker refuses a consent of a profile whose bank it was not given.
 */
import { Profile } from "@tppkit/core"
import { Redacted } from "effect"
import { beforeAll, describe, expect, it } from "vitest"
import { tppkit } from "../e2e/harness.ts"
import { customerTokens } from "../sandbox/support.ts"
import { mockBank } from "./mockBank.ts"

const cobsBank = mockBank({ profile: Profile.cobs })
let accessToken = ""
beforeAll(async () => {
  accessToken = (await customerTokens(cobsBank())).access_token
})

/** The environment that points a command at the COBS mock bank. */
const env = () => {
  const bank = cobsBank()
  return {
    TPPKIT_BASE_URL: bank.baseUrl,
    TPPKIT_API_KEY: Redacted.value(bank.apiKey),
    TPPKIT_TPP_NAME: "My Budget App s.r.o.",
    TPPKIT_CLIENT_ID: bank.clientId,
    TPPKIT_CLIENT_SECRET: Redacted.value(bank.clientSecret)
  }
}

describe("bank commands with a profile", { timeout: 120_000 }, () => {
  it("standing-orders --profile cobs lists the records with core's reading of each", async () => {
    const r = await tppkit(
      ["standing-orders", "--profile", "cobs", "--psu-last-logged-time", "now", "--page-size", "20"],
      { env: { ...env(), TPPKIT_ACCESS_TOKEN: accessToken } }
    )
    expect(r.stderr).toBe("")
    expect(r.code).toBe(0)
    const lines = r.stdout.trim().split("\n")
    expect(lines[0]).toBe("20 standing order(s) (cobs), 1 page(s)")
    expect(lines.some((l) => / projected$/.test(l))).toBe(true)
    expect(lines.some((l) => /details pending: requestedExecutionDate is missing/.test(l))).toBe(true)
    expect(lines.at(-1)).toMatch(/^Action-ID [0-9a-f-]{36}$/)
  })

  it("balance-check with TPPKIT_PROFILE=cobs: the API key, no token, an id of at most 18 characters", async () => {
    const r = await tppkit(
      ["balance-check", "--iban", "SK2411000000002612345678", "--amount", "10.00", "--currency", "EUR"],
      { env: { ...env(), TPPKIT_PROFILE: "cobs" } }
    )
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/^Answer {7}APPR \(sufficient funds\)$/m)
  })

  it("a worker refuses, before joining, a consent of a profile whose bank it was not given", async () => {
    const r = await tppkit(
      ["worker", "--consents", "x,cz-1@cobs", "--database-url", "postgres://tppkit@127.0.0.1:9/none"],
      // the worker loads the fleet's modules before it reads its settings: slow on a loaded machine
      { env: env(), timeoutMs: 90_000 }
    )
    expect(r.code).toBe(3)
    expect(r.stderr).toBe(
      "tppkit: consent cz-1 names the bank profile cobs, which this worker has no bank for: start the fleet's workers with TPPKIT_COBS_BASE_URL, TPPKIT_COBS_CLIENT_ID and TPPKIT_COBS_CLIENT_SECRET (and what the profile needs besides)\n"
    )
  })

  it("budget under TPPKIT_PROFILE=cobs: the profile's day (Europe/Prague) and limit, the profile named", async () => {
    const r = await tppkit(["budget", "--format", "json"], { env: { TPPKIT_PROFILE: "cobs" } })
    expect(r.code).toBe(0)
    const json = JSON.parse(r.stdout) as { profile?: string; timeZone: string; limit: number }
    expect(json).toMatchObject({ profile: "cobs", timeZone: "Europe/Prague", limit: 4 })
    const sbas = JSON.parse((await tppkit(["budget", "--format", "json"])).stdout) as { profile?: string }
    expect(sbas.profile).toBeUndefined()
  })
})
