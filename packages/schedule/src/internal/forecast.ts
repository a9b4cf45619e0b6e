/**
 * The balance forecast's engine (the public `Forecast`), our own because speed demands it (BENCHMARKS.md, "A balance
 * forecast against projecting with totals"). It never makes a payment object for a payment that nobody looks at. It
 * reads the same plans as `Projection.totals` and goes one account at a time over small day arrays (sums of cents and
 * counts, out and in), filled by the account's orders as debtor and as creditor: an order paying every day (DAI7) as
 * two differences, a weekly one as a run of every 7th nominal day moved to its execution days through the
 * convention's table of the calendar, the others walked occurrence by occurrence. The days are then read once: the
 * balance moves on each day with payments, and the lowest point and the days at risk are found. Nothing more is kept:
 * an account's ladder is made when read, by reading the account again with the same steps (the last ones read stay
 * made), so that a forecast of many accounts holds one ladder at a time. Payments are made only for the risk days
 * (found again in a second pass over the accounts that have risk days: their orders walked over those days), for
 * those not netted (another currency) and for those a scenario moves.
 *
 * Exact: amounts are integer cents (`[9.2]`), and a day's or balance's sum is a float only while the sum of the
 * magnitudes it was made from stays far below 2^53; past that the account's days are summed again as bigints and its
 * balance becomes a bigint at its scale (an account whose balance or threshold has more than two decimals is on
 * bigints from the start).
 */
import { BusinessDayConvention, type LocalDate, Occurrence } from "@tppkit/core"
import { BigDecimal } from "effect"
import type * as Payment from "../Payment.ts"
import type { NotNetted as Foreign, RiskDay, Row } from "./forecastTypes.ts"
import * as Plans from "./plans.ts"

/** One of the user's accounts as the engine reads it: the balance at the start of `date`, the line not to cross. */
export interface Account {
  readonly iban: string
  readonly currency: string
  readonly amount: BigDecimal.BigDecimal
  readonly date: LocalDate.LocalDate
  readonly threshold: BigDecimal.BigDecimal | undefined
}

/**
 * A risk day as the engine keeps it: its payments as (order, k, nominal) triples in projection order, made into
 * payments when first read; `count` is every payment out that day, the triples the first of them the forecast's
 * bound on listed payments left room for (`Settings.atRiskLimit`).
 */
class RiskDayOut implements RiskDay {
  readonly date: LocalDate.LocalDate
  until: LocalDate.LocalDate
  readonly closing: BigDecimal.BigDecimal
  readonly out: BigDecimal.BigDecimal
  readonly shortfall: BigDecimal.BigDecimal
  readonly reason: "zero" | "threshold"
  readonly count: number
  triples: ReadonlyArray<number> = []
  made: ReadonlyArray<Payment.Payment> | undefined = undefined
  readonly templates: ReadonlyArray<Plans.Template>
  constructor(
    date: number,
    until: number,
    closing: BigDecimal.BigDecimal,
    out: BigDecimal.BigDecimal,
    shortfall: BigDecimal.BigDecimal,
    reason: "zero" | "threshold",
    templates: ReadonlyArray<Plans.Template>,
    count: number
  ) {
    this.date = date as LocalDate.LocalDate
    this.until = until as LocalDate.LocalDate
    this.closing = closing
    this.out = out
    this.shortfall = shortfall
    this.reason = reason
    this.templates = templates
    this.count = count
  }
  get payments(): ReadonlyArray<Payment.Payment> {
    if (this.made === undefined) {
      const t = this.triples
      const out = new Array<Payment.Payment>(t.length / 3)
      for (let j = 0; j < t.length; j += 3)
        out[j / 3] = Plans.payment(this.templates[t[j]!]!, t[j + 1]!, t[j + 2]!, this.date)
      this.made = out
    }
    return this.made
  }
}

/**
 * One account's result; `rows` (when kept) are made when read, by reading the account's orders again (those of the
 * last accounts read stay made).
 */
export interface AccountResult {
  readonly index: number
  readonly start: LocalDate.LocalDate
  readonly opening: BigDecimal.BigDecimal
  readonly closing: BigDecimal.BigDecimal
  readonly lowest: BigDecimal.BigDecimal
  readonly lowestDate: LocalDate.LocalDate
  readonly out: BigDecimal.BigDecimal
  readonly in: BigDecimal.BigDecimal
  readonly outCount: number
  readonly inCount: number
  readonly riskDays: ReadonlyArray<RiskDay>
  readonly rows: ReadonlyArray<Row> | undefined
}

/** What the engine returns. */
export interface Result {
  readonly accounts: Array<AccountResult>
  /** Every listed payment of every risk day, earliest first (`Payment.compare`), made when called. */
  readonly atRisk: () => Array<Payment.Payment>
  /** Every payment out on a risk day, listed or not (`Settings.atRiskLimit`). */
  readonly atRiskCount: number
  readonly notNetted: Array<Foreign>
  readonly withoutBalance: Array<{ readonly iban: string; readonly currency: string; readonly count: number }>
  readonly skipped: Array<Plans.Skipped>
  /** Every payment of an edited order from the first balance's date to the window's end, and where it went. */
  readonly edited: Array<EditedPayment>
}

/**
 * A payment of an order a scenario edits: the payment as the base forecast has it, the day the scenario makes it
 * due (-1: it does not happen), the day it executes then (its order's rule applied to the due day; -1: it does not
 * happen, {@link AFTER}: past 9999-12-31), and whether it moves at all: a payment executing before the balance date
 * of each of its accounts is in their balances already and stays where it was.
 */
export interface EditedPayment {
  readonly payment: Payment.Payment
  readonly due: number
  readonly day: number
  readonly moves: boolean
}

/** A day after every date: a payment delayed past 9999-12-31. */
export const AFTER = 0x7fffffff

/**
 * Where a scenario makes a payment of `orderId` executing on `day` due: the same day, a later one, or -1 (it does not
 * happen); the engine then executes it where its order's rule puts a payment due that day.
 */
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
  /**
   * The input position from which the orders are expected flows (a salary: someone else's order into an account),
   * not the user's: a debtor of the user's orders without a balance is listed in `withoutBalance` (default: none).
   */
  readonly flowsFrom?: number | undefined
  /**
   * The most payments of risk days listed (made into payments) over all accounts: the earliest risk days of each
   * account in turn, in the order of the accounts, a day's first payments when it does not fit whole; every risk day
   * still counts all of its payments (default {@link AT_RISK_LIMIT}).
   */
  readonly atRiskLimit?: number | undefined
}

/** The default bound on the payments of risk days listed: a forecast's memory stays bounded when many are at risk. */
export const AT_RISK_LIMIT = 100_000

/** A float sum stays exact while the magnitudes it was made from stay below this (far below 2^53: margin for rounding of the bound itself). */
const LIMIT = 2 ** 50
/** Days kept before the window's first day and after its last: how far a convention may move a weekly payment. */
const PAD = 16
const ZERO = BigDecimal.fromBigInt(0n)

const unitsOf = (amount: BigDecimal.BigDecimal, scale: number): bigint =>
  amount.scale <= scale
    ? amount.value * 10n ** BigInt(scale - amount.scale)
    : amount.value / 10n ** BigInt(amount.scale - scale)

const decimal = (units: bigint, scale: number): BigDecimal.BigDecimal => BigDecimal.make(units, scale)

