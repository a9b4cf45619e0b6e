/**
 * The banks of a fleet's other profiles (issue 37): the consents' `KEY[=IBAN][@PROFILE]`, and the environment a
 * profile's bank is read from (its `TPPKIT_<NAME>_*` variables as the unprefixed ones, the shared tuning kept, the
 * worker's own connection never lent to another bank).
 */

import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Profile } from "@tppkit/core"
import { Effect, Exit, Result } from "effect"
import { describe, expect, it } from "vitest"
import * as Banks from "../../packages/cli/src/internal/banks.ts"
import { parseConsents } from "../../packages/cli/src/internal/workerSettings.ts"

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
      "consent x, y names the bank profile mybank, which is neither a built-in profile (sbas, cobs), this worker's --profile, nor a profile file given with TPPKIT_MYBANK_PROFILE"
    )
  })

  it("may be any profile the worker is given as a file (TPPKIT_<NAME>_PROFILE), named as the file names it", async () => {
    const dir = mkdtempSync(join(tmpdir(), "tppkit-profile-"))
    try {
      const file = join(dir, "mybank.json")
      const paths = (op: Profile.OperationSpec): Profile.OperationSpec => ({
        ...op,
        paths: { live: `/api/v2${op.paths.live}`, sandbox: `/api/v2${op.paths.sandbox}` }
      })
      const ops = Profile.cobs.operations
      writeFileSync(
        file,
        JSON.stringify({
          ...Profile.cobs,
          name: "my-bank",
          operations: {
            token: paths(ops.token),
            balanceCheck: paths(ops.balanceCheck),
            standingOrders: paths(ops.standingOrders),
            standingOrder: paths(ops.standingOrder as Profile.OperationSpec)
          }
        })
      )
      const given = {
        ...env,
        TPPKIT_MY_BANK_PROFILE: file,
        TPPKIT_MY_BANK_CLIENT_ID: "my",
        TPPKIT_MY_BANK_CLIENT_SECRET: "my-secret",
        TPPKIT_MY_BANK_API_KEY: "my-key"
      }
      const settings = await Effect.runPromise(Banks.settingsOf("my-bank", ["cz-9"], Profile.sbas, given))
      expect(settings.profile.name).toBe("my-bank")
      expect(settings.baseUrl).toBe("https://my.example")
      expect(Profile.path(settings.profile, "standingOrders", "live")).toBe("/api/v2/my/standingorders")
      // the file must be the profile the consent names; a file that is no profile names its wrong fields
      const other = await Effect.runPromiseExit(
        Banks.settingsOf("other", ["x"], Profile.sbas, { ...given, TPPKIT_OTHER_PROFILE: file })
      )
      expect(Exit.isFailure(other) && JSON.stringify(other.cause)).toContain(
        `TPPKIT_OTHER_PROFILE: ${file} is the profile my-bank, not other (consent x names other)`
      )
      writeFileSync(join(dir, "bad.json"), JSON.stringify({ ...Profile.cobs, name: "bad", paging: { size: 1 } }))
      const bad = await Effect.runPromiseExit(
        Banks.settingsOf("bad", ["x"], Profile.sbas, { ...given, TPPKIT_BAD_PROFILE: join(dir, "bad.json") })
      )
      expect(Exit.isFailure(bad) && JSON.stringify(bad.cause)).toContain("TPPKIT_BAD_PROFILE")
      expect(Exit.isFailure(bad) && JSON.stringify(bad.cause)).toContain("paging")
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
