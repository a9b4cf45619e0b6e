/**
 * The balance forecast's engine (the public `Forecast`): one pass over the projection engine's day columns
 * (`internal/merge.ts`), each payment added to the day sums of its debtor account (out) and of its creditor account
 * (in) when they are the user's own, the sums kept as integer cents (a float-free safe-integer fast path spilling
 * into a bigint, as the cash-flow tables do) and each touched account's balance moved once per day as a bigint at
 * the account's scale. A day's payments are only made as objects for the accounts at risk that day, for the
 * payments shown but not netted and for the kept ladders. Scenario edits (a payment skipped or moved later) are a
 * function of (order, occurrence, execution day) applied as the columns are read.
 */
import type { LocalDate } from "@tppkit/core"
import { BigDecimal } from "effect"
import type * as Payment from "../Payment.ts"
import * as Merge from "./merge.ts"
import * as Plans from "./plans.ts"

/** One of the user's accounts as the engine reads it: the balance at the start of `date`, the line not to cross. */
export interface Account {
  readonly iban: string
  readonly currency: string
  readonly amount: BigDecimal.BigDecimal
  readonly date: LocalDate.LocalDate
  readonly threshold: BigDecimal.BigDecimal | undefined
}

/** A payment shown on an account's side but not added to its balance (its currency is not the account's). */
export interface Foreign {
  readonly iban: string
  readonly side: "out" | "in"
  readonly payment: Payment.Payment
}

/** One day of an account's ladder (`until` the last day before the next row, or the window's end). */
export interface Row {
  readonly date: LocalDate.LocalDate
  until: LocalDate.LocalDate
  readonly opening: BigDecimal.BigDecimal
  readonly out: BigDecimal.BigDecimal
  readonly in: BigDecimal.BigDecimal
  readonly closing: BigDecimal.BigDecimal
  readonly outCount: number
  readonly inCount: number
  readonly notNetted: ReadonlyArray<Foreign>
  readonly atRisk: boolean
}

/** A day whose closing balance is at or below zero or below the account's threshold, and the payments out on it. */
export interface RiskDay {
  readonly date: LocalDate.LocalDate
  until: LocalDate.LocalDate
  readonly closing: BigDecimal.BigDecimal
  readonly out: BigDecimal.BigDecimal
  readonly shortfall: BigDecimal.BigDecimal
  readonly reason: "zero" | "threshold"
  readonly payments: ReadonlyArray<Payment.Payment>
}

/** One account's result. */
export interface AccountResult {
  readonly index: number
  readonly start: LocalDate.LocalDate
  opening: BigDecimal.BigDecimal
  closing: BigDecimal.BigDecimal
  lowest: BigDecimal.BigDecimal
  lowestDate: LocalDate.LocalDate
  out: BigDecimal.BigDecimal
  in: BigDecimal.BigDecimal
  outCount: number
  inCount: number
  readonly riskDays: Array<RiskDay>
  rows: Array<Row> | undefined
}

/** What the engine returns. */
export interface Result {
  readonly accounts: Array<AccountResult>
  readonly notNetted: Array<Foreign>
  readonly withoutBalance: Array<{ readonly iban: string; readonly currency: string; readonly count: number }>
  readonly skipped: Array<Plans.Skipped>
}

/** Where a scenario puts a payment: its execution day, a later day, or -1 when it does not happen. */
export type Edit = (orderId: string, k: number, day: number) => number

/** The engine's settings. */
export interface Settings {
  readonly window: Plans.Window
  readonly options: Plans.Options | undefined
  /** Keep every account's ladder (else only those of `keep`). */
  readonly ladder: boolean
  readonly keep: ReadonlySet<string>
  /** The orderIds a scenario edits, and how. */
  readonly edited: ReadonlySet<string>
  readonly edit: Edit | undefined
}

const SAFE = 2 ** 52
const ZERO = BigDecimal.fromBigInt(0n)