/** The cents of a projectable amount (at most two decimals, `[9.2]`: a safe integer). */
const centsOf = (amount: BigDecimal.BigDecimal): number =>
  amount.scale === 2
    ? Number(amount.value)
    : amount.scale <= 2
      ? Number(amount.value * 10n ** BigInt(2 - amount.scale))
      : Number(amount.value / 10n ** BigInt(amount.scale - 2))

/** A row of an account at scale 2 kept as cents, its amounts made decimals when read. */
class CentsRow implements Row {
  readonly date: LocalDate.LocalDate
  readonly until: LocalDate.LocalDate
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

/** A row of an account on bigints (made as the account is read; `until` set when the ladder is read). */
interface BigRow {
  readonly date: number
  readonly opening: bigint
  readonly out: bigint
  readonly in: bigint
  readonly outCount: number
  readonly inCount: number
  readonly atRisk: boolean
}

/** How many numbers a row takes as the engine writes it (day, opening, out, in, outCount, inCount, atRisk). */
const ROW = 7

/** How many accounts' ladders stay made after they were read (the last ones read). */
const CACHED = 64

/**
 * One account's rows (on floats of cents) as numbers, written as its days are read again when its ladder is read;
 * the engine reuses it for every account.
 */
class Columns {
  data: Float64Array
  end = 0
  constructor(rows: number) {
    this.data = new Float64Array(rows * ROW)
  }
  push(day: number, opening: number, out: number, inCents: number, outCount: number, inCount: number, risk: boolean) {
    const at = this.end
    if (at + ROW > this.data.length) {
      const next = new Float64Array(Math.max(2 * this.data.length, at + ROW))
      next.set(this.data)
      this.data = next
    }
    const d = this.data
    d[at] = day
    d[at + 1] = opening
    d[at + 2] = out
    d[at + 3] = inCents
    d[at + 4] = outCount
    d[at + 5] = inCount
    d[at + 6] = risk ? 1 : 0
    this.end = at + ROW
  }
}

/** One account's result; its ladder (when kept) is made when read, by the engine reading the account again. */
class AccountOut implements AccountResult {
  in: BigDecimal.BigDecimal = ZERO // first: after another field `in` would read as the operator
  readonly index: number
  readonly start: LocalDate.LocalDate
  opening: BigDecimal.BigDecimal
  closing: BigDecimal.BigDecimal
  lowest: BigDecimal.BigDecimal
  lowestDate: LocalDate.LocalDate
  out: BigDecimal.BigDecimal = ZERO
  outCount = 0
  inCount = 0
  readonly riskDays: Array<RiskDayOut> = []
  readonly kept: boolean
  readonly engine: Engine
  constructor(index: number, start: number, opening: BigDecimal.BigDecimal, kept: boolean, engine: Engine) {
    this.index = index
    this.start = start as LocalDate.LocalDate
    this.lowestDate = start as LocalDate.LocalDate
    this.opening = opening
    this.closing = opening
    this.lowest = opening
    this.kept = kept
    this.engine = engine
  }
  get rows(): ReadonlyArray<Row> | undefined {
    return this.kept ? this.engine.rowsOf(this.index) : undefined
  }
}

/** A growable list of int32 tuples of a fixed width. */
class Tuples {
  data: Int32Array
  length = 0
  readonly width: number
  constructor(width: number) {
    this.width = width
    this.data = new Int32Array(width * 64)
  }
  push6(a: number, b: number, c: number, d: number, e: number, f: number): void {
    if ((this.length + 1) * this.width > this.data.length) {
      const next = new Int32Array(this.data.length * 2)
      next.set(this.data)
      this.data = next
    }
    const at = this.length++ * this.width
    this.data[at] = a
    this.data[at + 1] = b
    this.data[at + 2] = c
    this.data[at + 3] = d
    this.data[at + 4] = e
    this.data[at + 5] = f
  }
}

/**
 * A payment of `c` cents on every cell from `x` to before `y`, written as differences (summed along the cells when the
 * account's days are read): a run's days, or a weekly order's every 7th.
 */
const span = (sums: Float64Array, counts: Int32Array, x: number, y: number, c: number): void => {
  sums[x]! += c
  sums[y]! -= c
  counts[x]!++
  counts[y]!--
}

/** How many numbers an edited payment takes (order, k, nominal, day after the edit, day before it, due day). */
const EDIT = 6

/** How an order is read. */
const NONE = 0 // none of its sides is one of the accounts: only counted (`withoutBalance`)
const RUN = 1 // pays every calendar day (DAI7): added to a netted side as a run of days
const POINTS = 2 // walked occurrence by occurrence
const WEEKLY = 4 // WEEK: added to a netted side as a run of every 7th nominal day, moved to its execution day
const EDITED = 3 // a scenario edits it: its payments are listed once, edited, and added one by one

/**
 * Runs the forecast of `accounts` over the projection of `orders`, one account at a time: its orders (as debtor and
 * as creditor) fill a day array of sums and counts, which is then read day by day.
 */
export const run = (orders: ReadonlyArray<Plans.Order>, accounts: ReadonlyArray<Account>, settings: Settings): Result =>
  finish(steps(orders, accounts, settings))

/**
 * {@link run} in steps: a pause (`yield`) once the orders are planned and after each account, where a caller may give
 * the runtime its turn (an interrupt, a signal) while a large forecast computes; the result is the same.
 */
export function* steps(
  orders: ReadonlyArray<Plans.Order>,
  accounts: ReadonlyArray<Account>,
  settings: Settings
): Generator<void, Result> {
  const engine = new Engine(orders, accounts, settings)
  yield
  for (let a = 0; a < accounts.length; a++) {
    engine.account(a)
    yield
  }
  return engine.result()
}

/** A computation in steps run to its end without a pause. */
export const finish = <A>(computation: Generator<void, A>): A => {
  for (;;) {
    const step = computation.next()
    if (step.done === true) return step.value
  }
}

/**
 * The arithmetic of one account's scan (`Engine.scan`, whose day loop is written once): its balance, the balance
 * before the day's sums, the lowest point and the totals, on floats of cents ({@link FloatLedger}) or on bigints at the
 * account's scale ({@link BigLedger}).
 */
interface Ledger {
  /** Adds the day's sums (cell `x` of the day arrays, unless the ledger has its own) to the balance. */
  move(outC: Float64Array, inC: Float64Array, x: number): void
  /** Adds the day's sums to the totals. */
  count(): void
  /** Whether the balance is at or below zero or below the account's threshold. */
  atRisk(): boolean
  /** Whether the balance is below the lowest point so far. */
  belowLow(): boolean
  /** Makes the balance the lowest point. */
  lowHere(): void
  /** The balance as a decimal, or the balance before the day's sums (`before`). */
  opening(before: boolean): BigDecimal.BigDecimal
  /** Records a risk day at the balance, with the day's sums out (none when `count` is 0). */
  risk(engine: Engine, day: number, count: number): void
  /** Writes the day's row for the ladder (without netted payments: the balance and zero sums). */
  row(day: number, outCount: number, inCount: number, atRisk: boolean): void
  /** Writes the closing, lowest point and totals into the result. */
  settle(r: AccountOut): void
}

/** A scan's arithmetic on floats of cents (every sum far below 2^53). */
class FloatLedger implements Ledger {
  // the balance, the balance before the day, the lowest point, the totals out and in, the day's sums out and in: a
  // float array, as float fields or locals V8 boxed one of them in every pass (some 30 MB of garbage per forecast of
  // 10,000 accounts)
  readonly f = new Float64Array(7)
  threshold = Number.NEGATIVE_INFINITY
  columns: Columns | undefined = undefined
  reset(balance: number, threshold: bigint | undefined, columns: Columns | undefined): this {
    this.f.fill(0)
    this.f[0] = balance
    this.threshold = threshold === undefined ? Number.NEGATIVE_INFINITY : Number(threshold)
    this.columns = columns
    return this
  }
  move(outC: Float64Array, inC: Float64Array, x: number): void {
    const f = this.f
    const o = outC[x]!
    const i = inC[x]!
    f[1] = f[0]!
    f[5] = o
    f[6] = i
    f[0] = f[1]! - o + i
  }
  count(): void {
    const f = this.f
    f[3]! += f[5]!
    f[4]! += f[6]!
  }
  atRisk(): boolean {
    const bal = this.f[0]!
    return bal <= 0 || bal < this.threshold
  }
  belowLow(): boolean {
    return this.f[0]! < this.f[2]!
  }
  lowHere(): void {
    this.f[2] = this.f[0]!
  }
  opening(before: boolean): BigDecimal.BigDecimal {
    return decimal(BigInt(this.f[before ? 1 : 0]!), 2)
  }
  risk(engine: Engine, day: number, count: number): void {
    engine.riskDay(day, BigInt(this.f[0]!), count === 0 ? 0n : BigInt(this.f[5]!), count)
  }
  row(day: number, outCount: number, inCount: number, atRisk: boolean): void {
    const f = this.f
    if (outCount === 0 && inCount === 0) this.columns!.push(day, f[0]!, 0, 0, 0, 0, atRisk)
    else this.columns!.push(day, f[1]!, f[5]!, f[6]!, outCount, inCount, atRisk)
  }
  settle(r: AccountOut): void {
    const f = this.f
    r.closing = decimal(BigInt(f[0]!), 2)
    r.lowest = decimal(BigInt(f[2]!), 2)
    r.out = decimal(BigInt(f[3]!), 2)
    r.in = decimal(BigInt(f[4]!), 2)
  }
}

/** A scan's arithmetic on bigints at the account's scale (`exact`: the day sums in cents, when past floats). */
class BigLedger implements Ledger {
  balance = 0n
  before = 0n
  low = 0n
  totalOut = 0n
  totalIn = 0n
  dayOut = 0n
  dayIn = 0n
  scale = 2
  factor = 1n
  threshold: bigint | undefined = undefined
  exact: { out: Array<bigint>; in: Array<bigint> } | undefined = undefined
  rows: Array<BigRow> | undefined = undefined
  reset(
    balance: bigint,
    scale: number,
    factor: bigint,
    threshold: bigint | undefined,
    exact: { out: Array<bigint>; in: Array<bigint> } | undefined,
    rows: Array<BigRow> | undefined
  ): this {
    this.balance = balance
    this.before = this.low = this.totalOut = this.totalIn = this.dayOut = this.dayIn = 0n
    this.scale = scale
    this.factor = factor
    this.threshold = threshold
    this.exact = exact
    this.rows = rows
    return this
  }
  move(outC: Float64Array, inC: Float64Array, x: number): void {
    const exact = this.exact
    this.dayOut = (exact === undefined ? BigInt(outC[x]!) : exact.out[x]!) * this.factor
    this.dayIn = (exact === undefined ? BigInt(inC[x]!) : exact.in[x]!) * this.factor
    this.before = this.balance
    this.balance = this.before - this.dayOut + this.dayIn
  }
  count(): void {
    this.totalOut += this.dayOut
    this.totalIn += this.dayIn
  }
  atRisk(): boolean {
    const t = this.threshold
    return this.balance <= 0n || (t !== undefined && this.balance < t)
  }
  belowLow(): boolean {
    return this.balance < this.low
  }
  lowHere(): void {
    this.low = this.balance
  }
  opening(before: boolean): BigDecimal.BigDecimal {
    return decimal(before ? this.before : this.balance, this.scale)
  }
  risk(engine: Engine, day: number, count: number): void {
    engine.riskDay(day, this.balance, count === 0 ? 0n : this.dayOut, count)
  }
  row(date: number, outCount: number, inCount: number, atRisk: boolean): void {
    const empty = outCount === 0 && inCount === 0
    this.rows!.push(
      empty
        ? { date, opening: this.balance, out: 0n, in: 0n, outCount: 0, inCount: 0, atRisk }
        : { date, opening: this.before, out: this.dayOut, in: this.dayIn, outCount, inCount, atRisk }
    )
  }
  settle(r: AccountOut): void {
    const s = this.scale
    r.closing = decimal(this.balance, s)
    r.lowest = decimal(this.low, s)
    r.out = decimal(this.totalOut, s)
    r.in = decimal(this.totalIn, s)
  }
}

/**
 * One run of the engine: the orders' columns, the accounts' settings, one account's day arrays and what is found.
 * Its steps are methods rather than closures made anew by every run, so that a process that forecasts again runs the
 * code the JIT already optimized instead of compiling it again.
 */
class Engine {
  readonly accounts: ReadonlyArray<Account>
  readonly settings: Settings
  readonly to: number
  // per account: the scale of its amounts (≥ 2), 10^(scale − 2), the line not to cross and the threshold in units,
  // the balance's date, the first day of its ladder, whether its ladder is kept
  readonly scale: Int32Array
  readonly factor: Array<bigint>
  readonly line: Array<bigint>
  readonly threshold: Array<bigint | undefined>
  readonly balanceDate: Int32Array
  readonly start: Int32Array
  readonly keep: Uint8Array
  readonly plans: Plans.Plans
  readonly templates: ReadonlyArray<Plans.Template>
  readonly ranks: Int32Array
  readonly planList: ReadonlyArray<Occurrence.Plan>
  readonly starts: Int32Array
  // per order: its debtor's and creditor's account (-1: not the user's), whether each side is netted, cents, kind,
  // its payments counted for `withoutBalance`
  readonly debtorOf: Int32Array
  readonly creditorOf: Int32Array
  readonly netDebtor: Uint8Array
  readonly netCreditor: Uint8Array
  readonly cents: Float64Array
  readonly kind: Uint8Array
  readonly unknown: Int32Array
  // the runs (DAI7): first and last day, and k on day 0 (k = runK + day)
  readonly runFrom: Int32Array
  readonly runTo: Int32Array
  readonly runK: Float64Array
  // CSR: the orders per debtor account (out) and per creditor account (in), edited ones apart
  readonly outAt: Int32Array
  readonly inAt: Int32Array
  readonly outList: Int32Array
  readonly inList: Int32Array
  // the edited orders' payments (order, k, nominal, execution day after the edit, execution day before it, due day
  // after it; see EditedPayment), and per account those it counts (executing on or after its balance's date)
  readonly edited = new Tuples(EDIT)
  readonly editedOf = new Map<number, Array<number>>()
  // one account's day arrays: x = day − base, `PAD` days before `first` and after `to` (a nominal day moved into
  // the window, a run's end difference), and 7 more (a weekly run's end difference)
  readonly base: number
  readonly days: number
  readonly outC: Float64Array
  readonly inC: Float64Array
  readonly outN: Int32Array
  readonly inN: Int32Array
  // the runs (DAI7) as differences: +c on a run's first day, −c after its last (summed as the days are read)
  readonly rOutC: Float64Array
  readonly rInC: Float64Array
  readonly rOutN: Int32Array
  readonly rInN: Int32Array
  // the weekly runs by nominal day, each 7th cell (summed along every 7th day, then moved to the execution days)
  readonly wOutC: Float64Array
  readonly wInC: Float64Array
  readonly wOutN: Int32Array
  readonly wInN: Int32Array
  // per calendar: the execution day of each nominal day (as cells), made when first needed
  readonly convention: BusinessDayConvention.BusinessDayConvention
  readonly executionCells: Array<Int32Array | undefined>
  readonly notNetted: Array<{ foreign: Foreign; o: number; side: number }> = []
  readonly foreignOf = new Map<number, Map<number, Array<Foreign>>>()
  readonly results: Array<AccountOut>
  /** Whether an account is read again for its ladder (nothing found is recorded then, the rows are written). */
  replaying = false
  /** The rows of the account read again: on floats of cents, or on bigints. */
  readonly columns = new Columns(64)
  bigRows: Array<BigRow> | undefined = undefined
  /** The ladders of the last accounts read, by account (oldest first). */
  readonly ladders = new Map<number, Array<Row>>()
  /** Where an account read again writes its figures (its result is not touched). */
  readonly scratch: AccountOut
  // the account being read: its number, the first cell written, whether a run was added, the first weekly cell
  // written and the weekly runs' calendar (its sums' magnitudes are a local of `account`: a field turning from small
  // integer to float would give every engine a map of its own, see `kept`)
  a = 0
  minX = 0
  hasRun = false
  weekMin = 0
  weekCalendar = -1
  /** Per cell: the index of the account's risk day with payments out on that day, or -1. */
  readonly riskAt: Int32Array
  /** A walked order's execution days as cells (`walk`). */
  readonly dates: Int32Array
  /** The arithmetic of a scan on floats of cents, and on bigints (`scan`). */
  readonly floats = new FloatLedger()
  readonly bigints = new BigLedger()
  /** The account's risk days with payments out. */
  readonly risky: Array<RiskDayOut> = []
  openRisk: RiskDayOut | undefined = undefined
  /** Payments of risk days listed so far, the bound on them, and every payment out on a risk day. */
  listed = 0
  readonly listLimit: number
  atRiskCount = 0

