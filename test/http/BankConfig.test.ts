import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { assert, describe, it } from "@effect/vitest"
import { BankConfig } from "@tppkit/http"
import { ConfigProvider, Duration, Effect, Exit, Redacted, Result } from "effect"

const fromEnv = (env: Record<string, string>) =>
  Effect.service(BankConfig.BankConfig).pipe(
    Effect.provide(BankConfig.BankConfig.layerConfig),
    Effect.provide(ConfigProvider.layer(ConfigProvider.fromEnvRecord(env)))
  )

describe("BankConfig.layerConfig", () => {
  it.effect("reads TPPKIT_* variables, secret redacted, live paths", () =>
    Effect.gen(function* () {
      const settings = yield* fromEnv({
        TPPKIT_ENVIRONMENT: "live",
        TPPKIT_BASE_URL: "https://bank.example/",
        TPPKIT_CLIENT_ID: "tpp",
        TPPKIT_CLIENT_SECRET: "env-secret",
        TPPKIT_REQUEST_TIMEOUT: "5 seconds",
        TPPKIT_MAX_BODY_BYTES: "65536",
        TPPKIT_SCOPE_STANDING_ORDERS: "AISP PISP"
      })
      assert.strictEqual(settings.baseUrl, "https://bank.example")
      assert.strictEqual(settings.paths.token, "/identity-server/connect/token")
      assert.strictEqual(settings.paths.balanceCheck, "/piisp/api/v1/accounts/balanceCheck")
      assert.strictEqual(settings.paths.standingOrders, "/aisp/api/v1/accounts/standingOrder")
      assert.strictEqual(Redacted.value(settings.clientSecret), "env-secret")
      assert.notInclude(String(settings.clientSecret), "env-secret")
      assert.strictEqual(Duration.toMillis(settings.requestTimeout), 5000)
      assert.deepStrictEqual(settings.scopes.standingOrders, ["AISP", "PISP"])
      assert.strictEqual(settings.budget.timeZone, "Europe/Bratislava")
      assert.deepStrictEqual(settings.limits, { maxBodyBytes: 65536, maxHeaderBytes: 32768, maxJsonDepth: 32 })
    })
  )

  it.effect("sandbox paths by default; live over http:// refused without echoing the secret", () =>
    Effect.gen(function* () {
      const sandbox = yield* fromEnv({
        TPPKIT_BASE_URL: "http://127.0.0.1:8080",
        TPPKIT_CLIENT_ID: "tpp",
        TPPKIT_CLIENT_SECRET: "s"
      })
      assert.strictEqual(sandbox.paths.token, "/identity-server-test/connect/token")
      const exit = yield* Effect.exit(
        fromEnv({
          TPPKIT_ENVIRONMENT: "live",
          TPPKIT_BASE_URL: "http://bank.example",
          TPPKIT_CLIENT_ID: "tpp",
          TPPKIT_CLIENT_SECRET: "top-secret-value"
        })
      )
      assert.isTrue(Exit.isFailure(exit))
      assert.include(String(exit), "https")
      assert.notInclude(String(exit), "top-secret-value")
    })
  )
})

describe("BankConfig limits", () => {
  const base = {
    environment: "sandbox",
    baseUrl: "http://127.0.0.1:9",
    clientId: "tpp",
    clientSecret: Redacted.make("s")
  } as const
  it("defaults to 4 MiB of body, 32 KiB of headers, JSON 32 levels deep; refuses absurd limits", () => {
    const settings = BankConfig.make(base)
    assert.isTrue(settings._tag === "Success")
    if (settings._tag === "Success") {
      assert.deepStrictEqual(settings.success.limits, {
        maxBodyBytes: 4 << 20,
        maxHeaderBytes: 32768,
        maxJsonDepth: 32
      })
    }
    for (const limits of [
      { maxBodyBytes: 0 },
      { maxBodyBytes: 1.5e9 },
      { maxHeaderBytes: -1 },
      { maxJsonDepth: 0.5 }
    ]) {
      const refused = BankConfig.make({ ...base, limits })
      assert.isTrue(refused._tag === "Failure", JSON.stringify(limits))
      if (refused._tag === "Failure") assert.match(refused.failure.setting, /^limits\./)
    }
  })
})

describe("BankConfig.readProfile", () => {
  it("gives a built-in profile by name, or says why there is none", () => {
    const dir = mkdtempSync(join(tmpdir(), "tppkit-profile-"))
    const wrong = join(dir, "bank.json")
    writeFileSync(wrong, JSON.stringify({ name: "mybank" }))
    const builtIn = BankConfig.readProfile("cobs")
    assert.isTrue(Result.isSuccess(builtIn) && builtIn.success.name === "cobs")
    assert.deepStrictEqual(BankConfig.readProfile(join(dir, "missing.json")), Result.fail({ _tag: "Unreadable" }))
    const invalid = BankConfig.readProfile(wrong)
    assert.isTrue(
      Result.isFailure(invalid) && invalid.failure._tag === "Invalid" && invalid.failure.problems.length > 0
    )
    // loadProfile words the same two cases as a BankConfigError of the setting "profile"
    const missing = BankConfig.loadProfile(join(dir, "missing.json"))
    assert.isTrue(
      Result.isFailure(missing) &&
        missing.failure.detail.endsWith("is neither a built-in profile (sbas, cobs) nor a readable file")
    )
    rmSync(dir, { recursive: true, force: true })
  })
})
