/**
 * The type of a fleet's bank, declared beside the listings that call it (`sbasListing.ts`, `detailedListing.ts`):
 * `BankSources` re-exports it.
 */
import type { BankClient, BankConfig, Budget } from "@tppkit/http"
import type { Context } from "effect"

/** A bank of the fleet: a profile's client stack (the client, its configuration and its daily budget). */
export type Bank = Context.Context<BankClient.BankClient | BankConfig.BankConfig | Budget.Budget>