  constructor(orders: ReadonlyArray<Plans.Order>, accounts: ReadonlyArray<Account>, settings: Settings) {
    this.accounts = accounts
    this.settings = settings
    this.listLimit = Math.max(0, Math.floor(settings.atRiskLimit ?? AT_RISK_LIMIT))
    const { window } = settings
    const to: number = window.to
    this.to = to
    const n = accounts.length
    let first: number = window.from
    const byIban = new Map<string, number>()
    const scale = new Int32Array(n)
    const factor = new Array<bigint>(n)
    const line = new Array<bigint>(n)
    const threshold = new Array<bigint | undefined>(n)
    const balanceDate = new Int32Array(n)
    const start = new Int32Array(n)
    const keep = new Uint8Array(n)
    for (let a = 0; a < n; a++) {
      const acc = accounts[a]!
      byIban.set(acc.iban, a)
      const s = Math.max(2, acc.amount.scale, acc.threshold?.scale ?? 0)
      scale[a] = s
      factor[a] = 10n ** BigInt(s - 2)
      const t = acc.threshold === undefined ? undefined : unitsOf(acc.threshold, s)
      threshold[a] = t
      line[a] = t !== undefined && t > 0n ? t : 0n
      balanceDate[a] = acc.date
      start[a] = Math.max(window.from, acc.date)
      keep[a] = settings.ladder || settings.keep.has(acc.iban) ? 1 : 0
      if (acc.date < first) first = acc.date
    }
    this.scale = scale
    this.factor = factor
    this.line = line
    this.threshold = threshold
    this.balanceDate = balanceDate
    this.start = start
    this.keep = keep
    const plans = Plans.plan(
      orders,
      { from: first as LocalDate.LocalDate, to: to as LocalDate.LocalDate },
      settings.options
    )
    this.plans = plans
    const { templates } = plans
    this.templates = templates
    this.ranks = plans.ranks
    const planList = plans.plans
    this.planList = planList
    const starts = plans.starts
    this.starts = starts
    const m = templates.length
    const edit = settings.edit
    const flowsFrom = settings.flowsFrom ?? Number.POSITIVE_INFINITY
    const inputIndex = plans.inputIndex

    const debtorOf = new Int32Array(m)
    const creditorOf = new Int32Array(m)
    const netDebtor = new Uint8Array(m)
    const netCreditor = new Uint8Array(m)
    const cents = new Float64Array(m)
    const kind = new Uint8Array(m)
    const unknown = new Int32Array(m)
    const runFrom = new Int32Array(m)
    const runTo = new Int32Array(m).fill(-1)
    const runK = new Float64Array(m)
    const outAt = new Int32Array(n + 1)
    const inAt = new Int32Array(n + 1)
    // the account of each distinct debtor IBAN, looked up once
    const accountOfString = new Int32Array(plans.strings.length).fill(-2)
    for (let o = 0; o < m; o++) {
      const t = templates[o]!
      const id = plans.debtorIds[o]!
      let d = accountOfString[id]!
      if (d === -2) {
        d = byIban.get(plans.strings[id]!) ?? -1
        accountOfString[id] = d
      }
      const c = t.creditorIban === undefined ? -1 : (byIban.get(t.creditorIban) ?? -1)
      debtorOf[o] = d
      creditorOf[o] = c
      netDebtor[o] = d >= 0 && accounts[d]!.currency === t.currency ? 1 : 0
      netCreditor[o] = c >= 0 && accounts[c]!.currency === t.currency ? 1 : 0
      const plan = planList[o]!
      const from = starts[o]! as LocalDate.LocalDate
      if (edit !== undefined && settings.edited.has(t.orderId)) {
        kind[o] = EDITED
      } else if (d < 0 && c < 0) {
        kind[o] = NONE
        const inWindow = Math.max(window.from, from) as LocalDate.LocalDate
        if (inWindow <= to) unknown[o] = Occurrence.count(plan, inWindow, to as LocalDate.LocalDate)
        continue
      } else if (Occurrence.fixedStep(plan) === 1) {
        kind[o] = RUN
        if (from <= to) {
          const head = Occurrence.firstOnOrAfter(plan, from)
          if (head !== undefined && head.execution <= to) {
            runFrom[o] = head.execution
            runTo[o] = head.execution + Occurrence.count(plan, from, to as LocalDate.LocalDate) - 1
            runK[o] = head.k - head.execution
          }
        }
      } else {
        kind[o] = plans.weekly[o] === 1 ? WEEKLY : POINTS
      }
      if (d < 0 && kind[o] !== EDITED && inputIndex[o]! < flowsFrom) {
        // the user's order from an account without a balance into one of the accounts: counted for `withoutBalance`
        const inWindow = Math.max(window.from, from) as LocalDate.LocalDate
        if (inWindow <= to) unknown[o] = Occurrence.count(plan, inWindow, to as LocalDate.LocalDate)
      }
      cents[o] = centsOf(t.amount)
      if (kind[o] === EDITED) continue
      if (d >= 0) outAt[d + 1]!++
      if (c >= 0) inAt[c + 1]!++
    }
    for (let a = 0; a < n; a++) {
      outAt[a + 1]! += outAt[a]!
      inAt[a + 1]! += inAt[a]!
    }
    const outList = new Int32Array(outAt[n]!)
    const inList = new Int32Array(inAt[n]!)
    {
      const outNext = outAt.slice(0, n)
      const inNext = inAt.slice(0, n)
      for (let o = 0; o < m; o++) {
        const k = kind[o]!
        if (k === NONE || k === EDITED) continue
        if (debtorOf[o]! >= 0) outList[outNext[debtorOf[o]!]!++] = o
        if (creditorOf[o]! >= 0) inList[inNext[creditorOf[o]!]!++] = o
      }
    }
    this.debtorOf = debtorOf
    this.creditorOf = creditorOf
    this.netDebtor = netDebtor
    this.netCreditor = netCreditor
    this.cents = cents
    this.kind = kind
    this.unknown = unknown
    this.runFrom = runFrom
    this.runTo = runTo
    this.runK = runK
    this.outAt = outAt
    this.inAt = inAt
    this.outList = outList
    this.inList = inList
    // the edited orders' payments, each listed once, and counted for its debtor and its creditor from the account's
    // balance date on (one executing before it is in the balance already: it stays there); a delayed payment executes
    // where its order's rule puts a payment due on its new day
    const edited = this.edited
    for (let o = 0; o < m; o++) {
      if (kind[o] !== EDITED) continue
      const from = starts[o]! as LocalDate.LocalDate
      if (from > to) continue
      const orderId = templates[o]!.orderId
      const plan = planList[o]!
      const d = debtorOf[o]!
      const c = creditorOf[o]!
      const byDebtor = d >= 0
      const byCreditor = c >= 0 && c !== d
      const listed = d < 0 && (c < 0 || inputIndex[o]! < flowsFrom)
      for (const occ of Occurrence.iterate(plan, from)) {
        const was = occ.execution
        if (was > to) break
        const due = edit!(orderId, occ.k, was)
        const day =
          due < 0 ? -1 : due === was ? was : (Occurrence.executionOfDue(plan, due as LocalDate.LocalDate) ?? AFTER)
        const i = edited.length
        edited.push6(o, occ.k, occ.nominal, day, was, due)
        const debtorCounts = byDebtor && was >= balanceDate[d]!
        const creditorCounts = byCreditor && was >= balanceDate[c]!
        if (debtorCounts) this.editedFor(d, i)
        if (creditorCounts) this.editedFor(c, i)
        if (listed) {
          const moves = d < 0 && c < 0 ? true : creditorCounts
          const at = moves ? day : was
          if (at >= window.from && at <= to) unknown[o]!++
        }
      }
    }

    const base = first - PAD
    const days = Math.max(0, to - first + 2 * PAD + 8)
    this.base = base
    this.days = days
    this.outC = new Float64Array(days)
    this.inC = new Float64Array(days)
    this.outN = new Int32Array(days)
    this.inN = new Int32Array(days)
    this.rOutC = new Float64Array(days)
    this.rInC = new Float64Array(days)
    this.rOutN = new Int32Array(days)
    this.rInN = new Int32Array(days)
    this.wOutC = new Float64Array(days)
    this.wInC = new Float64Array(days)
    this.wOutN = new Int32Array(days)
    this.wInN = new Int32Array(days)
    this.riskAt = new Int32Array(days).fill(-1)
    this.dates = new Int32Array(days)
    this.convention = settings.options?.convention ?? BusinessDayConvention.defaultConvention
    this.executionCells = new Array<Int32Array | undefined>(plans.calendars.length)
    this.results = accounts.map((acc, a) => new AccountOut(a, start[a]!, acc.amount, keep[a] === 1, this))
    this.scratch = new AccountOut(-1, 0, ZERO, false, this)
  }

