import { Journal } from "@tppkit/sandbox"
import fc from "fast-check"
import { describe, expect, it } from "vitest"

const raw = (over: Partial<Journal.Raw> = {}): Journal.Raw => ({
  at: Date.UTC(2026, 10, 23, 10),
  method: "POST",
  path: "/x",
  headers: {},
  body: "",
  status: 200,
  outcome: "ok",
  ...over
})

describe("Journal masking", () => {
  it("masks Authorization with and without a scheme, and every header named secret, token, password or assertion", () => {
    const h = Journal.maskHeaders({
      authorization: "Bearer abc.def",
      "proxy-authorization": "bare-token-value",
      "x-api-token": "t",
      "x-client-secret": "s",
      "x-password": "p",
      "client-assertion": "a",
      "x-sandbox-admin": "adm",
      cookie: "sid=1",
      "request-id": "r-1"
    })
    expect(h.authorization).toBe("Bearer ***")
    expect(h["proxy-authorization"]).toBe("***")
    expect(Journal.maskHeaders({ authorization: "the-bare-token" }).authorization).toBe("***")
    for (const k of ["x-api-token", "x-client-secret", "x-password", "client-assertion", "x-sandbox-admin", "cookie"]) {
      expect(h[k]).toBe("***")
    }
    expect(h["request-id"]).toBe("r-1")
  })

  it("masks form fields by their decoded names, JSON members at any depth, cut JSON and query strings", () => {
    const form = Journal.maskBody("grant_type=client_credentials&client%5Fsecret=s3cr3t&scope=PIISP")
    expect(form).not.toContain("s3cr3t")
    expect(form).toContain("grant_type=client_credentials")
    expect(Journal.maskBody("client_secret=a&client_secret=b")).toBe("client_secret=***&client_secret=***")
    const json = Journal.maskBody('{"a":{"refresh_token":"rt","list":[{"password":"pw"}]},"iban":"SK1"}')
    expect(json).not.toMatch(/rt"|pw/)
    expect(JSON.parse(json).iban).toBe("SK1")
    const cut = Journal.maskBody('{"x":1,"client_secret":"abcdef","access_token":"zzq9')
    expect(cut).not.toContain("abcdef")
    expect(cut).not.toContain("zzq9")
    expect(Journal.maskPath("/connect/token?client_secret=s3cr3t&x=1")).toBe("/connect/token?client_secret=***&x=1")
    expect(Journal.maskPath("/a?client%5Fsecret=s3cr3t")).not.toContain("s3cr3t")
  })

  it("never shows a secret value, whatever the field name's case or encoding (property)", () => {
    const secretName = fc.constantFrom("client_secret", "CLIENT_SECRET", "access_token", "Password", "client_assertion")
    const secret = fc.stringMatching(/^[A-Za-z0-9]{12,20}$/)
    fc.assert(
      fc.property(secretName, secret, fc.boolean(), (name, value, encodeName) => {
        const key = encodeName ? encodeURIComponent(name).replace("_", "%5F") : name
        const journal = Journal.make()
        journal.appendUnsafe(raw({ path: `/p?${key}=${value}`, body: `${key}=${value}&a=1` }))
        journal.appendUnsafe(raw({ body: JSON.stringify({ nested: { [name]: value } }) }))
        journal.appendUnsafe(raw({ headers: { authorization: value, [`x-${name.toLowerCase()}`]: value } }))
        expect(JSON.stringify(journal.entriesUnsafe())).not.toContain(value)
      })
    )
  })
})

describe("Journal bounds", () => {
  it("keeps the latest N entries, cuts long bodies and marks them, and reads after `since` at most `limit`", () => {
    const journal = Journal.make({ capacity: 5, maxBodyBytes: 10 })
    for (let i = 0; i < 12; i++)
      journal.appendUnsafe(raw({ path: `/r${i}`, body: i === 11 ? "é".repeat(20) : "short" }))
    const all = journal.entriesUnsafe()
    expect(all.map((e) => e.seq)).toEqual([8, 9, 10, 11, 12])
    const last = all[4]
    expect(last?.bodyTruncated).toBe(true)
    expect(last?.body).toBe("é".repeat(5))
    expect(all[0]?.bodyTruncated).toBe(false)
    expect([...journal.readUnsafe({ since: 9, limit: 2 })].map((e) => e.seq)).toEqual([10, 11])
    expect([...journal.readUnsafe({ since: 100 })]).toEqual([])
  })

  it("drops the oldest entries to stay within the total bytes", () => {
    const journal = Journal.make({ capacity: 1000, maxBodyBytes: 4096, maxTotalBytes: 50_000 })
    for (let i = 0; i < 200; i++) journal.appendUnsafe(raw({ body: "x".repeat(4000) }))
    const kept = journal.entriesUnsafe()
    expect(kept.length).toBeLessThan(13)
    expect(kept.length).toBeGreaterThan(5)
    expect(kept.at(-1)?.seq).toBe(200)
  })
})
