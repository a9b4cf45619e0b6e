/**
 * The demo's view of the mock bank: which consent each fixture account has, and a balance check that passes the
 * SCA-style token for accounts under an electronic consent (as a customer's login would).
 */
import { type Currency, Iban, Profile } from "@tppkit/core"
import { type BankClient, type PsuContext, TokenService } from "@tppkit/http"
import type { Sandbox } from "@tppkit/sandbox"
import type { BigDecimal } from "effect"

/** What the demo's steps share: the mock bank, the client, the PSU context, each account's consent, the check. */
export interface Bank {
  readonly info: Sandbox.SandboxInfo["Service"]
  readonly client: BankClient.BankClient["Service"]
  readonly psu: PsuContext.PsuContext
  /** The consent of each fixture account (`branch`, `electronic` or `none`), by IBAN. */
  readonly consentOf: ReadonlyMap<string, string>
  /** The profile the mock bank plays (absent: the seed bank's). */
  readonly profile?: Profile.Profile | undefined
}

/**
 * The id of one balance check: a UUID for the seed bank; 18 characters of one where the profile's id holds no more
 * (COBS's `exchangeIdentification`).
 */
const checkId = (bank: Bank): string =>
  bank.profile === undefined || Profile.isSbas(bank.profile)
    ? crypto.randomUUID()
    : crypto.randomUUID().replaceAll("-", "").slice(0, 18)

/** The consents of the mock bank's fixture accounts, by IBAN. */
export const consents = (info: Sandbox.SandboxInfo["Service"]): ReadonlyMap<string, string> =>
  new Map(info.accounts.map((a) => [a.iban, a.consent]))

/**
 * A balance check of `value` on `iban`, with the SCA-style token when the account's consent is electronic (none under
 * a profile that checks balances without a token).
 */
export const balanceCheck =
  (bank: Bank, sca: TokenService.Token | undefined) => (iban: string, value: BigDecimal.BigDecimal, currency: string) =>
    bank.client.balanceCheck(
      {
        instructionIdentification: checkId(bank),
        iban: Iban.parseUnsafe(iban),
        amount: { value, currency: currency as Currency.CurrencyCode }
      },
      {
        psu: bank.psu,
        ...(sca !== undefined && bank.consentOf.get(iban) === "electronic" ? { token: sca } : {})
      }
    )

/** A balance check as the steps call it. */
export type Check = ReturnType<typeof balanceCheck>

/** The same token from an SCA flow's stand-in: the mock issues it by client credentials. */
export const scaToken = (info: Sandbox.SandboxInfo["Service"], token: TokenService.Token): TokenService.Token =>
  TokenService.fromSca(info.environment, token.value, token.tokenType)
