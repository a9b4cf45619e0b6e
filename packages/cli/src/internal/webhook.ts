/** The work behind `tppkit webhook verify`, loaded only when it runs. */
import * as Webhook from "@tppkit/worker/Webhook"
import { Effect, Option, type Redacted, Result, Stream } from "effect"
import * as Failure from "../Failure.ts"
import * as Output from "../Output.ts"
import { readText } from "./files.ts"

/** The parsed flags of `tppkit webhook verify`. */
export interface VerifyInput {
  readonly signature: string
  readonly body: string
  readonly secret: Option.Option<Redacted.Redacted<string>>
  readonly tolerance: number
}

/** Runs `tppkit webhook verify`: the event on stdout (one JSON line), or one line on stderr and exit 7. */
export const verify = Effect.fn("tppkit.webhook.verify")(function* (input: VerifyInput) {
  if (Option.isNone(input.secret)) {
    return yield* Failure.configuration("no secret: set TPPKIT_WEBHOOK_SECRET (or give --secret)")
  }
  if (!Number.isInteger(input.tolerance) || input.tolerance < 0) {
    return yield* Failure.usage("--tolerance must be a whole number of seconds, 0 or more")
  }
  const body =
    input.body === "-"
      ? yield* Stream.mkString(Output.stdinText).pipe(Effect.mapError((m) => Failure.failure(m)))
      : yield* readText("the body", input.body, (m) => Failure.failure(m))
  const result = Webhook.verify({
    body,
    signature: input.signature,
    secret: input.secret.value,
    toleranceSeconds: input.tolerance
  })
  if (Result.isFailure(result)) {
    return yield* Failure.make("data", `webhook: ${result.failure.message}`, { origin: result.failure })
  }
  yield* Output.line(JSON.stringify(result.success))
})
