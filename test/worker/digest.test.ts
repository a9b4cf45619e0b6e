/** The fleet's Web Crypto object: its own digest gives the bytes Node's `crypto.subtle` gives. */
import { it } from "@effect/vitest"
import { Effect } from "effect"
import { describe, expect } from "vitest"
import * as Digest from "../../packages/worker/src/internal/digest.ts"

const encoder = new TextEncoder()
const hex = (buffer: ArrayBuffer) => Buffer.from(buffer).toString("hex")

describe("Digest.webCrypto", () => {
  it.effect("digests the same bytes as Node's own crypto.subtle", () =>
    Effect.promise(async () => {
      for (const text of ["", '16:tppkit/FundsCheck:["c","SO-1","2026-11-02"]', "ž".repeat(1000)]) {
        const bytes = encoder.encode(text)
        for (const algorithm of ["SHA-256", "SHA-1", "SHA-512", { name: "SHA-256" }] as const) {
          expect(hex(await Digest.webCrypto.subtle.digest(algorithm, bytes))).toBe(
            hex(await globalThis.crypto.subtle.digest(algorithm, bytes))
          )
        }
        // a view into a larger buffer digests only its own bytes
        const padded = new Uint8Array(bytes.length + 8)
        padded.set(bytes, 4)
        expect(hex(await Digest.webCrypto.subtle.digest("SHA-256", padded.subarray(4, 4 + bytes.length)))).toBe(
          hex(await globalThis.crypto.subtle.digest("SHA-256", bytes))
        )
      }
      expect(Digest.webCrypto.randomUUID()).toMatch(/^[0-9a-f-]{36}$/)
      expect(Digest.webCrypto.getRandomValues(new Uint8Array(8)).length).toBe(8)
    })
  )
})
