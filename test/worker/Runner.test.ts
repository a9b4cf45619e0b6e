/**
 * `Runner`: one worker of the fleet as a layer from its settings. The bank clients the fleet builds send one request
 * per try (`Runner.singleRequest`): the fleet retries a balance check and a listing itself, so that a check's
 * `attempts` counts the requests the bank received. The layer itself runs in every fleet test through `tppkit worker`
 * (test/e2e, test/cli's worker tests).
 */
import { BankConfig } from "@tppkit/http"
import { Runner } from "@tppkit/worker"
import { Redacted, Result } from "effect"
import { describe, expect, it } from "vitest"

describe("Runner.singleRequest", () => {
  it("leaves one attempt per request and every other setting as it was", () => {
    const settings = Result.getOrThrow(
      BankConfig.make({
        environment: "sandbox",
        baseUrl: "http://127.0.0.1:8080",
        clientId: "client",
        clientSecret: Redacted.make("secret"),
        retry: { maxAttempts: 5, baseDelay: "10 millis" }
      })
    )
    const single = Runner.singleRequest(settings)
    expect(single.retry.maxAttempts).toBe(1)
    expect({ ...single, retry: { ...single.retry, maxAttempts: 5 } }).toEqual(settings)
    // the settings given are not changed
    expect(settings.retry.maxAttempts).toBe(5)
  })
})