  editedFor(a: number, i: number): void {
    const list = this.editedOf.get(a)
    if (list === undefined) this.editedOf.set(a, [i])
    else list.push(i)
  }

  /** The execution day of each nominal day of a calendar, as cells (made when first needed). */
  executionsOf(calendar: number): Int32Array {
    let cells = this.executionCells[calendar]
    if (cells === undefined) {
      const c = this.plans.calendars[calendar]!
      const { days, base, convention } = this
      cells = new Int32Array(days)
      for (let x = 0; x < days; x++) {
        const e = BusinessDayConvention.adjust((base + x) as LocalDate.LocalDate, convention, c)
        cells[x] = e === undefined ? -1 : e - base
      }
      this.executionCells[calendar] = cells
    }
    return cells
  }

  /**
   * The ladder of an account: its orders read again (the same steps, recording nothing), its rows written and made;
   * the ladders of the last {@link CACHED} accounts read are kept.
   */
  rowsOf(a: number): Array<Row> {
    const made = this.ladders.get(a)
    if (made !== undefined) return made
    this.columns.end = 0
    this.bigRows = undefined
    this.replaying = true
    try {
      this.account(a)
    } finally {
      this.replaying = false
    }
    const rows = this.read(a)
    if (this.ladders.size >= CACHED) this.ladders.delete(this.ladders.keys().next().value!)
    this.ladders.set(a, rows)
    return rows
  }

