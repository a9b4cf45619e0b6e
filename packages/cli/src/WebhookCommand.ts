/**
 * `tppkit webhook`: the fleet's webhooks (Standard Webhooks) as their operators and receivers see them. `secret`
 * makes a secret, `verify` checks a request a receiver got (its three headers and body) as a receiver's library
 * would, `enable` turns an endpoint that answered 410 Gone back on, and `replay` sends again what endpoints missed.
 * The code behind them is loaded only when one runs.
 *
 * @since 0.1.0
 */
import { Config } from "effect"
import { Argument, Flag } from "effect/cli"
import * as Connection from "./Connection.ts"
import * as CommandSpec from "./internal/commandSpec.ts"
import * as Flags from "./internal/flags.ts"

const webhook = CommandSpec.lazy(() => import("./internal/webhook.ts"))

/** `tppkit webhook secret [--bytes N]`. */
export const webhookSecretCommand = CommandSpec.make({
  name: "secret",
  flags: {
    bytes: Flag.Int("bytes").pipe(
      Flag.withMetavar("N"),
      Flag.withDescription("Random bytes of the key, 24 to 64 (default 32)"),
      Flag.withDefault(32)
    )
  },
  run: webhook("secret"),
  description: "Make a webhook secret, whsec_ and the base64 of random bytes (Standard Webhooks)",
  examples: [
    {
      command: "tppkit webhook secret > webhook-secret.txt",
      description: "A new secret for the workers' TPPKIT_WEBHOOK_SECRET; give the receiver the same"
    }
  ]
})

/**
 * `tppkit webhook verify [--id ID --timestamp T --signature S | --headers FILE] [--body FILE] [--secret S]
 * [--tolerance SECONDS]`.
 */
export const webhookVerifyCommand = CommandSpec.make({
  name: "verify",
  flags: {
    id: Flag.String("id").pipe(Flag.withDescription("The request's webhook-id header"), Flag.optional),
    timestamp: Flags.optionalText("timestamp", "SECONDS", "The request's webhook-timestamp header, Unix seconds"),
    signature: Flags.optionalText(
      "signature",
      "HEADER",
      "The request's webhook-signature header, v1,<base64> (several space-separated)"
    ),
    headers: Flags.optionalText(
      "headers",
      "FILE",
      "The request's headers, one 'name: value' a line (as curl -D writes them) or a JSON object; --id, --timestamp and --signature win over it"
    ),
    body: Flags.file("body", "The request's body exactly as received (default: standard input)").pipe(
      Flag.withDefault("-")
    ),
    secret: Flag.Redacted("secret").pipe(
      Flag.withDescription(
        "The endpoint's secret, whsec_… (several space-separated during a rotation); prefer TPPKIT_WEBHOOK_SECRET, command lines are visible to others"
      ),
      Flag.withFallbackConfig(Config.Redacted("TPPKIT_WEBHOOK_SECRET")),
      Flag.optional
    ),
    tolerance: Flag.Int("tolerance").pipe(
      Flag.withMetavar("SECONDS"),
      Flag.withDescription(
        "How far the request's timestamp may be from now (default 300; a replayed request is older)"
      ),
      Flag.withDefault(300)
    )
  },
  run: webhook("verify"),
  description:
    "Check a webhook request's signature and time (Standard Webhooks) with the endpoint's secret; print its event",
  examples: [
    {
      command: 'tppkit webhook verify --id "$ID" --timestamp "$TS" --signature "$SIG" --body body.json',
      description: "Exit 0 and the event when the request is the fleet's and fresh, exit 7 otherwise"
    },
    {
      command: "tppkit webhook verify --headers headers.txt --body body.json",
      description: "The same with the headers as curl -D wrote them"
    }
  ]
})

/** `tppkit webhook enable URL --database-url URL`. */
export const webhookEnableCommand = CommandSpec.make({
  name: "enable",
  flags: {
    url: Argument.String("url").pipe(Argument.withDescription("The endpoint, as given to tppkit worker --webhook")),
    databaseUrl: Connection.flags.databaseUrl
  },
  run: webhook("enable"),
  description: "Turn a webhook endpoint that answered 410 Gone back on: its new events are delivered again",
  examples: [
    {
      command: "tppkit webhook enable https://hooks.example.com/tppkit --database-url $URL",
      description: "Deliver to it again; tppkit webhook replay sends what it missed meanwhile"
    }
  ]
})

/** `tppkit webhook replay --since D [--type T] [--endpoint URL] --database-url URL`. */
export const webhookReplayCommand = CommandSpec.make({
  name: "replay",
  flags: {
    since: Flags.text(
      "since",
      "D",
      "The events that happened from this day (YYYY-MM-DD, from 00:00 UTC) or time (RFC 3339) on"
    ),
    type: Flags.optionalText(
      "type",
      "TYPE",
      "Only events of this type (check.declined, check.refused, check.unanswered, sweep.failed)"
    ),
    endpoint: Flags.optionalText(
      "endpoint",
      "URL",
      "Only to this endpoint (default: every enabled endpoint of the fleet)"
    ),
    databaseUrl: Connection.flags.databaseUrl
  },
  run: webhook("replay"),
  description:
    "Send again the events endpoints missed: a new attempt under the same webhook-id, by the workers with that --webhook",
  examples: [
    {
      command: "tppkit webhook replay --since 2026-11-02 --type check.declined --database-url $URL",
      description: "Every DECL since 2 November, again, to every enabled endpoint"
    }
  ]
})

/** `tppkit webhook`: the fleet's webhooks, as their operators and receivers see them. */
export const webhookCommand = CommandSpec.group({
  name: "webhook",
  description:
    "The fleet's webhooks (Standard Webhooks): make a secret, verify a request, enable an endpoint, replay events",
  subcommands: [webhookSecretCommand, webhookVerifyCommand, webhookEnableCommand, webhookReplayCommand],
  examples: [
    { command: "tppkit webhook secret", description: "A new secret, whsec_…" },
    {
      command: "tppkit webhook verify --headers headers.txt --body body.json",
      description: "Check a webhook request and print its event"
    }
  ]
})
