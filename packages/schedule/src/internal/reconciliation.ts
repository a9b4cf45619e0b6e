/**
 * The engine of `Reconciliation` and the types it works on (its public module re-exports them and documents the
 * functions).
 */
import {
  BankRule,
  BusinessDayConvention,
  Calendar,
  type Frequency,
  type LocalDate,
  Occurrence,
  Recurrence
} from "@tppkit/core"
import { Result } from "effect"
import * as Holidays from "../Holidays.ts"

/** How many observations fall into each class. */
export type Counts = { readonly [S in Status]: number }

/** A rule with the number of observations (not stale) it explains. */
export interface Supported {
  readonly rule: BankRule.BankRule
  readonly support: number
}

/**
 * The rule the evidence points to: the one candidate that explains the most observations, with its support out of
 * the `evidence` (the observations that are not stale), the orderIds it does not explain, and the runner-up.
 */
export interface Inferred {
  readonly _tag: "Inferred"
  readonly rule: BankRule.BankRule
  readonly support: number
  readonly evidence: number
  readonly notExplained: ReadonlyArray<string>
  readonly runnerUp: Supported | undefined
}

/** The classes of a listed date, in the order reports show them. */
export const statuses = ["match", "explained", "stale", "anomaly", "unexplained"] as const

/**
 * What reconciliation reads from a listed standing order; core's `StandingOrder` satisfies it. An order that carries
 * a `recurrence` is reconciled on it (its frequency code is not read), moved by each rule's convention, or by its own
 * when `ownConvention` says its record states one (`BankRule.scheduleOf`).
 */
export interface ReconcilableOrder extends BankRule.RuledSchedule {
  readonly orderId: string
}

/** One listed order with a `nextDate`, compared with the engine. */
export interface Observation {
  readonly orderId: string
  /** The bank's code; `undefined` for an order given as a recurrence. */
  readonly frequency: Frequency.Frequency | undefined
  /** For an order given as a recurrence, its rule in a few words (`Recurrence.describe`); `undefined` for a code. */
  readonly rule: string | undefined
  /** The bank's `nextDate`. */
  readonly listed: LocalDate.LocalDate
  /** The engine's date under the rule in use: the first on or after the listing day (`undefined`: the order has ended). */
  readonly expected: LocalDate.LocalDate | undefined
  readonly status: Status
  /**
   * The rule in use has a payment on the listing day itself: whether the bank has made it yet is unknown, so the
   * listing day and the next date are both read as the bank's word, never as a mismatch.
   */
  readonly dueOnListingDay: boolean
  /** Bit i is set when the reconciliation's `rules[i]` lists exactly this date for this order on the listing day. */
  readonly explaining: number
}

/** An order that has a `nextDate` but cannot be planned, with the human reason. */
export interface Skipped {
  readonly orderId: string
  readonly reason: string
}

/**
 * The evidence does not separate the best candidates: every rule in `tied` explains `support` of the `evidence`
 * observations (for instance no listed date falls on a day where their calendars differ). Nothing is guessed.
 */
export interface NotEnoughEvidence {
  readonly _tag: "NotEnoughEvidence"
  readonly tied: ReadonlyArray<BankRule.BankRule>
  readonly support: number
  readonly evidence: number
}

/** What the evidence says about the bank's rule. */
export type Inference = Inferred | NotEnoughEvidence

/** A listing reconciled on its listing day. */
export interface Reconciliation {
  readonly asOf: LocalDate.LocalDate
  /** The rules compared, one per distinct set of dates: `rules[0]` is the rule in use, then the candidates. */
  readonly rules: ReadonlyArray<BankRule.BankRule>
  /** One per listed order with a `nextDate` that can be planned, in input order. */
  readonly observations: ReadonlyArray<Observation>
  /** The orderIds of listed orders without a `nextDate` (nothing to compare). */
  readonly withoutNextDate: ReadonlyArray<string>
  readonly skipped: ReadonlyArray<Skipped>
  readonly counts: Counts
  /** Per rule (same index as `rules`): how many observations that are not stale it explains. */
  readonly support: ReadonlyArray<number>
  /** The observations that are not stale: the evidence. */
  readonly evidence: number
  readonly inference: Inference
}

/**
 * The listing day, the rule in use (default tppkit's: `following` on `target`, execution dates) and the candidate
 * rules (default {@link candidates}). At most 32 rules are compared, the rule in use included; rules listing the same
 * dates (`BankRule.equivalent`) count once.
 */