  /** Makes the rows of an account from what its days wrote. */
  read(a: number): Array<Row> {
    const s = this.scale[a]!
    const to = this.to
    const byDay = this.foreignOf.get(a)
    const out: Array<Row> = []
    const big = this.bigRows
    if (big !== undefined) {
      for (let x = 0; x < big.length; x++) {
        const r = big[x]!
        out.push({
          date: r.date as LocalDate.LocalDate,
          until: (x + 1 < big.length ? big[x + 1]!.date - 1 : to) as LocalDate.LocalDate,
          opening: decimal(r.opening, s),
          out: decimal(r.out, s),
          in: decimal(r.in, s),
          closing: decimal(r.opening - r.out + r.in, s),
          outCount: r.outCount,
          inCount: r.inCount,
          notNetted: notNettedOn(byDay, r.date),
          atRisk: r.atRisk
        })
      }
      return out
    }
    const d = this.columns.data
    const end = this.columns.end
    for (let i = 0; i < end; i += ROW) {
      const day = d[i]!
      out.push(
        new CentsRow(
          day,
          i + ROW < end ? d[i + ROW]! - 1 : to,
          d[i + 1]!,
          d[i + 2]!,
          d[i + 3]!,
          d[i + 4]!,
          d[i + 5]!,
          notNettedOn(byDay, day),
          d[i + 6] === 1
        )
      )
    }
    return out
  }

  /** Shows a payment on the account's side without adding it to its balance (another currency). */
  foreign(side: "out" | "in", o: number, k: number, nominal: number, day: number): void {
    const a = this.a
    if (day < this.start[a]!) return
    if (this.replaying) {
      // its ladder: a row on the day (shown from the first reading)
      if (day - this.base < this.minX) this.minX = day - this.base
      return
    }
    const f: Foreign = {
      iban: this.accounts[a]!.iban,
      side,
      payment: Plans.payment(this.templates[o]!, k, nominal, day)
    }
    this.notNetted.push({ foreign: f, o, side: side === "out" ? 0 : 1 })
    if (this.keep[a] === 1) {
      let byDay = this.foreignOf.get(a)
      if (byDay === undefined) {
        byDay = new Map()
        this.foreignOf.set(a, byDay)
      }
      const list = byDay.get(day)
      if (list === undefined) byDay.set(day, [f])
      else list.push(f)
      if (day - this.base < this.minX) this.minX = day - this.base
    }
  }

  /** Adds one payment (`netted`), or shows it on the account's side. */
  point(out: boolean, netted: boolean, o: number, k: number, nominal: number, day: number): void {
    if (!netted) {
      this.foreign(out ? "out" : "in", o, k, nominal, day)
      return
    }
    const x = day - this.base
    const c = this.cents[o]!
    if (out) {
      this.outC[x]! += c
      this.outN[x]!++
    } else {
      this.inC[x]! += c
      this.inN[x]!++
    }
    if (x < this.minX) this.minX = x
  }

