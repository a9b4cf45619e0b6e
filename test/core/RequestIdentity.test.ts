import { RequestIdentity } from "@tppkit/core"
import { Schema } from "effect"
import { describe, expect, it } from "vitest"

const decode = Schema.decodeUnknownSync(RequestIdentity.RequestIdentity)

describe("RequestIdentity", () => {
  it("reads each identifier when it is there, none required", () => {
    expect(decode({})).toEqual({})
    expect(decode({ requestId: "r-1", correlationId: "c-1", processId: "p-1", responseId: "s-1" })).toEqual({
      requestId: "r-1",
      correlationId: "c-1",
      processId: "p-1",
      responseId: "s-1"
    })
    expect(decode({ responseId: "s-2" })).toEqual({ responseId: "s-2" })
  })

  it("refuses an identifier that is not text", () => {
    expect(() => decode({ requestId: 42 })).toThrow(/requestId/)
  })
})