export interface Options {
  readonly asOf: LocalDate.LocalDate
  readonly rule?: BankRule.BankRule | undefined
  readonly candidates?: ReadonlyArray<BankRule.BankRule> | undefined
}

/**
 * How a listed `nextDate` compares with the engine: `match` (the rule in use gives it), `explained` (another candidate
 * rule gives it), `stale` (before the listing day: the bank has not advanced it; no evidence for or against a rule),
 * `anomaly` (no candidate rule gives this date for this order on any day: not one of its dates moved by any
 * candidate convention, or beyond its start or end by more than a convention moves a date), `unexplained` (a date of
 * the order, but no candidate gives it as the next one on the listing day).
 */
export type Status = (typeof statuses)[number]

// ---------------------------------------------------------------------------
// candidates
// ---------------------------------------------------------------------------

let standardCalendars: ReadonlyArray<Calendar.Calendar> | undefined

let standardCandidates: ReadonlyArray<BankRule.BankRule> | undefined

/** The calendars of the default candidates: `target`, `weekends`, the Slovak and the Czech national calendars. */
export const candidateCalendars = (): ReadonlyArray<Calendar.Calendar> => {
  standardCalendars ??= [
    Calendar.target,
    Calendar.weekends,
    Holidays.nationalUnsafe("SK"),
    Holidays.nationalUnsafe("CZ")
  ]
  return standardCalendars
}

/**
 * The default candidate rules: every convention on `target`, `weekends`, `SK` and `CZ`, and every day; execution
 * or nominal dates (a nominal date is `none`'s execution date, so those are not listed twice): 21 distinct rules.
 */
export const candidates = (): ReadonlyArray<BankRule.BankRule> => {
  if (standardCandidates === undefined) {
    const out: Array<BankRule.BankRule> = []
    for (const calendar of candidateCalendars()) {
      for (const convention of BusinessDayConvention.conventions) {
        out.push({ convention, calendar, reports: "execution" })
      }
    }
    out.push({ convention: "none", calendar: BankRule.everyDay, reports: "execution" })
    standardCandidates = out
  }
  return standardCandidates
}

/** The most rules one reconciliation compares (one bit each in {@link Observation}'s `explaining`). */
export const maxRules = 32

/** The rule in use, then each candidate whose dates differ from every rule before it, up to {@link maxRules}. */
export const distinctRules = (
  inUse: BankRule.BankRule,
  others: ReadonlyArray<BankRule.BankRule>
): Array<BankRule.BankRule> => {
  const seen = new Set<string>()
  const out: Array<BankRule.BankRule> = []
  for (const rule of [inUse, ...others]) {
    const key = BankRule.key(rule)
    if (seen.has(key) || out.length === maxRules) continue
    seen.add(key)
    out.push(rule)
  }
  return out
}

// ---------------------------------------------------------------------------
// engines: the distinct date computations of one kind of order
// ---------------------------------------------------------------------------

/**
 * Orders whose dates differ by rule in the same way: working days (DAIL and every n-th working day: by calendar),
 * DAI7 (never moved), the moved codes and recurrences (by convention and calendar), recurrences with their own
 * convention (by calendar, or not at all for nominal dates).
 */
export type Kind = 0 | 1 | 2 | 3

export const kindOf = (order: ReconcilableOrder): Kind => {
  const code = Occurrence.codeOf(order)
  const r = order.recurrence
  if (code !== undefined || r === undefined) return code === "DAIL" ? 0 : code === "DAI7" ? 1 : 2
  if (r.rule._tag === "EveryWorkingDays") return 0
  return order.ownConvention === true ? 3 : 2
}

/**
 * For one kind of order, the distinct computations among the rules: a representative rule per computation and, per
 * computation, the bits of the rules it answers for.
 */
export interface Engines {
  readonly rules: Array<BankRule.BankRule>
  readonly bits: Array<number>
}

export const enginesOf = (rules: ReadonlyArray<BankRule.BankRule>, kind: Kind): Engines => {
  const byKey = new Map<string, number>()
  const out: Engines = { rules: [], bits: [] }
  rules.forEach((rule, i) => {
    const c = BankRule.canonical(rule)
    // DAIL pays on working days (only the calendar counts), DAI7 on every day (nothing counts); a moved code moves
    // by the convention on the calendar, and not at all under `none` (whatever the calendar); a recurrence with its
    // own convention moves by it on the calendar, and not at all for nominal dates
    const key =
      kind === 0
        ? BankRule.calendarName(c)
        : kind === 1
          ? ""
          : c.convention === "none"
            ? "none"
            : kind === 3
              ? BankRule.calendarName(c)
              : BankRule.key(c)
    let e = byKey.get(key)
    if (e === undefined) {
      e = out.rules.push(rule) - 1
      out.bits.push(0)
      byKey.set(key, e)
    }
    out.bits[e] = (out.bits[e]! | (1 << i)) >>> 0
  })
  return out
}

