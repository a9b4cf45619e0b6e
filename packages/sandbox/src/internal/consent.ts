/**
 * Accounts and their consents for balance checks (docs/bank-interface.md, "Balance check"): a branch consent holds, an
 * electronic one holds for 90 days from the day it was granted and needs a token bound to the account, none refuses.
 * The balances and consent ends live in the value `make` returns.
 */
import { LocalDate } from "@tppkit/core"
import { BigDecimal } from "effect"
import type * as Fixtures from "../Fixtures.ts"
import type { BankDay } from "./bankDay.ts"
import { type Failure, forbidden } from "./errors.ts"
import type { Token } from "./oauth.ts"

/** An account with its balance and the last valid day of an electronic consent. */
export interface AccountState {
  readonly account: Fixtures.LoadedAccount
  readonly balance: BigDecimal.BigDecimal
  /** Last valid day of an electronic consent (day number), or undefined. */
  readonly consentUntil: number | undefined
}

/** The accounts of the fixture set; an electronic consent without `grantedOn` counts from `startMillis`'s day. */
export const make = (
  accounts: ReadonlyArray<Fixtures.LoadedAccount>,
  calendar: BankDay,
  startMillis: number,
  now: () => number
) => {
  const startDay = calendar.day(startMillis)
  const byIban = new Map<string, AccountState>(
    accounts.map((a) => {
      const granted = a.consent.grantedOn !== undefined ? LocalDate.parseUnsafe(a.consent.grantedOn) : startDay
      return [
        a.iban,
        {
          account: a,
          balance: BigDecimal.fromStringUnsafe(a.balance),
          consentUntil: a.consent.kind === "electronic" ? granted + 89 : undefined
        }
      ]
    })
  )

  /** The account a balance check may read with this token, or why not (403). */
  const forBalanceCheck = (iban: string, token: Token): AccountState | Failure => {
    const state = byIban.get(iban)
    if (state === undefined || state.account.consent.kind === "none") {
      return forbidden("CONSENT_MISSING", "no consent for balance checks on this account", "iban")
    }
    if (state.consentUntil !== undefined) {
      if (calendar.day(now()) > state.consentUntil) {
        return forbidden("CONSENT_EXPIRED", "the electronic consent for this account has expired (90 days)", "iban")
      }
      if (!token.scopes.has("AISP") || !token.bound.has(iban)) {
        return forbidden(
          "SCA_REQUIRED",
          "an electronic consent needs a token from strong customer authentication (in this sandbox: scope PIISP AISP, bound to the account)",
          "iban"
        )
      }
    }
    return state
  }

  /** Whether the account exists. */
  const known = (iban: string): boolean => byIban.has(iban)

  /** The account's state, or undefined for an unknown account. */
  const state = (iban: string): AccountState | undefined => byIban.get(iban)

  return { forBalanceCheck, known, state }
}
