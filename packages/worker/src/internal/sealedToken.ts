/**
 * The customer's refresh token at rest (issue 37): sealed with AES-256-GCM from node:crypto under a key derived
 * (HKDF-SHA-256) from the fleet's secret setting, the consent's key bound in as associated data (a sealed token
 * copied to another consent's row does not open). The stored text is `v1:` and the base64url of the 12-byte nonce,
 * the ciphertext and the 16-byte tag; a text without that prefix is a token kept by a version that stored it plain.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto"
import { Redacted, Result } from "effect"

const prefix = "v1:"

/** The fewest characters the secret setting may have. */
export const minSecretLength = 32

/** The AES-256 key of a secret setting; undefined when the secret is too short. */
export const keyOf = (secret: Redacted.Redacted<string>): Uint8Array | undefined => {
  const text = Redacted.value(secret)
  if (text.length < minSecretLength) return undefined
  return new Uint8Array(hkdfSync("sha256", text, "tppkit", "tppkit refresh token v1", 32))
}

/** Whether a stored text is a sealed token (else: a plain one of an earlier version). */
export const isSealed = (stored: string): boolean => stored.startsWith(prefix)

/** The sealed text of a token of `consent`. */
export const seal = (key: Uint8Array, token: string, consent: string): string => {
  const nonce = randomBytes(12)
  const cipher = createCipheriv("aes-256-gcm", key, nonce)
  cipher.setAAD(Buffer.from(consent, "utf8"))
  const body = Buffer.concat([cipher.update(token, "utf8"), cipher.final()])
  return prefix + Buffer.concat([nonce, body, cipher.getAuthTag()]).toString("base64url")
}

/** The token of a sealed text of `consent`; a failure when the key or the consent is not the one it was sealed with. */
export const open = (key: Uint8Array, sealed: string, consent: string): Result.Result<string, void> => {
  const bytes = Buffer.from(sealed.slice(prefix.length), "base64url")
  if (!isSealed(sealed) || bytes.length < 12 + 16) return Result.fail(undefined)
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, bytes.subarray(0, 12))
    decipher.setAAD(Buffer.from(consent, "utf8"))
    decipher.setAuthTag(bytes.subarray(bytes.length - 16))
    const text = Buffer.concat([decipher.update(bytes.subarray(12, bytes.length - 16)), decipher.final()])
    return Result.succeed(text.toString("utf8"))
  } catch {
    return Result.fail(undefined)
  }
}