  /**
   * A run's days from `from` as two differences (netted), or each of its payments shown (not netted); the cents
   * added.
   */
  runSide(out: boolean, netted: boolean, o: number, from: number): number {
    const lo = Math.max(this.runFrom[o]!, from)
    const hi = this.runTo[o]!
    if (lo > hi) return 0
    if (!netted) {
      const k = this.runK[o]!
      for (let day = Math.max(lo, this.start[this.a]!); day <= hi; day++) {
        this.foreign(out ? "out" : "in", o, k + day, day, day)
      }
      return 0
    }
    const c = this.cents[o]!
    const x = lo - this.base
    const y = hi + 1 - this.base
    if (out) span(this.rOutC, this.rOutN, x, y, c)
    else span(this.rInC, this.rInN, x, y, c)
    if (x < this.minX) this.minX = x
    this.hasRun = true
    return c * (hi - lo + 1)
  }

  /**
   * A weekly order's payments from `from` on (netted) as a run of every 7th nominal day, else walked; the cents
   * added.
   */
  weekSide(out: boolean, o: number, from: number): number {
    const to = this.to
    const plan = this.planList[o]!
    const lo = Math.max(this.starts[o]!, from) as LocalDate.LocalDate
    if (lo > to) return 0
    const head = Occurrence.firstOnOrAfter(plan, lo)
    if (head === undefined || head.execution > to) return 0
    const count = Occurrence.count(plan, lo, to as LocalDate.LocalDate)
    const x = head.nominal - this.base
    const y = head.nominal + 7 * count - this.base
    if (x < 0 || y >= this.days) return this.walk(out, true, o, from)
    const c = this.cents[o]!
    if (out) span(this.wOutC, this.wOutN, x, y, c)
    else span(this.wInC, this.wInN, x, y, c)
    if (x < this.weekMin) this.weekMin = x
    this.weekCalendar = this.plans.calendarOf[o]!
    return c * count
  }

  /** The weekly runs summed along every 7th day and moved from their nominal days to their execution days. */
  foldWeeks(): void {
    const { wOutC, wInC, wOutN, wInN, outC, inC, outN, inN, days, weekMin } = this
    for (let x = weekMin + 7; x < days; x++) {
      wOutC[x]! += wOutC[x - 7]!
      wInC[x]! += wInC[x - 7]!
      wOutN[x]! += wOutN[x - 7]!
      wInN[x]! += wInN[x - 7]!
    }
    const execution = this.executionsOf(this.weekCalendar)
    let minX = this.minX
    for (let x = weekMin; x < days; x++) {
      const no = wOutN[x]!
      const ni = wInN[x]!
      if (no === 0 && ni === 0) continue
      const e = execution[x]!
      outC[e]! += wOutC[x]!
      outN[e]! += no
      inC[e]! += wInC[x]!
      inN[e]! += ni
      if (e < minX) minX = e
    }
    this.minX = minX
    wOutC.fill(0, weekMin)
    wInC.fill(0, weekMin)
    wOutN.fill(0, weekMin)
    wInN.fill(0, weekMin)
  }

  /** Every payment of a walked order from `from` on; the cents added (none when not netted). */
  walk(out: boolean, netted: boolean, o: number, from: number): number {
    const to = this.to
    const plan = this.planList[o]!
    const lo = Math.max(this.starts[o]!, from)
    if (lo > to) return 0
    // netted, only the days are needed: written into `dates` without making the occurrences (else, or when more
    // than the cells, walked one by one)
    const dates = this.dates
    const count = netted
      ? Occurrence.executionsInto(plan, lo as LocalDate.LocalDate, to as LocalDate.LocalDate, dates, this.base)
      : -1
    if (count === 0) return 0
    if (count > 0) {
      const c = this.cents[o]!
      const sums = out ? this.outC : this.inC
      const counts = out ? this.outN : this.inN
      for (let i = 0; i < count; i++) {
        const x = dates[i]!
        sums[x]! += c
        counts[x]!++
      }
      if (dates[0]! < this.minX) this.minX = dates[0]!
      return count * c
    }
    let n = 0
    for (
      let occ = Occurrence.firstOnOrAfter(plan, lo as LocalDate.LocalDate);
      occ !== undefined && occ.execution <= to;
      occ = Occurrence.next(plan, occ)
    ) {
      this.point(out, netted, o, occ.k, occ.nominal, occ.execution)
      n++
    }
    return netted ? n * this.cents[o]! : 0
  }

  /** The account's exact day sums as bigints of cents (out, in), summed again from its orders. */
  exactCells(): { out: Array<bigint>; in: Array<bigint> } {
    const { a, days, base, to, cents, starts, planList } = this
    const sums = { out: new Array<bigint>(days).fill(0n), in: new Array<bigint>(days).fill(0n) }
    const from = this.balanceDate[a]!
    const add = (list: Int32Array, lo: number, hi: number, into: Array<bigint>, netted: Uint8Array) => {
      for (let x = lo; x < hi; x++) {
        const o = list[x]!
        if (netted[o] === 0) continue
        const c = BigInt(cents[o]!)
        const begin = Math.max(from, starts[o]!)
        if (begin > to) continue
        const plan = planList[o]!
        for (const occ of Occurrence.between(plan, begin as LocalDate.LocalDate, to as LocalDate.LocalDate)) {
          into[occ.execution - base]! += c
        }
      }
    }
    add(this.outList, this.outAt[a]!, this.outAt[a + 1]!, sums.out, this.netDebtor)
    add(this.inList, this.inAt[a]!, this.inAt[a + 1]!, sums.in, this.netCreditor)
    const edited = this.edited.data
    for (const i of this.editedOf.get(a) ?? []) {
      const o = edited[i * EDIT]!
      const day = edited[i * EDIT + 3]!
      if (day < from) continue
      if (this.debtorOf[o] === a && this.netDebtor[o] === 1) sums.out[day - base]! += BigInt(cents[o]!)
      if (this.creditorOf[o] === a && this.netCreditor[o] === 1) sums.in[day - base]! += BigInt(cents[o]!)
    }
    return sums
  }

  /** A risk day of the account on `day` (its payments found after the account is read). */
  riskDay(day: number, closing: bigint, outUnits: bigint, count: number): void {
    const a = this.a
    const s = this.scale[a]!
    const risk = new RiskDayOut(
      day,
      this.to,
      decimal(closing, s),
      decimal(outUnits, s),
      decimal(this.line[a]! - closing, s),
      closing <= 0n ? "zero" : "threshold",
      this.templates,
      count
    )
    this.results[a]!.riskDays.push(risk)
    this.openRisk = risk
    this.atRiskCount += count
    if (count > 0) this.risky.push(risk)
  }

  closeRisk(day: number): void {
    if (this.openRisk !== undefined) {
      this.openRisk.until = (day - 1) as LocalDate.LocalDate
      this.openRisk = undefined
    }
  }

  /**
   * The runs' differences summed along the days into the day arrays, from cell `lo` to `last`: the scans then read
   * one sum and one count a day and a side.
   */
  foldRuns(lo: number, last: number): void {
    const { outC, inC, outN, inN, rOutC, rInC, rOutN, rInN } = this
    let ro = 0
    let ri = 0
    let rno = 0
    let rni = 0
    for (let x = lo; x <= last; x++) {
      ro += rOutC[x]!
      ri += rInC[x]!
      rno += rOutN[x]!
      rni += rInN[x]!
      outC[x]! += ro
      inC[x]! += ri
      outN[x]! += rno
      inN[x]! += rni
    }
  }

