/**
 * `tppkit webhook verify`: checks a webhook request a fleet sent (its body and `tppkit-signature` header) with the
 * endpoint's secret, as a receiver would, and prints the event; a receiver's script or a person debugging one uses
 * it. The verification code is loaded only when the command runs.
 *
 * @since 0.1.0
 */
import { Config, Effect } from "effect"
import { Command, Flag } from "effect/cli"
import * as Flags from "./internal/flags.ts"

/** `tppkit webhook verify --signature HEADER [--body FILE] [--secret S] [--tolerance SECONDS]`. */
export const webhookVerifyCommand = Command.make(
  "verify",
  {
    signature: Flag.String("signature").pipe(
      Flag.withMetavar("HEADER"),
      Flag.withDescription("The request's tppkit-signature header, t=<unix seconds>,v1=<hex>")
    ),
    body: Flags.file("body", "The request's body exactly as received (default: standard input)").pipe(
      Flag.withDefault("-")
    ),
    secret: Flag.Redacted("secret").pipe(
      Flag.withDescription("The endpoint's secret; prefer TPPKIT_WEBHOOK_SECRET, command lines are visible to others"),
      Flag.withFallbackConfig(Config.Redacted("TPPKIT_WEBHOOK_SECRET")),
      Flag.optional
    ),
    tolerance: Flag.Int("tolerance").pipe(
      Flag.withMetavar("SECONDS"),
      Flag.withDescription("How far the signature's time may be from now (default 300; a replayed request is older)"),
      Flag.withDefault(300)
    )
  },
  (input) =>
    Effect.flatMap(
      Effect.promise(() => import("./internal/webhook.ts")),
      (impl) => impl.verify(input)
    )
).pipe(
  Command.withDescription("Check a webhook request's signature and time with the endpoint's secret; print its event"),
  Command.withExamples([
    {
      command: 'tppkit webhook verify --signature "$SIG" --body body.json',
      description: "Exit 0 and the event when the request is ours and fresh, exit 7 otherwise"
    }
  ])
)

/** `tppkit webhook`: the fleet's webhooks, as their receivers see them. */
export const webhookCommand = Command.make("webhook").pipe(
  Command.withDescription("The fleet's webhooks: verify a request a receiver got"),
  Command.withSubcommands([webhookVerifyCommand]),
  Command.withExamples([
    {
      command: 'tppkit webhook verify --signature "$SIG" --body body.json',
      description: "Check a webhook request and print its event"
    }
  ])
)
