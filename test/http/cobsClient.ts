/**
 * The client the COBS tests share: a TPP ("My Budget App s.r.o.") speaking COBS to the mock bank playing COBS, over
 * `transport` (undici unless a test wraps it), its budget in memory.
 */
import { Profile } from "@tppkit/core"
import { BankClient, BankConfig, BankTransport, BudgetStore } from "@tppkit/http"
import type { Sandbox } from "@tppkit/sandbox"
import type { Layer } from "effect"

/** The client's layer for the mock bank described by `info`. */
export const cobsClient = (
  info: Sandbox.SandboxInfo["Service"],
  transport: Layer.Layer<BankTransport.BankTransport> = BankTransport.BankTransport.layerUndici()
) =>
  BankClient.BankClient.layerOver(
    BankConfig.BankConfig.layer({
      environment: "sandbox",
      baseUrl: info.baseUrl,
      clientId: info.clientId,
      clientSecret: info.clientSecret,
      profile: Profile.cobs,
      apiKey: info.apiKey,
      tpp: { name: "My Budget App s.r.o." }
    }),
    transport,
    BudgetStore.BudgetStore.layerMemory
  )