// ---------------------------------------------------------------------------
// reconciliation
// ---------------------------------------------------------------------------

/**
 * Reconciles a listing made on `asOf`: each order with a `nextDate` is compared with the first date on or after the
 * listing day under the rule in use and under every candidate rule, classified ({@link Status}), and the bank's rule
 * inferred from all of them ({@link infer}). Each order costs one plan and one first-date query per distinct
 * computation among the rules (at most 17 of the default 21), and a second query only when the date is the
 * listing day or no rule gives it.
 */
export const reconcile = (orders: Iterable<ReconcilableOrder>, options: Options): Reconciliation => {
  const asOf = options.asOf
  const rules = distinctRules(options.rule ?? BankRule.defaultRule, options.candidates ?? candidates())
  const kinds = [enginesOf(rules, 0), enginesOf(rules, 1), enginesOf(rules, 2), enginesOf(rules, 3)] as const
  const inUseEngine = kinds.map((k) => k.bits.findIndex((b) => (b & 1) === 1))
  const plans: Array<Occurrence.Plan> = []
  const observations: Array<Observation> = []
  const withoutNextDate: Array<string> = []
  const skipped: Array<Skipped> = []
  const counts = { match: 0, explained: 0, stale: 0, anomaly: 0, unexplained: 0 }
  const byMask = new Map<number, number>()
  const nextDay = (asOf + 1) as LocalDate.LocalDate

  for (const order of orders) {
    const listed = order.nextDate
    if (listed === undefined) {
      withoutNextDate.push(order.orderId)
      continue
    }
    const kind = kindOf(order)
    const engines = kinds[kind]
    // the plans of this order, one per distinct computation
    let failed: string | undefined
    for (let e = 0; e < engines.rules.length; e++) {
      const plan = BankRule.plan(order, engines.rules[e]!)
      if (Result.isFailure(plan)) {
        failed = plan.failure.reason
        break
      }
      plans[e] = plan.success
    }
    if (failed !== undefined) {
      skipped.push({ orderId: order.orderId, reason: failed })
      continue
    }
    const own = inUseEngine[kind]!
    const expected = BankRule.listedDate(plans[own]!, asOf)
    if (listed < asOf) {
      counts.stale++
      observations.push(observation(order, listed, expected, "stale", expected === asOf, 0))
      continue
    }
    let mask = 0
    for (let e = 0; e < engines.rules.length; e++) {
      const plan = plans[e]!
      const first = e === own ? expected : BankRule.listedDate(plan, asOf)
      // a payment due on the listing day may be made already: the next date is the bank's word too
      if (first === listed || (first === asOf && BankRule.listedDate(plan, nextDay) === listed)) {
        mask |= engines.bits[e]!
      }
    }
    mask >>>= 0
    let status: Status
    if ((mask & 1) === 1) status = "match"
    else if (mask !== 0) status = "explained"
    else {
      // a date of the order under some rule (on some other day), or a date no rule can give
      status = "anomaly"
      for (let e = 0; e < engines.rules.length; e++) {
        if (BankRule.listedDate(plans[e]!, listed) === listed) {
          status = "unexplained"
          break
        }
      }
    }
    counts[status]++
    byMask.set(mask, (byMask.get(mask) ?? 0) + 1)
    observations.push(observation(order, listed, expected, status, expected === asOf, mask))
  }

  const support = rules.map((_, i) => {
    let n = 0
    for (const [mask, count] of byMask) if (((mask >>> i) & 1) === 1) n += count
    return n
  })
  const evidence = observations.length - counts.stale
  const partial = { asOf, rules, observations, withoutNextDate, skipped, counts, support, evidence }
  return { ...partial, inference: infer([partial]) }
}