  /**
   * Whether a day without netted payments makes a row: the start row (the opening balance), or, read again for the
   * ladder, a later day with payments not netted only.
   */
  rowWithoutFlow(day: number, st: number, byDay: Map<number, Array<Foreign>> | undefined): boolean {
    return day === st || (byDay !== undefined && day > st && byDay.has(day))
  }

  /**
   * Reads the account's day arrays: its balance day by day from `minX` (or its start) to the window's end, the lowest
   * point, the totals and the risk days; read again for its ladder, the rows written (into the scratch result, no risk
   * day recorded). The arithmetic is the ledger's: floats of cents while every sum stays far below 2^53, else bigints.
   */
  scan(ledger: Ledger): void {
    const a = this.a
    const { outC, inC, outN, inN, base } = this
    const replay = this.replaying
    const r = replay ? this.scratch : this.results[a]!
    const st = this.start[a]!
    const byDay = replay ? this.foreignOf.get(a) : undefined
    let nOut = 0
    let nIn = 0
    const last = this.to - base
    for (let x = Math.min(this.minX, st - base); x <= last; x++) {
      const no = outN[x]!
      const ni = inN[x]!
      const day = base + x
      if (no === 0 && ni === 0) {
        if (this.rowWithoutFlow(day, st, byDay)) {
          const atRisk = ledger.atRisk()
          if (day === st) {
            r.opening = ledger.opening(false)
            ledger.lowHere()
            r.lowestDate = day as LocalDate.LocalDate
            if (atRisk && !replay) ledger.risk(this, day, 0)
          }
          if (replay) ledger.row(day, 0, 0, atRisk)
        }
        continue
      }
      ledger.move(outC, inC, x)
      if (day < st) continue
      if (day === st) r.opening = ledger.opening(true)
      ledger.count()
      nOut += no
      nIn += ni
      if (this.openRisk !== undefined) this.closeRisk(day)
      const atRisk = ledger.atRisk()
      if (day === st || ledger.belowLow()) {
        ledger.lowHere()
        r.lowestDate = day as LocalDate.LocalDate
      }
      if (atRisk && !replay) ledger.risk(this, day, no)
      if (replay) ledger.row(day, no, ni, atRisk)
    }
    ledger.settle(r)
    r.outCount = nOut
    r.inCount = nIn
  }

  /**
   * The payments out on the account's risk days (netted ones), in projection order: found again, only for the
   * accounts with risk days, from the runs through those days and the other orders walked over them.
   */
  riskPayments(from: number): void {
    const a = this.a
    const { base, ranks, runFrom, runTo, runK, kind, netDebtor, outList, planList, starts, riskAt } = this
    // the days listed: the earliest while the bound leaves room, the last of them cut to what is left (memory stays
    // bounded however many payments are at risk); the others keep their count alone
    const risky = this.risky
    let listedDays = 0
    const room: Array<number> = [] // per listed day: the payments it lists
    while (listedDays < risky.length && this.listed < this.listLimit) {
      const n = Math.min(risky[listedDays]!.count, this.listLimit - this.listed)
      room.push(n)
      this.listed += n
      listedDays++
    }
    risky.length = listedDays
    if (listedDays === 0) return
    const found: Array<Array<number>> = [] // per risk day: (order, k, nominal) triples
    for (let j = 0; j < risky.length; j++) {
      riskAt[risky[j]!.date - base] = j
      found.push([])
    }
    const firstDay: number = risky[0]!.date
    const lastDay: number = risky[risky.length - 1]!.date
    for (let x = this.outAt[a]!; x < this.outAt[a + 1]!; x++) {
      const o = outList[x]!
      if (netDebtor[o] === 0) continue
      if (kind[o] === RUN) {
        const lo = Math.max(runFrom[o]!, from)
        const hi = runTo[o]!
        for (let j = 0; j < risky.length; j++) {
          const day: number = risky[j]!.date
          if (day >= lo && day <= hi) found[j]!.push(o, runK[o]! + day, day)
        }
        continue
      }
      // walked or weekly: its payments from the first risk day to the last
      const plan = planList[o]!
      const lo = Math.max(starts[o]!, from, firstDay)
      for (
        let occ = Occurrence.firstOnOrAfter(plan, lo as LocalDate.LocalDate);
        occ !== undefined && occ.execution <= lastDay;
        occ = Occurrence.next(plan, occ)
      ) {
        const j = riskAt[occ.execution - base]!
        if (j >= 0) found[j]!.push(o, occ.k, occ.nominal)
      }
    }
    const edited = this.edited.data
    for (const i of this.editedOf.get(a) ?? []) {
      const o = edited[i * EDIT]!
      const day = edited[i * EDIT + 3]!
      if (day < from || day > this.to || this.debtorOf[o] !== a || netDebtor[o] === 0) continue
      const j = riskAt[day - base]!
      if (j >= 0) found[j]!.push(o, edited[i * EDIT + 1]!, edited[i * EDIT + 2]!)
    }
    for (let j = 0; j < risky.length; j++) {
      const risk = risky[j]!
      riskAt[risk.date - base] = -1
      const triples = found[j]!
      const idx = Array.from({ length: triples.length / 3 }, (_, q) => q * 3)
      idx.sort(
        (x, y) =>
          ranks[triples[x]!]! - ranks[triples[y]!]! || triples[x + 2]! - triples[y + 2]! || triples[x]! - triples[y]!
      )
      idx.length = Math.min(idx.length, room[j]!)
      const sorted = new Array<number>(idx.length * 3)
      for (let q = 0; q < idx.length; q++) {
        sorted[3 * q] = triples[idx[q]!]!
        sorted[3 * q + 1] = triples[idx[q]! + 1]!
        sorted[3 * q + 2] = triples[idx[q]! + 2]!
      }
      risk.triples = sorted
    }
    risky.length = 0
  }

