import { Failure } from "@tppkit/cli"
import { ErrorBody } from "@tppkit/core"
import { BankError } from "@tppkit/http"
import { Cause } from "effect"
import { describe, expect, it } from "vitest"

const bankError = (reason: BankError.Reason) =>
  new BankError.BankError({
    operation: "standingOrders",
    identity: { requestId: "req-1", correlationId: "cor-1", responseId: "res-1" },
    reason
  })

const body = ErrorBody.decode(
  403,
  "application/json",
  JSON.stringify({ tppMessages: [{ category: "ERROR", code: "CONSENT_MISSING" }] })
)

describe("Failure.outcome", () => {
  it("uses a CliFailure's message, kind and exit code", () => {
    expect(Failure.outcome(Cause.fail(Failure.usage("--from is bad")))).toEqual({
      kind: "usage",
      message: "--from is bad",
      exitCode: 2,
      helpHint: true
    })
    expect(Failure.outcome(Cause.fail(Failure.failure("no file")))).toEqual({
      kind: "failure",
      message: "no file",
      exitCode: 1,
      helpHint: false
    })
    expect(Failure.outcome(Cause.fail(Failure.badInput("not an orders file")))).toMatchObject({
      exitCode: 2,
      helpHint: false
    })
    expect(Failure.outcome(Cause.fail(Failure.configuration("no bank address"))).exitCode).toBe(3)
  })

  it("gives every class of bank failure its own exit code", () => {
    const code = (reason: BankError.Reason) => Failure.outcome(Cause.fail(bankError(reason))).exitCode
    expect(code(new BankError.InvalidRequest({ path: "page", detail: "negative" }))).toBe(2)
    expect(code(new BankError.Unauthorized({ body }))).toBe(3)
    expect(
      code(
        new BankError.BudgetExhausted({
          consentKey: "k",
          limit: 4,
          used: 4,
          requested: 1,
          freesAt: "2026-01-02T00:00:00Z"
        })
      )
    ).toBe(4)
    expect(code(new BankError.Forbidden({ body }))).toBe(5)
    expect(code(new BankError.BadRequest({ body }))).toBe(5)
    expect(code(new BankError.NotFound({ body }))).toBe(5)
    expect(code(new BankError.UnexpectedStatus({ status: 409, body }))).toBe(5)
    expect(code(new BankError.ServerError({ status: 503, body }))).toBe(6)
    expect(code(new BankError.TooManyRequests({ body }))).toBe(6)
    expect(code(new BankError.TransportFailure({ kind: "connect", detail: "ECONNREFUSED" }))).toBe(6)
    expect(code(new BankError.MalformedResponse({ path: "standingOrders", detail: "not an array" }))).toBe(7)
    expect(
      Failure.outcome(Cause.fail(new BankError.BankConfigError({ setting: "baseUrl", detail: "bad" }))).exitCode
    ).toBe(3)
  })

  it("carries the bank's status, code and request identifiers", () => {
    const outcome = Failure.outcome(Cause.fail(Failure.fromBank(bankError(new BankError.Forbidden({ body })))))
    expect(outcome.details).toEqual({
      operation: "standingOrders",
      status: 403,
      code: "CONSENT_MISSING",
      requestId: "req-1",
      correlationId: "cor-1",
      responseId: "res-1"
    })
    const json = JSON.parse(Failure.json(outcome))
    expect(json.error).toMatchObject({
      kind: "refused",
      exitCode: 5,
      status: 403,
      requestId: "req-1",
      correlationId: "cor-1"
    })
    expect(json.error.message).toMatch(/^standing-order list: 403 forbidden \(CONSENT_MISSING\)/)
  })

  it("keeps only the first line of any other error's message", () => {
    expect(Failure.outcome(Cause.die(new Error("boom\n    at somewhere")))).toMatchObject({
      message: "boom",
      exitCode: 1
    })
    expect(Failure.outcome(Cause.fail({ _tag: "Odd" }))).toMatchObject({ message: "Odd", exitCode: 1 })
  })
})

describe("Failure.chain", () => {
  it("lists the typed errors from the CLI's failure down to the bank's reason", () => {
    const failure = Failure.fromBank(
      bankError(new BankError.TransportFailure({ kind: "timeout", detail: "10 s" })),
      "no answer"
    )
    const lines = Failure.chain(Cause.fail(failure))
    expect(lines).toHaveLength(3)
    expect(lines[0]).toMatch(/^CliFailure \{kind="unavailable".*\}: no answer$/)
    expect(lines[1]).toMatch(/^← BankError \{operation="standingOrders", requestId="req-1"/)
    expect(lines[2]).toBe('← TransportFailure {kind="timeout", detail="10 s"}')
    for (const line of lines) expect(line).not.toMatch(/\n\s+at /)
  })
})
