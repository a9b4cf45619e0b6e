import { Failure } from "@tppkit/cli"
import { Cause } from "effect"
import { describe, expect, it } from "vitest"

describe("Failure.outcome", () => {
  it("uses a CliFailure's message and exit code", () => {
    expect(Failure.outcome(Cause.fail(Failure.usage("--from is bad")))).toEqual({
      message: "--from is bad",
      exitCode: 2
    })
    expect(Failure.outcome(Cause.fail(Failure.failure("no file")))).toEqual({ message: "no file", exitCode: 1 })
  })

  it("treats a bank call refused before sending as an invalid invocation", () => {
    const error = { _tag: "BankError", reason: { _tag: "InvalidRequest" }, message: "standingOrders: invalid request" }
    expect(Failure.outcome(Cause.fail(error))).toEqual({ message: "standingOrders: invalid request", exitCode: 2 })
  })

  it("keeps only the first line of any other error's message", () => {
    expect(Failure.outcome(Cause.die(new Error("boom\n    at somewhere")))).toEqual({ message: "boom", exitCode: 1 })
    expect(Failure.outcome(Cause.fail({ _tag: "Odd" }))).toEqual({ message: "Odd", exitCode: 1 })
  })
})
