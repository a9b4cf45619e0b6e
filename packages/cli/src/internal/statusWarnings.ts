/**
 * What the fleet warns of in `tppkit worker status` (issue 39): payments at risk ahead, the change feed of the week,
 * consents near or past their end and opening balances too old, for people and as JSON.
 */

import type { FleetStatus } from "@tppkit/worker"
// the modules themselves, not the package: printing a status needs none of the fleet's machinery
import * as AtRisk from "@tppkit/worker/AtRisk"
import * as ConsentLifecycle from "@tppkit/worker/ConsentLifecycle"
import * as OrderChanges from "@tppkit/worker/OrderChanges"
import * as Render from "../Render.ts"
import { amountText, plural, width } from "./statusText.ts"

/**
 * What the fleet warns of (issue 39), each part only when it has something to say: the payments at risk ahead (day,
 * order, amount, account, the day's closing and why, the lowest point, the balance's age, the check's answer once
 * there is one), the standing orders changed in the week up to the day, the consents near or past their end, and
 * the balances older than `--balance-max-age`.
 */
export const warningsSection = (status: FleetStatus.Status, w: number = width): Array<string> => {
  const warned = status.warnings
  if (warned === undefined) return []
  const out: Array<string> = []
  if (warned.atRisk.length > 0) {
    out.push("", `Payments at risk ahead of ${warned.day} (${warned.atRisk.length}):`)
    for (const { risk, answer } of warned.atRisk) {
      out.push(
        ...Render.wrap(
          `${risk.executionDate} ${risk.orderId} ${amountText(risk.amount, risk.currency)} ${risk.currency} from ${risk.iban}: ` +
            `closing ${amountText(risk.closing, risk.currency)} (${risk.reason === "zero" ? "at or below zero" : `below ${amountText(risk.threshold ?? "0", risk.currency)}`}), ` +
            `lowest ${amountText(risk.lowest.amount, risk.currency)} on ${risk.lowest.date}; balance of ${risk.balanceDate}, ` +
            `${plural(AtRisk.balanceAgeOn(risk, warned.day), "day")} old` +
            (answer === undefined ? "" : `; check: ${answer}`),
          w,
          "  ",
          "    "
        )
      )
    }
  }
  if (warned.changes.length > 0) {
    out.push("", `Standing orders changed since ${warned.changesSince} (${warned.changes.length}):`)
    for (const c of warned.changes.slice(-20)) {
      const what = String(c.type).replace("standing_order.", "")
      const detail = OrderChanges.describe(c.type, c.data)
      out.push(...Render.wrap(`${c.day} ${c.consent ?? "-"} ${what} ${c.data.orderId}: ${detail}`, w, "  ", "    "))
    }
    if (warned.changes.length > 20) {
      out.push(`  … ${warned.changes.length - 20} more: tppkit changes --since ${warned.changesSince}`)
    }
  }
  const consents = ConsentLifecycle.toName(warned.consents, warned.day)
  if (consents.length > 0) {
    out.push("", "Consents:")
    for (const c of consents) {
      const left = c.daysLeft
      out.push(
        ...Render.wrap(
          c.expired !== undefined
            ? `${c.key}: expired (the bank answered ${c.expired.code} on ${c.expired.day}): not swept, no budget spent on it, until a new consent is added (tppkit consents add)`
            : `${c.key}: valid until ${c.validUntil}, ${left !== undefined && left < 0 ? "past its end" : `${plural(left ?? 0, "day")} left`}; renew it before then`,
          w,
          "  ",
          "    "
        )
      )
    }
  }
  const stale = AtRisk.staleBalances(warned.balances, warned.balanceMaxAge)
  if (stale.length > 0) {
    out.push(
      "",
      ...Render.wrap(
        `Balances older than ${plural(warned.balanceMaxAge, "day")} on ${warned.day} (--balance-max-age): ` +
          stale
            .slice(0, 5)
            .map((b) => `${b.iban} of ${b.date} (${plural(b.ageDays, "day")})`)
            .join(", ") +
          (stale.length > 5 ? `, and ${stale.length - 5} more` : "") +
          "; the forecast ahead stands on them: give the workers newer ones (--balances FILE --reconfigure)",
        w,
        "",
        "  "
      )
    )
  }
  return out
}

/**
 * The JSON of the warnings for `--format json` (key `warnings`), only when there is something to warn of: `day`,
 * `atRisk` (each payment raised at risk and not cleared, with its event's `id` and the check's `answer` or null),
 * `changes` (the change feed's events of the week), `consents` (near or past their end) and `staleBalances`.
 */
export const warningsJson = (status: FleetStatus.Status) => {
  const warned = status.warnings
  if (warned === undefined) return {}
  const consents = ConsentLifecycle.toName(warned.consents, warned.day)
  const stale = AtRisk.staleBalances(warned.balances, warned.balanceMaxAge)
  if (warned.atRisk.length + warned.changes.length + consents.length + stale.length === 0) return {}
  return {
    warnings: {
      day: warned.day,
      atRisk: warned.atRisk.map((r) => ({ id: r.id, ...r.risk, raisedDay: r.raisedDay, answer: r.answer ?? null })),
      changes: warned.changes.map((c) => ({ id: c.id, type: c.type, day: c.day, consent: c.consent, ...c.data })),
      consents: consents.map((c) => ({
        consent: c.key,
        validUntil: c.validUntil ?? null,
        expired: c.expired === undefined ? null : c.expired
      })),
      staleBalances: stale,
      balanceMaxAge: warned.balanceMaxAge
    }
  }
}
