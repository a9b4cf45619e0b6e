/**
 * The client the COBS tests share: a TPP ("My Budget App s.r.o.") speaking COBS to the mock bank playing COBS, over
 * `transport` (undici unless a test wraps it), its budget in memory; and the mock bank's ten orders of one account
 * whose list items name no start for most (their details pending).
 */
import { Profile } from "@tppkit/core"
import { BankClient, BankConfig, BankTransport, BudgetStore } from "@tppkit/http"
import { Fixtures, type Sandbox } from "@tppkit/sandbox"
import type { Layer } from "effect"

/** The configuration of a client of the mock bank described by `info` (its own profile), `more` of it given. */
export const bankConfig = (info: Sandbox.SandboxInfo["Service"], more: Partial<BankConfig.Options> = {}) =>
  BankConfig.BankConfig.layer({
    environment: "sandbox",
    baseUrl: info.baseUrl,
    clientId: info.clientId,
    clientSecret: info.clientSecret,
    ...more
  })

/** A client of the mock bank described by `info` over `transport`, its budget in memory; `more` of its configuration. */
export const bankClient = (
  info: Sandbox.SandboxInfo["Service"],
  transport: Layer.Layer<BankTransport.BankTransport> = BankTransport.BankTransport.layerUndici(),
  more: Partial<BankConfig.Options> = {}
) => BankClient.BankClient.layerOver(bankConfig(info, more), transport, BudgetStore.BudgetStore.layerMemory)

/** What a COBS client's configuration says beyond the bank's address and the client's credentials. */
export const cobsOptions = (info: Sandbox.SandboxInfo["Service"]): Partial<BankConfig.Options> => ({
  profile: Profile.cobs,
  apiKey: info.apiKey,
  tpp: { name: "My Budget App s.r.o." }
})

/** The COBS client's layer for the mock bank described by `info`; `more` of its configuration in place of these. */
export const cobsClient = (
  info: Sandbox.SandboxInfo["Service"],
  transport: Layer.Layer<BankTransport.BankTransport> = BankTransport.BankTransport.layerUndici(),
  more: Partial<BankConfig.Options> = {}
) => bankClient(info, transport, { ...cobsOptions(info), ...more })

/**
 * The mock bank's fixtures of ten standing orders (SO0001–SO0010) of one customer's EUR account, of every frequency
 * but daily: more than a day's limit of unattended detail calls.
 */
export const tenOrders: Fixtures.Fixtures = (() => {
  const account = Fixtures.ibans.eurBranch
  const frequencies = ["QUTR", "YEAR", "SEMI", "MNTH", "QUTR", "YEAR", "MNTH", "SEMI", "QUTR", "WEEK"] as const
  return {
    clients: [{ ...(Fixtures.defaults.clients[0] as Fixtures.Fixtures["clients"][number]), aispAccounts: [account] }],
    accounts: Fixtures.defaults.accounts,
    standingOrders: frequencies.map((frequency, i) => ({
      orderId: `SO${String(i + 1).padStart(4, "0")}`,
      debtor: { name: "Jana Nováková", iban: account },
      creditor: { iban: "AT611904300234573201", name: "Landlord" },
      instructedAmount: { value: 100 + i, currency: "EUR" },
      frequency,
      startDate: `2026-0${(i % 9) + 1}-1${i % 9}`
    }))
  }
})()
