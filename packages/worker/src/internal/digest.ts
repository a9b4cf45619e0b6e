/**
 * The Web Crypto object the fleet's workflow engine hashes with: Node's own, its `subtle.digest` answered by
 * `node:crypto`'s `createHash` (the same bytes).
 */
import { createHash, type webcrypto as NodeWebCrypto } from "node:crypto"
import type { WebCrypto } from "effect/crypto"

const nodeHashNames: Readonly<Record<string, string>> = {
  "SHA-1": "sha1",
  "SHA-256": "sha256",
  "SHA-384": "sha384",
  "SHA-512": "sha512"
}

/**
 * The Web Crypto object the workflow engine hashes execution ids with, its `subtle.digest` computed on the spot by
 * `node:crypto` (the same bytes) instead of in Node's thread pool
 * (BENCHMARKS.md, "Execution ids hashed on `node:crypto`").
 */
export const webCrypto: Parameters<typeof WebCrypto.layer>[0] = (() => {
  const base: NodeWebCrypto.Crypto = globalThis.crypto
  const subtle = new Proxy(base.subtle, {
    get: (target, property) => {
      if (property === "digest") {
        return (
          algorithm: NodeWebCrypto.AlgorithmIdentifier,
          data: NodeWebCrypto.BufferSource
        ): Promise<ArrayBuffer> => {
          const name = typeof algorithm === "string" ? algorithm : algorithm.name
          const node = nodeHashNames[name.toUpperCase()]
          if (node === undefined) return target.digest(algorithm, data)
          const bytes = ArrayBuffer.isView(data)
            ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength)
            : new Uint8Array(data)
          const digest = createHash(node).update(bytes).digest()
          return Promise.resolve(digest.buffer.slice(digest.byteOffset, digest.byteOffset + digest.byteLength))
        }
      }
      const value = Reflect.get(target, property, target)
      return typeof value === "function" ? value.bind(target) : value
    }
  })
  return {
    subtle,
    getRandomValues: <T extends ArrayBufferView | null>(array: T) => base.getRandomValues(array as never) as T,
    randomUUID: () => base.randomUUID()
  } as unknown as Parameters<typeof WebCrypto.layer>[0]
})()
