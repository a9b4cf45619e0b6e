/**
 * The banks of a fleet's other profiles (issue 37): the consents' `KEY[=IBAN][@PROFILE]`, and the environment a
 * profile's bank is read from (its `TPPKIT_<NAME>_*` variables as the unprefixed ones, the shared tuning kept, the
 * worker's own connection never lent to another bank).
 */
import { Profile } from "@tppkit/core"
import { Effect, Exit, Result } from "effect"
import { describe, expect, it } from "vitest"
import * as Banks from "../../packages/cli/src/internal/banks.ts"
import { parseConsents } from "../../packages/cli/src/internal/worker.ts"

describe("--consents KEY[=IBAN][@PROFILE]", () => {
  it("reads each consent's key, IBAN and profile", () => {
    expect(parseConsents("a, b=SK31 1200 0000 1987 4263 7541@cobs ,c@sbas,d=SK3112000000198742637541")).toEqual(
      Result.succeed([
        { key: "a" },
        { key: "b", iban: "SK3112000000198742637541", profile: "cobs" },
        { key: "c", profile: "sbas" },
        { key: "d", iban: "SK3112000000198742637541" }
      ])
    )
  })

  it("refuses a profile that is no profile name, and an empty key", () => {
    expect(parseConsents("a@COBS")).toEqual(
      Result.fail('--consents: "COBS" in "a@COBS" is no profile name (sbas, cobs, or a profile file\'s name)')
    )
    expect(Result.isFailure(parseConsents("@cobs"))).toBe(true)
  })
})

describe("the bank of another profile", () => {
  const env = {
    TPPKIT_BASE_URL: "https://sbas.example",
    TPPKIT_CLIENT_ID: "own",
    TPPKIT_CLIENT_SECRET: "own-secret",
    TPPKIT_API_KEY: "own-key",
    TPPKIT_REQUEST_TIMEOUT: "7 seconds",
    TPPKIT_TPP_NAME: "My Budget App s.r.o.",
    TPPKIT_COBS_BASE_URL: "https://cobs.example",
    TPPKIT_COBS_CLIENT_ID: "cz",
    TPPKIT_COBS_CLIENT_SECRET: "cz-secret",
    TPPKIT_COBS_API_KEY: "cz-key",
    TPPKIT_MY_BANK_BASE_URL: "https://my.example"
  }

  it("is read from its prefixed variables, with the shared tuning and never the worker's own connection", () => {
    expect(Banks.prefixOf("my-bank")).toBe("TPPKIT_MY_BANK_")
    expect(Banks.environmentOf("cobs", env)).toEqual({
      TPPKIT_REQUEST_TIMEOUT: "7 seconds",
      TPPKIT_TPP_NAME: "My Budget App s.r.o.",
      TPPKIT_MY_BANK_BASE_URL: "https://my.example",
      TPPKIT_BASE_URL: "https://cobs.example",
      TPPKIT_CLIENT_ID: "cz",
      TPPKIT_CLIENT_SECRET: "cz-secret",
      TPPKIT_API_KEY: "cz-key"
    })
    expect(Banks.environmentOf("sbas", env).TPPKIT_BASE_URL).toBeUndefined()
  })

  it("has the profile's settings; a profile without a bank, or none known, is one line", async () => {
    const settings = await Effect.runPromise(Banks.settingsOf("cobs", ["cz-1"], Profile.sbas, env))
    expect(settings.profile.name).toBe("cobs")
    expect(settings.baseUrl).toBe("https://cobs.example")
    expect(settings.clientId).toBe("cz")
    const none = await Effect.runPromiseExit(Banks.settingsOf("cobs", ["cz-1"], Profile.sbas, {}))
    expect(Exit.isFailure(none) && JSON.stringify(none.cause)).toContain("TPPKIT_COBS_BASE_URL")
    const unknown = await Effect.runPromiseExit(Banks.settingsOf("mybank", ["x", "y"], Profile.sbas, env))
    expect(Exit.isFailure(unknown) && JSON.stringify(unknown.cause)).toContain(
      "consent x, y names the bank profile mybank, which is neither a built-in profile (sbas, cobs) nor this worker's --profile"
    )
  })
})