  /** Reads one account: its orders fill the day arrays, which are read, then cleared. */
  account(a: number): void {
    const to = this.to
    if (this.start[a]! > to) return
    const { outAt, inAt, outList, inList, kind, netDebtor, netCreditor, base, days } = this
    const from = this.balanceDate[a]!
    this.a = a
    let flow = 0 // the magnitudes added to the day arrays
    this.minX = days
    this.hasRun = false
    this.openRisk = undefined
    // the runs as differences (summed as the days are read), the weekly runs moved to their days, the walked
    // orders and the edited payments
    for (let x = outAt[a]!; x < outAt[a + 1]!; x++) {
      const o = outList[x]!
      if (kind[o] === RUN) flow += this.runSide(true, netDebtor[o] === 1, o, from)
    }
    for (let x = inAt[a]!; x < inAt[a + 1]!; x++) {
      const o = inList[x]!
      if (kind[o] === RUN) flow += this.runSide(false, netCreditor[o] === 1, o, from)
    }
    this.weekMin = days
    for (let x = outAt[a]!; x < outAt[a + 1]!; x++) {
      const o = outList[x]!
      const k = kind[o]!
      if (k === WEEKLY && netDebtor[o] === 1) flow += this.weekSide(true, o, from)
      else if (k === POINTS || k === WEEKLY) flow += this.walk(true, netDebtor[o] === 1, o, from)
    }
    for (let x = inAt[a]!; x < inAt[a + 1]!; x++) {
      const o = inList[x]!
      const k = kind[o]!
      if (k === WEEKLY && netCreditor[o] === 1) flow += this.weekSide(false, o, from)
      else if (k === POINTS || k === WEEKLY) flow += this.walk(false, netCreditor[o] === 1, o, from)
    }
    if (this.weekMin < days) this.foldWeeks()
    // the edited payments this account counts (see the constructor), where they execute now
    const edited = this.edited.data
    for (const i of this.editedOf.get(a) ?? []) {
      const o = edited[i * EDIT]!
      const day = edited[i * EDIT + 3]!
      if (day < 0 || day > to) continue
      const k = edited[i * EDIT + 1]!
      const nominal = edited[i * EDIT + 2]!
      if (this.debtorOf[o] === a) {
        this.point(true, netDebtor[o] === 1, o, k, nominal, day)
        if (netDebtor[o] === 1) flow += this.cents[o]!
      }
      if (this.creditorOf[o] === a) {
        this.point(false, netCreditor[o] === 1, o, k, nominal, day)
        if (netCreditor[o] === 1) flow += this.cents[o]!
      }
    }
    // read the days: on floats while every sum stays far below 2^53, else on bigints
    const opening = unitsOf(this.accounts[a]!.amount, this.scale[a]!)
    const exact = flow > LIMIT ? this.exactCells() : undefined
    const thr = this.threshold[a]
    if (this.hasRun) this.foldRuns(Math.min(this.minX, this.start[a]! - base), to - base)
    if (
      exact === undefined &&
      this.scale[a] === 2 &&
      (opening < 0n ? -opening : opening) + BigInt(Math.ceil(flow)) < BigInt(LIMIT) &&
      (thr === undefined || (thr < 0n ? -thr : thr) < BigInt(LIMIT))
    ) {
      this.scan(this.floats.reset(Number(opening), thr, this.replaying ? this.columns : undefined))
    } else {
      const rows = this.replaying ? [] : undefined
      this.scan(this.bigints.reset(opening, this.scale[a]!, this.factor[a]!, thr, exact, rows))
      if (rows !== undefined) this.bigRows = rows
    }
    if (this.risky.length > 0) this.riskPayments(from)
    const lo = Math.min(this.minX, this.start[a]! - base)
    const hi = to - base + 2 // past a run's end difference
    this.outC.fill(0, lo, hi)
    this.inC.fill(0, lo, hi)
    this.outN.fill(0, lo, hi)
    this.inN.fill(0, lo, hi)
    if (this.hasRun) {
      this.rOutC.fill(0, lo, hi)
      this.rInC.fill(0, lo, hi)
      this.rOutN.fill(0, lo, hi)
      this.rInN.fill(0, lo, hi)
    }
  }

  /** Every risk day's payments, by day, then orderId (planned order) and nominal day. */
  atRisk(): Array<Payment.Payment> {
    const { ranks, templates } = this
    const byDay = new Map<number, Array<RiskDayOut>>()
    for (const r of this.results) {
      for (const d of r.riskDays) {
        if (d.triples.length === 0) continue
        const list = byDay.get(d.date)
        if (list === undefined) byDay.set(d.date, [d])
        else list.push(d)
      }
    }
    const out: Array<Payment.Payment> = []
    for (const day of [...byDay.keys()].sort((x, y) => x - y)) {
      const entries: Array<{ o: number; k: number; nominal: number }> = []
      for (const d of byDay.get(day)!) {
        const t = d.triples
        for (let j = 0; j < t.length; j += 3) entries.push({ o: t[j]!, k: t[j + 1]!, nominal: t[j + 2]! })
      }
      entries.sort((x, y) => ranks[x.o]! - ranks[y.o]! || x.nominal - y.nominal || x.o - y.o)
      for (const e of entries) out.push(Plans.payment(templates[e.o]!, e.k, e.nominal, day))
    }
    return out
  }

  /** What the engine found, once every account is read. */
  result(): Result {
    const { templates, ranks, unknown } = this
    const unknownBy = new Map<string, { iban: string; currency: string; count: number }>()
    for (let o = 0; o < templates.length; o++) {
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
    const notNetted = this.notNetted
    notNetted.sort(
      (x, y) =>
        x.foreign.payment.executionDate - y.foreign.payment.executionDate ||
        ranks[x.o]! - ranks[y.o]! ||
        x.foreign.payment.nominalDate - y.foreign.payment.nominalDate ||
        x.o - y.o ||
        x.side - y.side
    )
    return {
      accounts: this.results,
      atRisk: () => this.atRisk(),
      atRiskCount: this.atRiskCount,
      notNetted: notNetted.map((x) => x.foreign),
      withoutBalance,
      skipped: this.plans.skipped,
      edited: this.editedPayments()
    }
  }

  /** The edited orders' payments, in projection order of their days before the edit. */
  editedPayments(): Array<EditedPayment> {
    const { templates, debtorOf, creditorOf, balanceDate } = this
    const data = this.edited.data
    const out: Array<EditedPayment> = []
    for (let i = 0; i < this.edited.length; i++) {
      const at = i * EDIT
      const o = data[at]!
      const was = data[at + 4]!
      const d = debtorOf[o]!
      const c = creditorOf[o]!
      out.push({
        payment: Plans.payment(templates[o]!, data[at + 1]!, data[at + 2]!, was),
        due: data[at + 5]!,
        day: data[at + 3]!,
        moves: (d < 0 && c < 0) || (d >= 0 && was >= balanceDate[d]!) || (c >= 0 && was >= balanceDate[c]!)
      })
    }
    return out
  }
}

/** The rows' list of payments not netted when they have none (one list for all: it is never changed). */
const NONE_FOREIGN: ReadonlyArray<Foreign> = Object.freeze([])

/** The payments not netted of one account on `day`, in projection order (by orderId, then nominal date). */
const notNettedOn = (byDay: Map<number, Array<Foreign>> | undefined, day: number): ReadonlyArray<Foreign> => {
  const list = byDay?.get(day)
  if (list === undefined) return NONE_FOREIGN
  return list.sort(
    (x, y) =>
      (x.payment.orderId < y.payment.orderId ? -1 : x.payment.orderId > y.payment.orderId ? 1 : 0) ||
      x.payment.nominalDate - y.payment.nominalDate ||
      (x.side === y.side ? 0 : x.side === "out" ? -1 : 1)
  )
}

/**
 * One object of each of the engine's classes, kept for the module's life. V8 gives an object the map (hidden class)
 * its fields lead to, and drops such a map at a full collection once no object has it; then every step's optimized
 * code that checks the map is thrown away, and the next forecast of the process compiles it all again (BENCHMARKS.md,
 * "A balance forecast": about 100 ms of 370 at 100,000 orders, with the closures made per run). These have the maps
 * of every other (exported so that the module's scope keeps them).
 */
const empty = new Engine([], [], {
  window: { from: 0 as LocalDate.LocalDate, to: 0 as LocalDate.LocalDate },
  options: undefined,
  ladder: false,
  keep: new Set(),
  edited: new Set(),
  edit: undefined
})
export const kept: ReadonlyArray<object> = [
  empty,
  new AccountOut(0, 0, ZERO, false, empty),
  new RiskDayOut(0, 0, ZERO, ZERO, ZERO, "zero", [], 0),
  new CentsRow(0, 0, 0, 0, 0, 0, 0, [], false)
  // core keeps a plan of its own for the same reason (core internal/plan.ts, kept)
]
