/**
 * `tppkit consents`: the fleet's consents as data in its database (`add`, `remove`, `list`). The workers read them
 * at the start of each sweep run, so a change reaches the next sweep without a restart. The database code is loaded
 * only when a subcommand runs.
 *
 * @since 0.1.0
 */
import { Config } from "effect"
import { Argument, Flag } from "effect/cli"
import * as Connection from "./Connection.ts"
import * as CommandSpec from "./internal/commandSpec.ts"
import * as Flags from "./internal/flags.ts"

const consents = CommandSpec.lazy(() => import("./internal/consents.ts"))

/** `tppkit consents add KEY [--iban IBAN] [--profile P] [--valid-until YYYY-MM-DD]` (and `TPPKIT_REFRESH_TOKEN`). */
export const consentsAddCommand = CommandSpec.make({
  name: "add",
  flags: {
    databaseUrl: Connection.flags.databaseUrl,
    key: Argument.String("key").pipe(Argument.withDescription("The consent's key (its daily budget's key)")),
    iban: Flag.String("iban").pipe(Flag.withDescription("List only this account's standing orders"), Flag.optional),
    profile: Flag.String("profile").pipe(
      Flag.withDescription(
        "The consent's bank profile (sbas, cobs): the fleet lists it and checks its payments at that profile's bank"
      ),
      Flag.optional
    ),
    validUntil: Flags.optionalText(
      "valid-until",
      "YYYY-MM-DD",
      "The last day the consent is valid (default: today plus its profile's validity days); not swept after it"
    ),
    refreshToken: Flag.Redacted("refresh-token").pipe(
      Flag.withDescription(
        "The customer's refresh token, for a profile that lists with the customer's token (cobs); prefer TPPKIT_REFRESH_TOKEN, command lines are visible to others"
      ),
      Flag.withFallbackConfig(Config.Redacted("TPPKIT_REFRESH_TOKEN")),
      Flag.optional
    )
  },
  run: consents("add"),
  description: "Add a consent to the fleet, or change the one of that key",
  examples: [
    { command: "tppkit consents add fleet-004 --iban SK9811000000000000000004", description: "Swept from the next run" }
  ]
})

/** `tppkit consents remove KEY`. */
export const consentsRemoveCommand = CommandSpec.make({
  name: "remove",
  flags: {
    databaseUrl: Connection.flags.databaseUrl,
    key: Argument.String("key").pipe(Argument.withDescription("The consent's key"))
  },
  run: consents("remove"),
  description: "Remove a consent from the fleet (exit 7 when it has none of that key)",
  examples: [{ command: "tppkit consents remove fleet-004", description: "Not swept from the next run" }]
})

/** `tppkit consents list [--format table|json]`. */
export const consentsListCommand = CommandSpec.make({
  name: "list",
  flags: { databaseUrl: Connection.flags.databaseUrl, format: Flags.tableOrJson },
  run: consents("list"),
  description: "The fleet's consents: key, IBAN, profile, valid until",
  examples: [{ command: "tppkit consents list --format json", description: "One JSON array" }]
})

/** `tppkit consents`: the fleet's consents. */
export const consentsCommand = CommandSpec.group({
  name: "consents",
  description: "The fleet's consents, kept in its database: add, remove, list",
  subcommands: [consentsAddCommand, consentsRemoveCommand, consentsListCommand],
  examples: [{ command: "tppkit consents list", description: "The consents the fleet sweeps" }]
})
