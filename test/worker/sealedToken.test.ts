/** The refresh token's sealing at rest (internal/sealedToken.ts): AES-256-GCM bound to its consent. */
import { assert, describe, it } from "@effect/vitest"
import { Redacted, Result } from "effect"
import * as fc from "fast-check"
import * as SealedToken from "../../packages/worker/src/internal/sealedToken.ts"

const key = SealedToken.keyOf(Redacted.make("x".repeat(32))) as Uint8Array

describe("sealedToken", () => {
  it("opens what it sealed, only with its key and its consent; the sealed text holds no token", () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.string(), (token, consent) => {
        const sealed = SealedToken.seal(key, token, consent)
        assert.isTrue(SealedToken.isSealed(sealed))
        assert.deepStrictEqual(SealedToken.open(key, sealed, consent), Result.succeed(token))
        const other = SealedToken.keyOf(Redacted.make("y".repeat(32))) as Uint8Array
        assert.isTrue(Result.isFailure(SealedToken.open(other, sealed, consent)))
        assert.isTrue(Result.isFailure(SealedToken.open(key, sealed, `${consent}!`)))
      }),
      { numRuns: 2_000 }
    )
    const token = "rt-0123456789abcdef"
    const a = SealedToken.seal(key, token, "c")
    assert.notInclude(a, token)
    // a fresh nonce each time: the same token seals to another text
    assert.notStrictEqual(SealedToken.seal(key, token, "c"), a)
    // a text changed by one character does not open
    const flipped = `${a.slice(0, -2)}${a.at(-2) === "A" ? "B" : "A"}${a.at(-1)}`
    assert.isTrue(Result.isFailure(SealedToken.open(key, flipped, "c")))
    assert.isTrue(Result.isFailure(SealedToken.open(key, "v1:", "c")))
    assert.isFalse(SealedToken.isSealed(token))
  })

  it("refuses a secret shorter than 32 characters", () => {
    assert.isUndefined(SealedToken.keyOf(Redacted.make("x".repeat(31))))
    assert.strictEqual(SealedToken.keyOf(Redacted.make("x".repeat(32)))?.length, 32)
  })
})
