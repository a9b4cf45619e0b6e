import { describe, expect, it } from "vitest"
import { classify } from "../../packages/http/src/internal/transportFailure.ts"

const where = "https://bank.example"
const failure = (code: string, cause?: unknown) => classify({ code, cause }, "request failed", where)

describe("transportFailure.classify: which side refused a TLS connection, and why", () => {
  it("the bank's certificate: untrusted, expired, not yet valid, for another host", () => {
    for (const [code, text] of [
      ["SELF_SIGNED_CERT_IN_CHAIN", "is not trusted"],
      ["UNABLE_TO_VERIFY_LEAF_SIGNATURE", "is not trusted (its issuer is unknown"],
      ["CERT_HAS_EXPIRED", "has expired"],
      ["CERT_NOT_YET_VALID", "is not valid yet"],
      ["ERR_TLS_CERT_ALTNAME_INVALID", "is for another host"]
    ] as const) {
      const f = failure(code)
      expect(f.kind).toBe("tls")
      expect(f.detail.startsWith(`the certificate of ${where} `)).toBe(true)
      expect(f.detail).toContain(text)
      expect(f.detail).toContain(`(${code})`)
    }
  })

  it("our client certificate: missing, refused, expired (the bank's alert)", () => {
    expect(failure("ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED").detail).toMatch(
      /^the bank requires a client certificate and none was sent/
    )
    expect(failure("ERR_SSL_SSLV3_ALERT_BAD_CERTIFICATE").detail).toMatch(/^the bank refused our client certificate/)
    expect(failure("ERR_SSL_TLSV1_ALERT_UNKNOWN_CA").detail).toMatch(/^the bank refused our client certificate/)
    expect(failure("ERR_SSL_SSLV3_ALERT_CERTIFICATE_EXPIRED").detail).toMatch(/as expired/)
    for (const code of ["ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED", "ERR_SSL_WRONG_VERSION_NUMBER"]) {
      expect(failure(code).kind).toBe("tls")
    }
  })

  it("a code in the cause chain counts; socket failures keep their kinds and name the server", () => {
    expect(failure("UND_ERR_SOCKET", { code: "CERT_HAS_EXPIRED" }).kind).toBe("tls")
    expect(failure("ECONNREFUSED")).toMatchObject({
      kind: "connect",
      detail: `cannot connect to ${where} (ECONNREFUSED)`
    })
    expect(failure("ECONNRESET").kind).toBe("reset")
    expect(failure("ETIMEDOUT").kind).toBe("timeout")
    expect(classify(new Error("boom"), "request failed", where)).toMatchObject({ kind: "other" })
  })
})
