/**
 * The bank client on Node for a command-line target, and the SCA token given on the command line; loaded only by
 * the commands that talk to a bank (it pulls in the HTTP stack).
 */
import { BankClient, TokenService } from "@tppkit/http"
import { Option, type Redacted } from "effect"
import type { Target } from "../Connection.ts"

/** The bank client (with `BankConfig`, `TokenService` and `Budget`) on Node for a target. */
export const clientLayer = (target: Target) =>
  BankClient.layerNodeFromOptions(
    {
      environment: target.environment,
      baseUrl: target.baseUrl,
      clientId: target.clientId,
      clientSecret: target.clientSecret
    },
    target.budgetFile === undefined ? undefined : { budgetFile: target.budgetFile }
  )

/** The SCA token of the environment, when one was given. */
export const scaToken = (
  environment: "sandbox" | "live",
  token: Option.Option<Redacted.Redacted<string>>
): TokenService.Token | undefined => (Option.isSome(token) ? TokenService.fromSca(environment, token.value) : undefined)
