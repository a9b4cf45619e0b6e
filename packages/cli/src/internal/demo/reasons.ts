/** How the demo words a check without an answer, and a group of payments at risk. */
import type { BankError } from "@tppkit/http"
import type { Coverage } from "@tppkit/schedule"

// a bank error's message without the operation and the request identifiers (they differ per call), its status
// and code kept short: "403 CONSENT_MISSING"
const shortReason = (message: string): string => {
  const text = message.replace(/^[^:]+: /, "").replace(/ \[.*\]$/, "")
  const short = /^(\d{3}) [a-z ]+ \(([A-Z][A-Z_]+)(?::[^)]*)?\)$/.exec(text)
  return short === null ? text : `${short[1]} ${short[2]}`
}

/** Why a balance check got no answer, in a few words: "403 CONSENT_MISSING". */
export const describeFailure = (error: BankError.BankError): string => shortReason(error.message)

/** A recorded failure's description, in the same few words. */
export const describeRecorded = (message: string): string => shortReason(message)

/** Why a group of payments is at risk, as the report and the picture say it. */
export const reasonText = (reason: Coverage.RiskReason): string => {
  switch (reason._tag) {
    case "Declined":
      return "declined (DECL)"
    case "NoAnswer":
      return reason.detail
    case "RunningTotal":
      return "each covered alone, not together with the earlier payments due (running total)"
  }
}