export const observation = (
  order: ReconcilableOrder,
  listed: LocalDate.LocalDate,
  expected: LocalDate.LocalDate | undefined,
  status: Status,
  dueOnListingDay: boolean,
  explaining: number
): Observation => {
  const frequency = Occurrence.codeOf(order)
  return {
    orderId: order.orderId,
    frequency,
    // words only for a recurrence (a code says itself): no string per observation of a large listing of codes
    rule:
      frequency !== undefined || order.recurrence === undefined
        ? undefined
        : Recurrence.describe(order.recurrence.rule),
    listed,
    expected,
    status,
    dueOnListingDay,
    explaining
  }
}

// ---------------------------------------------------------------------------
// inference
// ---------------------------------------------------------------------------

/**
 * The bank's rule from one or more listings: the rule (by its dates, `BankRule.key`) that explains the most
 * observations that are not stale, summed over the listings, with its support, the orderIds it does not explain and
 * the runner-up; when several rules explain the same most observations, or there is no evidence at all,
 * {@link NotEnoughEvidence} with the tied rules.
 */
export const infer = (
  listings: ReadonlyArray<Pick<Reconciliation, "rules" | "support" | "evidence" | "observations">>
): Inference => {
  const totals = new Map<string, { rule: BankRule.BankRule; support: number }>()
  let evidence = 0
  for (const listing of listings) {
    evidence += listing.evidence
    listing.rules.forEach((rule, i) => {
      const key = BankRule.key(rule)
      const found = totals.get(key)
      if (found === undefined) totals.set(key, { rule, support: listing.support[i] ?? 0 })
      else found.support += listing.support[i] ?? 0
    })
  }
  const ranked = [...totals.values()].sort((a, b) => b.support - a.support)
  const best = ranked[0]
  if (best === undefined) return { _tag: "NotEnoughEvidence", tied: [], support: 0, evidence }
  const tied = ranked.filter((r) => r.support === best.support)
  if (evidence === 0 || tied.length > 1) {
    return { _tag: "NotEnoughEvidence", tied: tied.map((r) => r.rule), support: best.support, evidence }
  }
  const key = BankRule.key(best.rule)
  const notExplained: Array<string> = []
  for (const listing of listings) {
    const i = listing.rules.findIndex((r) => BankRule.key(r) === key)
    for (const o of listing.observations) {
      if (o.status !== "stale" && (i < 0 || ((o.explaining >>> i) & 1) === 0)) notExplained.push(o.orderId)
    }
  }
  const second = ranked[1]
  return {
    _tag: "Inferred",
    rule: best.rule,
    support: best.support,
    evidence,
    notExplained,
    runnerUp: second === undefined ? undefined : { rule: second.rule, support: second.support }
  }
}

// ---------------------------------------------------------------------------
// queries
// ---------------------------------------------------------------------------

/** The rules that list an observation's date on the listing day, in the reconciliation's order. */
export const explainedBy = (
  reconciliation: Pick<Reconciliation, "rules">,
  observation: Observation
): Array<BankRule.BankRule> => reconciliation.rules.filter((_, i) => ((observation.explaining >>> i) & 1) === 1)

/**
 * The one rule to name for an observation: of the rules that list its date, the one that explains the most
 * observations of the listing (the inferred rule whenever it explains the date; the rule in use, then the candidates in
 * order, among equals); `undefined` when none does.
 */
export const explanation = (
  reconciliation: Pick<Reconciliation, "rules" | "support">,
  observation: Observation
): BankRule.BankRule | undefined => {
  let best = -1
  reconciliation.rules.forEach((_, i) => {
    if (((observation.explaining >>> i) & 1) === 0) return
    if (best < 0 || reconciliation.support[i]! > reconciliation.support[best]!) best = i
  })
  return best < 0 ? undefined : reconciliation.rules[best]
}

/** The rules that explain every observation that is not stale (all rules when nothing is evidence). */
export const consistentRules = (reconciliation: Reconciliation): Array<BankRule.BankRule> =>
  reconciliation.rules.filter((_, i) => reconciliation.support[i] === reconciliation.evidence)

/**
 * Whether a listing needs a person's attention: an anomaly, an unexplained date, or differences that no single rule
 * explains together. Everything matching, or every difference explained by one rule, is no finding; stale dates
 * are reported but are no finding.
 */
export const hasFindings = (reconciliation: Reconciliation): boolean =>
  reconciliation.counts.anomaly > 0 ||
  reconciliation.counts.unexplained > 0 ||
  consistentRules(reconciliation).length === 0

/** The observations that differ from the rule in use (explained, stale, anomaly, unexplained), in input order. */
export const differences = (reconciliation: Reconciliation): Array<Observation> =>
  reconciliation.observations.filter((o) => o.status !== "match")