const unitsOf = (amount: BigDecimal.BigDecimal, scale: number): bigint =>
  amount.scale <= scale
    ? amount.value * 10n ** BigInt(scale - amount.scale)
    : amount.value / 10n ** BigInt(amount.scale - scale)

const decimal = (units: bigint, scale: number): BigDecimal.BigDecimal => BigDecimal.make(units, scale)

/** The cents of a projectable amount (at most two decimals, `[9.2]`: a safe integer). */
const centsOf = (amount: BigDecimal.BigDecimal): number =>
  amount.scale <= 2
    ? Number(amount.value * 10n ** BigInt(2 - amount.scale))
    : Number(amount.value / 10n ** BigInt(amount.scale - 2))

/** A row of an account on the fast path: its amounts kept as cents, made decimals when read. */
class CentsRow implements Row {
  readonly date: LocalDate.LocalDate
  until: LocalDate.LocalDate
  readonly outCount: number
  readonly inCount: number
  readonly notNetted: ReadonlyArray<Foreign>
  readonly atRisk: boolean
  readonly #opening: number
  readonly #out: number
  readonly #in: number
  constructor(
    date: number,
    until: number,
    opening: number,
    out: number,
    inCents: number,
    outCount: number,
    inCount: number,
    notNetted: ReadonlyArray<Foreign>,
    atRisk: boolean
  ) {
    this.date = date as LocalDate.LocalDate
    this.until = until as LocalDate.LocalDate
    this.#opening = opening
    this.#out = out
    this.#in = inCents
    this.outCount = outCount
    this.inCount = inCount
    this.notNetted = notNetted
    this.atRisk = atRisk
  }
  get opening(): BigDecimal.BigDecimal {
    return decimal(BigInt(this.#opening), 2)
  }
  get out(): BigDecimal.BigDecimal {
    return decimal(BigInt(this.#out), 2)
  }
  get in(): BigDecimal.BigDecimal {
    return decimal(BigInt(this.#in), 2)
  }
  get closing(): BigDecimal.BigDecimal {
    return decimal(BigInt(this.#opening - this.#out + this.#in), 2)
  }
}

/** Runs the forecast of `accounts` over the projection of `orders`. */
export const run = (
  orders: ReadonlyArray<Plans.Order>,
  accounts: ReadonlyArray<Account>,
  settings: Settings
): Result => {
  const { window } = settings
  const to = window.to
  const n = accounts.length
  let first: number = window.from
  const byIban = new Map<string, number>()
  const scale = new Int32Array(n)
  const factor = new Array<bigint>(n)
  const balance = new Array<bigint>(n)
  const line = new Array<bigint>(n)
  const threshold = new Array<bigint | undefined>(n)
  const balanceDate = new Int32Array(n)
  const start = new Int32Array(n)
  const keep = new Uint8Array(n)
  // the fast path: an account at scale 2 keeps its balance, threshold and lowest point as safe integers of cents
  const fast = new Uint8Array(n)
  const fbal = new Float64Array(n)
  const fthr = new Float64Array(n)
  const flow = new Float64Array(n)
  for (let a = 0; a < n; a++) {
    const acc = accounts[a]!
    byIban.set(acc.iban, a)
    const s = Math.max(2, acc.amount.scale, acc.threshold?.scale ?? 0)
    scale[a] = s
    factor[a] = 10n ** BigInt(s - 2)
    balance[a] = unitsOf(acc.amount, s)
    const t = acc.threshold === undefined ? undefined : unitsOf(acc.threshold, s)
    threshold[a] = t
    line[a] = t !== undefined && t > 0n ? t : 0n
    balanceDate[a] = acc.date
    start[a] = Math.max(window.from, acc.date)
    keep[a] = settings.ladder || settings.keep.has(acc.iban) ? 1 : 0
    if (acc.date < first) first = acc.date
    const b = Number(balance[a]!)
    const thr = t === undefined ? Number.NaN : Number(t)
    if (s === 2 && Math.abs(b) < SAFE && (t === undefined || Math.abs(thr) < SAFE)) {
      fast[a] = 1
      fbal[a] = b
      fthr[a] = thr
    }
  }
  /** The balance's units now, whichever path the account is on. */
  const unitsNow = (a: number): bigint => (fast[a] === 1 ? BigInt(fbal[a]!) : balance[a]!)
  /** Moves an account off the fast path (a sum beyond the safe integers). */
  const toSlow = (a: number): void => {
    if (fast[a] === 0) return
    balance[a] = BigInt(fbal[a]!)
    if (hasLowest[a] === 1) lowest[a] = BigInt(flow[a]!)
    fast[a] = 0
  }
  const plans = Plans.plan(orders, { from: first as LocalDate.LocalDate, to }, settings.options, true)
  const templates = plans.templates
  const m = templates.length
  // per order: its debtor's and creditor's account (-1: not the user's), whether each side is netted, its cents
  const debtorOf = new Int32Array(m)
  const creditorOf = new Int32Array(m)
  const netDebtor = new Uint8Array(m)
  const netCreditor = new Uint8Array(m)
  const cents = new Float64Array(m)
  const editedOrder = new Uint8Array(m)
  const unknown = new Int32Array(m)
  for (let o = 0; o < m; o++) {
    const t = templates[o]!
    const d = byIban.get(t.debtorIban) ?? -1
    const c = byIban.get(t.creditorIban) ?? -1
    debtorOf[o] = d
    creditorOf[o] = c
    netDebtor[o] = d >= 0 && accounts[d]!.currency === t.currency ? 1 : 0
    netCreditor[o] = c >= 0 && accounts[c]!.currency === t.currency ? 1 : 0
    cents[o] = centsOf(t.amount)
    editedOrder[o] = settings.edit !== undefined && settings.edited.has(t.orderId) ? 1 : 0
  }

  const lowest = new Array<bigint>(n)
  const hasLowest = new Uint8Array(n)
  const results: Array<AccountResult> = accounts.map((acc, a) => ({
    index: a,
    start: start[a] as LocalDate.LocalDate,
    opening: acc.amount,
    closing: acc.amount,
    lowest: acc.amount,
    lowestDate: start[a] as LocalDate.LocalDate,
    out: ZERO,
    in: ZERO,
    outCount: 0,
    inCount: 0,
    riskDays: [],
    rows: keep[a] === 1 ? [] : undefined
  }))
  const begun = new Uint8Array(n)
  const totalOut = new Array<bigint>(n).fill(0n)
  const totalIn = new Array<bigint>(n).fill(0n)
  const totOutF = new Float64Array(n)
  const totInF = new Float64Array(n)
  const openRisk = new Array<RiskDay | undefined>(n)
  const lastRow = new Array<Row | undefined>(n)
  // the day sums of the touched accounts
  const dayOut = new Float64Array(n)
  const dayIn = new Float64Array(n)
  const bigOut = new Array<bigint>(n).fill(0n)
  const bigIn = new Array<bigint>(n).fill(0n)
  const outCount = new Int32Array(n)
  const inCount = new Int32Array(n)
  const touchedOn = new Int32Array(n).fill(-1)
  const touched: Array<number> = []
  const dayForeign = new Map<number, Array<Foreign>>()
  const notNetted: Array<Foreign> = []

  const edit = settings.edit
  // payments a scenario moved to a later day, per day
  const delayed = new Map<number, Array<number>>()
  const delayedDays: Array<number> = []

  /** The start row of an account (the opening balance on its first day, no payments), made once. */
  const begin = (a: number): void => {
    if (begun[a] === 1) return
    begun[a] = 1
    const r = results[a]!
    const s = scale[a]!
    r.opening = decimal(unitsNow(a), s)
  }

  const touch = (a: number, day: number): void => {
    if (touchedOn[a] !== day) {
      touchedOn[a] = day
      touched.push(a)
    }
  }

  const foreign = (a: number, side: "out" | "in", o: number, k: number, nominal: number, day: number): void => {
    if (day < start[a]!) return
    const f: Foreign = { iban: accounts[a]!.iban, side, payment: Plans.payment(templates[o]!, k, nominal, day) }
    notNetted.push(f)
    if (keep[a] === 1) {
      let list = dayForeign.get(a)
      if (list === undefined) {
        list = []
        dayForeign.set(a, list)
      }
      list.push(f)
      touch(a, day)
    }
  }

  /** Adds one payment of order `o` on `day` to its accounts' day sums. */
  const add = (o: number, k: number, nominal: number, day: number): void => {
    const d = debtorOf[o]!
    const c = creditorOf[o]!
    if (d >= 0) {
      if (day >= balanceDate[d]!) {
        if (netDebtor[o] === 1) {
          touch(d, day)
          const sum = dayOut[d]! + cents[o]!
          if (sum > SAFE) {
            bigOut[d] = bigOut[d]! + BigInt(sum)
            dayOut[d] = 0
          } else dayOut[d] = sum
          outCount[d]!++
        } else foreign(d, "out", o, k, nominal, day)
      }
    } else if (c < 0 && day >= window.from) unknown[o]!++
    if (c >= 0 && day >= balanceDate[c]!) {
      if (netCreditor[o] === 1) {
        touch(c, day)
        const sum = dayIn[c]! + cents[o]!
        if (sum > SAFE) {
          bigIn[c] = bigIn[c]! + BigInt(sum)
          dayIn[c] = 0
        } else dayIn[c] = sum
        inCount[c]!++
      } else foreign(c, "in", o, k, nominal, day)
    }
  }

  let columns: Merge.Day | undefined
  /** Every payment of `day` (the merge's columns, then the payments moved to it), edits applied. */
  const each = (day: number, f: (o: number, k: number, nominal: number) => void, moving: boolean): void => {
    if (columns !== undefined && columns.day === day) {
      const { order, k, nominal, length } = columns
      for (let j = 0; j < length; j++) {
        const o = order[j]!
        if (editedOrder[o] === 1) {
          const to = edit!(templates[o]!.orderId, k[j]!, day)
          if (to !== day) {
            if (moving && to > day) {
              let list = delayed.get(to)
              if (list === undefined) {
                list = []
                delayed.set(to, list)
                let x = delayedDays.length
                delayedDays.push(to)
                while (x > 0 && delayedDays[x - 1]! < to) {
                  delayedDays[x] = delayedDays[x - 1]!
                  x--
                }
                delayedDays[x] = to
              }
              list.push(o, k[j]!, nominal[j]!)
            }
            continue
          }
        }
        f(o, k[j]!, nominal[j]!)
      }
    }
    const moved = delayed.get(day)
    if (moved !== undefined) for (let x = 0; x < moved.length; x += 3) f(moved[x]!, moved[x + 1]!, moved[x + 2]!)
  }

  /** Moves every touched account's balance by its day sums; records rows, the lowest point and the risk days. */
  const close = (day: number): void => {
    let risky: Array<number> | undefined
    const riskyOut = new Map<number, bigint>()
    for (const a of touched) {
      if (fast[a] === 1 && bigOut[a] === 0n && bigIn[a] === 0n) {
        const o = dayOut[a]!
        const i = dayIn[a]!
        const before = fbal[a]!
        const after = before - o + i
        if (after < SAFE && after > -SAFE) {
          const inWindow = day >= start[a]!
          if (inWindow && begun[a] === 0) {
            begin(a)
            if (day > start[a]!) startRow(a)
          }
          fbal[a] = after
          if (inWindow) {
            const r = results[a]!
            let t = totOutF[a]! + o
            if (t > SAFE) {
              totalOut[a] = totalOut[a]! + BigInt(t)
              t = 0
            }
            totOutF[a] = t
            t = totInF[a]! + i
            if (t > SAFE) {
              totalIn[a] = totalIn[a]! + BigInt(t)
              t = 0
            }
            totInF[a] = t
            r.outCount += outCount[a]!
            r.inCount += inCount[a]!
            const open = openRisk[a]
            if (open !== undefined) {
              open.until = (day - 1) as LocalDate.LocalDate
              openRisk[a] = undefined
            }
            const prev = lastRow[a]
            if (prev !== undefined) prev.until = (day - 1) as LocalDate.LocalDate
            const atRisk = after <= 0 || after < fthr[a]!
            if (hasLowest[a] === 0 || after < flow[a]!) {
              hasLowest[a] = 1
              flow[a] = after
              r.lowestDate = day as LocalDate.LocalDate
            }
            if (atRisk) {
              if (risky === undefined) risky = []
              risky.push(a)
              riskyOut.set(a, BigInt(o))
            }
            if (keep[a] === 1) {
              const row = new CentsRow(
                day,
                to,
                before,
                o,
                i,
                outCount[a]!,
                inCount[a]!,
                dayForeign.get(a) ?? [],
                atRisk
              )
              r.rows!.push(row)
              lastRow[a] = row
            }
          }
          dayOut[a] = 0
          dayIn[a] = 0
          outCount[a] = 0
          inCount[a] = 0
          continue
        }
      }
      toSlow(a)
      const f = factor[a]!
      const outCents = bigOut[a]! + BigInt(dayOut[a]!)
      const inCents = bigIn[a]! + BigInt(dayIn[a]!)
      const outUnits = outCents * f
      const inUnits = inCents * f
      const inWindow = day >= start[a]!
      if (inWindow && begun[a] === 0) {
        if (day > start[a]!) {
          begin(a)
          startRow(a)
        } else begin(a)
      }
      const before = balance[a]!
      const after = before - outUnits + inUnits
      balance[a] = after
      if (inWindow) {
        const r = results[a]!
        totalOut[a] = totalOut[a]! + outCents
        totalIn[a] = totalIn[a]! + inCents
        r.outCount += outCount[a]!
        r.inCount += inCount[a]!
        const open = openRisk[a]
        if (open !== undefined) {
          open.until = (day - 1) as LocalDate.LocalDate
          openRisk[a] = undefined
        }
        const prev = lastRow[a]
        if (prev !== undefined) prev.until = (day - 1) as LocalDate.LocalDate
        const s = scale[a]!
        const atRisk = isRisk(a, after)
        if (hasLowest[a] === 0 || after < lowest[a]!) {
          hasLowest[a] = 1
          lowest[a] = after
          r.lowestDate = day as LocalDate.LocalDate
        }
        if (atRisk) {
          if (risky === undefined) risky = []
          risky.push(a)
          riskyOut.set(a, outUnits)
        }
        if (keep[a] === 1) {
          const row: Row = {
            date: day as LocalDate.LocalDate,
            until: to as LocalDate.LocalDate,
            opening: decimal(before, s),
            out: decimal(outUnits, s),
            in: decimal(inUnits, s),
            closing: decimal(after, s),
            outCount: outCount[a]!,
            inCount: inCount[a]!,
            notNetted: dayForeign.get(a) ?? [],
            atRisk
          }
          r.rows!.push(row)
          lastRow[a] = row
        }
      }
      dayOut[a] = 0
      dayIn[a] = 0
      bigOut[a] = 0n
      bigIn[a] = 0n
      outCount[a] = 0
      inCount[a] = 0
    }
    if (risky !== undefined) {
      const isRisky = new Set(risky)
      const paid = new Map<number, Array<Payment.Payment>>()
      each(
        day,
        (o, k, nominal) => {
          const d = debtorOf[o]!
          if (d >= 0 && isRisky.has(d)) {
            let list = paid.get(d)
            if (list === undefined) {
              list = []
              paid.set(d, list)
            }
            list.push(Plans.payment(templates[o]!, k, nominal, day))
          }
        },
        false
      )
      for (const a of risky) {
        const s = scale[a]!
        const closing = unitsNow(a)
        const r = results[a]!
        const outUnits = riskyOut.get(a)!
        const risk: RiskDay = {
          date: day as LocalDate.LocalDate,
          until: to as LocalDate.LocalDate,
          closing: decimal(closing, s),
          out: decimal(outUnits, s),
          shortfall: decimal(line[a]! - closing, s),
          reason: reasonOf(closing),
          payments: paid.get(a) ?? []
        }
        r.riskDays.push(risk)
        openRisk[a] = risk
      }
    }
    touched.length = 0
    dayForeign.clear()
  }

  const isRisk = (a: number, units: bigint): boolean => {
    const t = threshold[a]
    return units <= 0n || (t !== undefined && units < t)
  }
  const reasonOf = (units: bigint): "zero" | "threshold" => (units <= 0n ? "zero" : "threshold")

  /** The row of an account's first day without payments (its opening balance), and a risk day if it is one. */
  const startRow = (a: number): void => {
    const r = results[a]!
    const s = scale[a]!
    const units = unitsNow(a)
    const value = decimal(units, s)
    const atRisk = isRisk(a, units)
    hasLowest[a] = 1
    if (fast[a] === 1) flow[a] = fbal[a]!
    else lowest[a] = units
    r.lowestDate = start[a] as LocalDate.LocalDate
    if (keep[a] === 1) {
      const row: Row = {
        date: start[a] as LocalDate.LocalDate,
        until: to as LocalDate.LocalDate,
        opening: value,
        out: ZERO,
        in: ZERO,
        closing: value,
        outCount: 0,
        inCount: 0,
        notNetted: [],
        atRisk
      }
      r.rows!.push(row)
      lastRow[a] = row
    }
    if (atRisk) {
      const risk: RiskDay = {
        date: start[a] as LocalDate.LocalDate,
        until: to as LocalDate.LocalDate,
        closing: value,
        out: ZERO,
        shortfall: decimal(line[a]! - units, s),
        reason: reasonOf(units),
        payments: []
      }
      r.riskDays.push(risk)
      openRisk[a] = risk
    }
  }

  const days = Merge.days(plans, { from: first as LocalDate.LocalDate, to })
  let next = days.next()
  for (;;) {
    const mergeDay = next.done === true ? Number.POSITIVE_INFINITY : next.value.day
    const delayDay = delayedDays.length > 0 ? delayedDays[delayedDays.length - 1]! : Number.POSITIVE_INFINITY
    const day = Math.min(mergeDay, delayDay)
    if (day > to) break
    columns = mergeDay === day ? (next.value as Merge.Day) : undefined
    each(day, (o, k, nominal) => add(o, k, nominal, day), true)
    close(day)
    if (delayDay === day) {
      delayed.delete(day)
      delayedDays.pop()
    }
    if (mergeDay === day) next = days.next()
  }
  columns = undefined

  for (let a = 0; a < n; a++) {
    const r = results[a]!
    if (start[a]! > to) continue
    if (begun[a] === 0) {
      begin(a)
      startRow(a)
    }
    const s = scale[a]!
    r.closing = decimal(unitsNow(a), s)
    r.lowest = decimal(fast[a] === 1 ? BigInt(flow[a]!) : lowest[a]!, s)
    r.out = decimal((totalOut[a]! + BigInt(totOutF[a]!)) * factor[a]!, s)
    r.in = decimal((totalIn[a]! + BigInt(totInF[a]!)) * factor[a]!, s)
  }

  const unknownBy = new Map<string, { iban: string; currency: string; count: number }>()
  for (let o = 0; o < m; o++) {
    if (unknown[o] === 0) continue
    const t = templates[o]!
    const key = `${t.debtorIban} ${t.currency}`
    const u = unknownBy.get(key) ?? { iban: t.debtorIban, currency: t.currency, count: 0 }
    u.count += unknown[o]!
    unknownBy.set(key, u)
  }
  const withoutBalance = [...unknownBy.values()].sort((x, y) =>
    x.iban < y.iban ? -1 : x.iban > y.iban ? 1 : x.currency < y.currency ? -1 : x.currency > y.currency ? 1 : 0
  )
  return { accounts: results, notNetted, withoutBalance, skipped: plans.skipped }
}
