/**
 * The bank's own dates as evidence: every listed `nextDate` checked against the date the engine expects on the day
 * of the listing, each difference explained by another bank rule (convention, calendar or "every day", execution or
 * nominal date) where one explains it, and the rule that explains the most dates inferred from the evidence
 * (docs/bank-interface.md, "The bank's date rule"). Orders given by a bank code and orders given as a recurrence (an
 * RRULE, another standard: the rule's convention moves them, or their own when their record states one) alike.
 * Dates come from core's Occurrence engine through `BankRule.plan`; the listing day is a parameter, never the clock.
 *
 * Over 400 lines on purpose: classification and inference share one candidate table and are one concept.
 *
 * @since 0.1.0
 */
import { BankRule, type Calendar } from "@tppkit/core"
import type {
  Inference,
  NotEnoughEvidence,
  Observation,
  Options,
  ReconcilableOrder,
  Reconciliation,
  Status
} from "./internal/reconciliation.ts"
import * as Engine from "./internal/reconciliation.ts"

export type {
  Counts,
  Inference,
  Inferred,
  NotEnoughEvidence,
  Observation,
  Options,
  ReconcilableOrder,
  Reconciliation,
  Skipped,
  Status,
  Supported
} from "./internal/reconciliation.ts"

// ---------------------------------------------------------------------------
// model
// ---------------------------------------------------------------------------

/** The classes of a listed date, in the order reports show them. */
export const statuses: typeof Engine.statuses = Engine.statuses

/** The calendars of the default candidates: `target`, `weekends`, the Slovak and the Czech national calendars. */
export const candidateCalendars: () => ReadonlyArray<Calendar.Calendar> = Engine.candidateCalendars
/**
 * The default candidate rules: every convention on `target`, `weekends`, `SK` and `CZ`, and every day; execution
 * or nominal dates (a nominal date is `none`'s execution date, so those are not listed twice): 21 distinct rules.
 */
export const candidates: () => ReadonlyArray<BankRule.BankRule> = Engine.candidates

/** The most rules one reconciliation compares (one bit each in {@link Observation}'s `explaining`). */
export const maxRules: typeof Engine.maxRules = Engine.maxRules

/**
 * Reconciles a listing made on `asOf`: each order with a `nextDate` is compared with the first date on or after the
 * listing day under the rule in use and under every candidate rule, classified ({@link Status}), and the bank's rule
 * inferred from all of them ({@link infer}). Each order costs one plan and one first-date query per distinct
 * computation among the rules (at most 17 of the default 21), and a second query only when the date is the
 * listing day or no rule gives it.
 */
export const reconcile: (orders: Iterable<ReconcilableOrder>, options: Options) => Reconciliation = Engine.reconcile

/**
 * The bank's rule from one or more listings: the rule (by its dates, `BankRule.key`) that explains the most
 * observations that are not stale, summed over the listings, with its support, the orderIds it does not explain and
 * the runner-up; when several rules explain the same most observations, or there is no evidence at all,
 * {@link NotEnoughEvidence} with the tied rules.
 */
export const infer: (
  listings: ReadonlyArray<Pick<Reconciliation, "rules" | "support" | "evidence" | "observations">>
) => Inference = Engine.infer

/** The rules that list an observation's date on the listing day, in the reconciliation's order. */
export const explainedBy: (
  reconciliation: Pick<Reconciliation, "rules">,
  observation: Observation
) => Array<BankRule.BankRule> = Engine.explainedBy

/**
 * The one rule to name for an observation: of the rules that list its date, the one that explains the most
 * observations of the listing (the inferred rule whenever it explains the date; the rule in use, then the candidates in
 * order, among equals); `undefined` when none does.
 */
export const explanation: (
  reconciliation: Pick<Reconciliation, "rules" | "support">,
  observation: Observation
) => BankRule.BankRule | undefined = Engine.explanation

/** The rules that explain every observation that is not stale (all rules when nothing is evidence). */
export const consistentRules: (reconciliation: Reconciliation) => Array<BankRule.BankRule> = Engine.consistentRules

/**
 * Whether a listing needs a person's attention: an anomaly, an unexplained date, or differences that no single rule
 * explains together. Everything matching, or every difference explained by one rule, is no finding; stale dates
 * are reported but are no finding.
 */
export const hasFindings: (reconciliation: Reconciliation) => boolean = Engine.hasFindings

/** The observations that differ from the rule in use (explained, stale, anomaly, unexplained), in input order. */
export const differences: (reconciliation: Reconciliation) => Array<Observation> = Engine.differences

/** How many explained observations each rule explains (the rule named for each: {@link explanation}), most first. */
export const explainedByRule = (
  reconciliation: Pick<Reconciliation, "rules" | "support" | "observations">
): Array<{ readonly rule: BankRule.BankRule; readonly count: number }> => {
  const counts = new Map<string, { rule: BankRule.BankRule; count: number }>()
  for (const o of reconciliation.observations) {
    if (o.status !== "explained") continue
    const rule = explanation(reconciliation, o)
    if (rule === undefined) continue
    const key = BankRule.key(rule)
    const found = counts.get(key)
    if (found === undefined) counts.set(key, { rule, count: 1 })
    else found.count++
  }
  return [...counts.values()].sort((a, b) => b.count - a.count)
}

/**
 * The rule a projection should use after a listing's evidence: the inferred rule; when the evidence does not separate
 * the best rules, the one of them that is the rule asked for (`preferred`, `BankRule.equivalent`), else the only one
 * on its calendar; otherwise `undefined`: no rule can be chosen, and none is guessed.
 */
export const ruleToProject = (inference: Inference, preferred: BankRule.BankRule): BankRule.BankRule | undefined => {
  if (inference._tag === "Inferred") return inference.rule
  const same = inference.tied.find((r) => BankRule.equivalent(r, preferred))
  if (same !== undefined) return same
  const onCalendar = inference.tied.filter((r) => BankRule.calendarName(r) === BankRule.calendarName(preferred))
  return onCalendar.length === 1 ? onCalendar[0] : undefined
}
