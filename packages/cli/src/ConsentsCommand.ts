/**
 * `tppkit consents`: the fleet's consents as data in its database (`add`, `remove`, `list`). The workers read them
 * at the start of each sweep run, so a change reaches the next sweep without a restart. The database code is loaded
 * only when a subcommand runs.
 *
 * @since 0.1.0
 */
import { Config, Effect } from "effect"
import { Argument, Command, Flag } from "effect/cli"
import * as Connection from "./Connection.ts"
import * as Flags from "./internal/flags.ts"

const impl = () => import("./internal/consents.ts")

/** `tppkit consents add KEY [--iban IBAN] [--profile P] [--valid-until YYYY-MM-DD]` (and `TPPKIT_REFRESH_TOKEN`). */
export const consentsAddCommand = Command.make(
  "add",
  {
    databaseUrl: Connection.flags.databaseUrl,
    key: Argument.String("key").pipe(Argument.withDescription("The consent's key (its daily budget's key)")),
    iban: Flag.String("iban").pipe(Flag.withDescription("List only this account's standing orders"), Flag.optional),
    profile: Flag.String("profile").pipe(
      Flag.withDescription(
        "The consent's bank profile (sbas, cobs): the fleet lists it and checks its payments at that profile's bank"
      ),
      Flag.optional
    ),
    validUntil: Flag.String("valid-until").pipe(
      Flag.withMetavar("YYYY-MM-DD"),
      Flag.withDescription(
        "The last day the consent is valid (default: today plus its profile's validity days); not swept after it"
      ),
      Flag.optional
    ),
    refreshToken: Flag.Redacted("refresh-token").pipe(
      Flag.withDescription(
        "The customer's refresh token, for a profile that lists with the customer's token (cobs); prefer TPPKIT_REFRESH_TOKEN, command lines are visible to others"
      ),
      Flag.withFallbackConfig(Config.Redacted("TPPKIT_REFRESH_TOKEN")),
      Flag.optional
    )
  },
  (input) => Effect.flatMap(Effect.promise(impl), (i) => i.add(input))
).pipe(
  Command.withDescription("Add a consent to the fleet, or change the one of that key"),
  Command.withExamples([
    { command: "tppkit consents add fleet-004 --iban SK9811000000000000000004", description: "Swept from the next run" }
  ])
)

/** `tppkit consents remove KEY`. */
export const consentsRemoveCommand = Command.make(
  "remove",
  {
    databaseUrl: Connection.flags.databaseUrl,
    key: Argument.String("key").pipe(Argument.withDescription("The consent's key"))
  },
  (input) => Effect.flatMap(Effect.promise(impl), (i) => i.remove(input))
).pipe(
  Command.withDescription("Remove a consent from the fleet (exit 7 when it has none of that key)"),
  Command.withExamples([{ command: "tppkit consents remove fleet-004", description: "Not swept from the next run" }])
)

/** `tppkit consents list [--format table|json]`. */
export const consentsListCommand = Command.make(
  "list",
  { databaseUrl: Connection.flags.databaseUrl, format: Flags.tableOrJson },
  (input) => Effect.flatMap(Effect.promise(impl), (i) => i.list(input))
).pipe(
  Command.withDescription("The fleet's consents: key, IBAN, profile, valid until"),
  Command.withExamples([{ command: "tppkit consents list --format json", description: "One JSON array" }])
)

/** `tppkit consents`: the fleet's consents. */
export const consentsCommand = Command.make("consents").pipe(
  Command.withDescription("The fleet's consents, kept in its database: add, remove, list"),
  Command.withSubcommands([consentsAddCommand, consentsRemoveCommand, consentsListCommand]),
  Command.withExamples([{ command: "tppkit consents list", description: "The consents the fleet sweeps" }])
)
