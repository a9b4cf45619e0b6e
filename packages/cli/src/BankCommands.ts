/**
 * The commands that talk to a bank: `tppkit token`, `tppkit balance-check` and `tppkit standing-orders`.
 * Each takes the connection and PSU flags of `Connection`, prints a table or JSON on stdout, and fails with one
 * line naming the operation, the status and the request identifiers. Tokens are printed only on request.
 *
 * @since 0.1.0
 */
import { LocalDate } from "@tppkit/core"
import { Flag } from "effect/cli"
import * as Connection from "./Connection.ts"
import * as CommandSpec from "./internal/commandSpec.ts"
import * as Flags from "./internal/flags.ts"

/** The work behind the commands, loaded when one of them runs (it pulls in the HTTP stack). */
const bank = CommandSpec.lazy(() => import("./internal/bank.ts"))

/** `tppkit token [--scope S] [--show-token]`. */
export const tokenCommand = CommandSpec.make({
  name: "token",
  flags: {
    ...Connection.flags,
    scope: Flag.String("scope").pipe(
      Flag.withDescription("Scopes, space- or comma-separated: PISP, PIISP, AISP (default PIISP)"),
      Flag.withDefault("PIISP")
    ),
    showToken: Flags.toggle("show-token", "Print the token itself (only it, for piping into other tools)"),
    format: Flags.tableOrJson
  },
  run: bank("token"),
  description: "Obtain a client-credentials token and show its type, scopes and expiry",
  examples: [
    { command: 'tppkit token --scope "PIISP AISP"', description: "A token for balance checks and listings" },
    { command: "tppkit token --show-token", description: "Only the token, e.g. for curl's Authorization header" }
  ]
})

/** `tppkit balance-check --iban I --amount A --currency C`. */
export const balanceCheckCommand = CommandSpec.make({
  name: "balance-check",
  flags: {
    ...Connection.flags,
    accessToken: Connection.accessTokenFlag,
    iban: Flag.String("iban").pipe(Flag.withDescription("Account to check")),
    amount: Flag.String("amount").pipe(Flag.withDescription("Amount, e.g. 125.50 (format [12.2])")),
    currency: Flag.String("currency").pipe(Flag.withDescription("ISO 4217 code, e.g. EUR")),
    format: Flags.tableOrJson
  },
  run: bank("balanceCheck"),
  description: "Ask the bank whether an amount is available on an account (APPR or DECL)",
  examples: [
    {
      command: "tppkit balance-check --iban SK2411000000002612345678 --amount 100.00 --currency EUR",
      description: "Are 100.00 EUR available on this account?"
    }
  ]
})

/** `tppkit standing-orders [--iban I] [--page N --page-size N | --all]`. */
export const standingOrdersCommand = CommandSpec.make({
  name: "standing-orders",
  flags: {
    ...Connection.flags,
    accessToken: Connection.accessTokenFlag,
    iban: Flag.String("iban").pipe(Flag.withDescription("Only the orders of this account"), Flag.optional),
    page: Flag.Int("page").pipe(
      Flag.withDescription("Page as the bank numbers them, from 0 (default 0); the table calls --page 0 page 1"),
      Flag.optional
    ),
    pageSize: Flag.Int("page-size").pipe(
      Flag.withDescription("Records per page: a multiple of 10, at most 100 (the bank's default 50)"),
      Flag.optional
    ),
    all: Flags.toggle("all", "Fetch every page (page size 100)"),
    maxAge: Flags.optionalText(
      "max-age",
      "DURATION",
      "With --all and no customer present: accept a complete listing up to this old (e.g. 10m, 2h; default 1m), costing no budget; 0 asks for a fresh one"
    ),
    reconcile: Flags.toggle(
      "reconcile",
      "Check each listed nextDate against tppkit's date on the listing day instead of listing (as tppkit reconcile; exit 8 on findings)"
    ),
    asOf: Flags.optionalText(
      "as-of",
      "YYYY-MM-DD",
      `With --reconcile: the bank's listing day (default today in ${LocalDate.bankTimeZone}, or a kept listing's day)`
    ),
    // with --reconcile: the rule in use, as tppkit reconcile takes it
    ...Flags.reconcileRule,
    standard: Flags.bankStandard,
    format: Flags.tableOrJson
  },
  run: bank("standingOrders"),
  description: "List standing orders: one page, or every page with --all",
  examples: [
    { command: "tppkit standing-orders --all --format json > orders.json", description: "Every page, as JSON" },
    {
      command: "tppkit standing-orders --all --reconcile",
      description: "The bank's nextDates against tppkit's dates today; exit 8 on findings"
    }
  ]
})
