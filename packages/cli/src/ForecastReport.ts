/**
 * The pure core of `tppkit forecast`: reads the balances file, the funds-checks file, `--threshold` and
 * `--scenario` as typed, and prints a balance forecast (schedule's `Forecast`) as a table, one JSON document or CSV
 * ladder rows. Every amount is printed exactly as computed (at least two decimals).
 *
 * The balances file is JSON: an array (or an object with `balances`) of records `{ "iban", "currency", "amount",
 * "date", "threshold"? }`: the balance at the start of `date`, before that day's payments; `amount` and `threshold`
 * are JSON numbers or decimal strings, read exactly. A record that cannot be read is reported and the others are
 * used.
 *
 * @since 0.1.0
 */
import { BalanceCheck, BusinessDayConvention, Calendar, Iban, Json, LocalDate, Money } from "@tppkit/core"
import { Export, Forecast, type Payment, type Projection } from "@tppkit/schedule"
import { type BigDecimal, Result, Schema } from "effect"
import * as Html from "./Html.ts"
import * as Formats from "./internal/formats.ts"
import * as JsonPieces from "./internal/jsonPieces.ts"
import * as Project from "./Project.ts"
import * as Render from "./Render.ts"

/** The output formats of `tppkit forecast`, the default first. */
export const formats = Formats.forecast

/** An output format of `tppkit forecast`. */
export type Format = (typeof formats)[number]

/** A record of an input file that could not be read: its position (from 0) and why; its IBAN when that was read. */
export interface Unreadable {
  readonly file: string
  readonly index: number
  readonly reason: string
  readonly iban?: string | undefined
}

type Value = Json.Value
type Obj = { readonly [key: string]: Value }

const isObject = (v: Value | undefined): v is Obj =>
  typeof v === "object" && v !== null && !Array.isArray(v) && !Json.isNumberText(v)

/** An exact amount from a JSON number or a decimal string. */
const amountOf = (v: Value | undefined, field: string): Result.Result<BigDecimal.BigDecimal, string> => {
  if (Json.isNumberText(v)) return Result.mapError(Money.fromNumberText(v.text), (r) => `${field}: ${r}`)
  if (typeof v === "string") return Result.mapError(Money.parse(v.trim()), (r) => `${field}: ${r}`)
  return Result.fail(`${field}: expected a number or a decimal string`)
}

const stringOf = (v: Value | undefined, field: string): Result.Result<string, string> =>
  typeof v === "string" && v.trim().length > 0 ? Result.succeed(v.trim()) : Result.fail(`${field}: expected a text`)

const dateOf = (v: Value | undefined, field: string): Result.Result<LocalDate.LocalDate, string> =>
  Result.flatMap(stringOf(v, field), (s) => Result.mapError(LocalDate.parse(s), (r) => `${field}: ${r}`))

const currencyOf = (v: Value | undefined): Result.Result<string, string> =>
  Result.flatMap(stringOf(v, "currency"), (s) =>
    /^[A-Z]{3}$/.test(s) ? Result.succeed(s) : Result.fail(`currency: ${JSON.stringify(s)} is not an ISO 4217 code`)
  )

const ibanOf = (v: Value | undefined, field: string): Result.Result<string, string> =>
  Result.flatMap(stringOf(v, field), (s) => {
    const iban = s.replace(/\s+/g, "").toUpperCase()
    return Iban.isValid(iban) ? Result.succeed(iban) : Result.fail(`${field}: ${JSON.stringify(s)} is not an IBAN`)
  })

/** The records of a JSON file: a bare array or the array under `key`, or why the text is neither. */
const recordsOf = (bytes: Uint8Array | string, key: string): Result.Result<ReadonlyArray<Value>, string> =>
  Result.flatMap(
    Result.mapError(Json.parse(bytes), (f) => f.message),
    (doc): Result.Result<ReadonlyArray<Value>, string> => {
      const v = doc.value
      if (Array.isArray(v)) return Result.succeed(v as ReadonlyArray<Value>)
      if (isObject(v) && Array.isArray(v[key])) return Result.succeed(v[key] as ReadonlyArray<Value>)
      return Result.fail(`expected a JSON array of records or an object with "${key}"`)
    }
  )

/** What a file gave: the records read, and those that could not be. */
export interface Read<A> {
  readonly records: ReadonlyArray<A>
  readonly unreadable: ReadonlyArray<Unreadable>
}

const readEach = <A>(
  file: string,
  records: ReadonlyArray<Value>,
  one: (record: Obj) => Result.Result<A, string>,
  ibanField?: string
): Read<A> => {
  const out: Array<A> = []
  const unreadable: Array<Unreadable> = []
  records.forEach((r, index) => {
    const read = isObject(r) ? one(r) : Result.fail("expected an object")
    if (Result.isSuccess(read)) out.push(read.success)
    else {
      const iban = ibanField === undefined || !isObject(r) ? undefined : ibanOf(r[ibanField], ibanField)
      unreadable.push({
        file,
        index,
        reason: read.failure,
        ...(iban !== undefined && Result.isSuccess(iban) ? { iban: iban.success } : {})
      })
    }
  })
  return { records: out, unreadable }
}

/**
 * The accounts of a balances file's unreadable records, with why, for the forecast's `withoutBalance` (an account
 * given again keeps its first record: it has a balance).
 */
export const unusableBalances = (
  unreadable: ReadonlyArray<Unreadable>
): Array<{ readonly iban: string; readonly reason: string }> =>
  unreadable.flatMap((u) =>
    u.iban === undefined
      ? []
      : [{ iban: u.iban, reason: `its balance (${u.file} #${u.index + 1}) could not be read: ${u.reason}` }]
  )

/**
 * The balances file read: each record `{ iban, currency, amount, date, threshold? }`; a record that cannot be read,
 * or an account given again, is reported with its position and the others are kept. Fails only when the text is no
 * JSON array of records (nor an object with `balances`).
 */
export const balancesOf = (file: string, bytes: Uint8Array | string): Result.Result<Read<Forecast.Balance>, string> =>
  Result.map(recordsOf(bytes, "balances"), (records) => {
    const seen = new Set<string>()
    return readEach(
      file,
      records,
      (r) =>
        Result.gen(function* () {
          const iban = yield* ibanOf(r.iban, "iban")
          if (seen.has(iban)) return yield* Result.fail(`the balance of ${iban} is given again (the first one is used)`)
          const balance: Forecast.Balance = {
            iban,
            currency: yield* currencyOf(r.currency),
            amount: yield* amountOf(r.amount, "amount"),
            date: yield* dateOf(r.date, "date"),
            ...(r.threshold === undefined || r.threshold === null
              ? {}
              : { threshold: yield* amountOf(r.threshold, "threshold") })
          }
          seen.add(iban)
          return balance
        }),
      "iban"
    )
  })

const isAnswer = Schema.is(BalanceCheck.Answer)

/**
 * The funds-checks file read: each record `{ orderId, executionDate, debtorIban, amount, currency, checkedOn,
 * answer }` (`answer` APPR or DECL, the bank's answer on `checkedOn`); unreadable records are reported.
 */
export const checksOf = (file: string, bytes: Uint8Array | string): Result.Result<Read<Forecast.Check>, string> =>
  Result.map(recordsOf(bytes, "checks"), (records) =>
    readEach(file, records, (r) =>
      Result.gen(function* () {
        const answer = r.answer
        if (!isAnswer(answer)) return yield* Result.fail("answer: expected APPR or DECL")
        return {
          orderId: yield* stringOf(r.orderId, "orderId"),
          executionDate: yield* dateOf(r.executionDate, "executionDate"),
          debtorIban: yield* ibanOf(r.debtorIban, "debtorIban"),
          amount: yield* amountOf(r.amount, "amount"),
          currency: yield* currencyOf(r.currency),
          checkedOn: yield* dateOf(r.checkedOn, "checkedOn"),
          answer
        }
      })
    )
  )

/**
 * `--threshold` values applied to the balances: `AMOUNT` for every account without its own, `IBAN=AMOUNT` for one
 * (a threshold in the balances file is replaced by one given for its IBAN, kept over an `AMOUNT` for all).
 */
export const withThresholds = (
  balances: ReadonlyArray<Forecast.Balance>,
  flags: ReadonlyArray<string>
): Result.Result<Array<Forecast.Balance>, string> =>
  Result.gen(function* () {
    let all: BigDecimal.BigDecimal | undefined
    const own = new Map<string, BigDecimal.BigDecimal>()
    for (const flag of flags) {
      const eq = flag.indexOf("=")
      const text = eq < 0 ? flag : flag.slice(eq + 1)
      const amount = yield* Result.mapError(
        Money.parse(text.trim()),
        (r) => `--threshold ${JSON.stringify(flag)}: ${r}`
      )
      if (eq < 0) all = amount
      else own.set(flag.slice(0, eq).replace(/\s+/g, "").toUpperCase(), amount)
    }
    return balances.map((b) => {
      const t = own.get(b.iban) ?? b.threshold ?? all
      return t === undefined ? b : { ...b, threshold: t }
    })
  })

/**
 * The `--threshold IBAN=AMOUNT` values whose IBAN is none of the balances' accounts (a mistyped IBAN), as given: they
 * apply to nothing, which the command says on stderr rather than forecast silently without them.
 */
export const thresholdsWithoutAccount = (
  balances: ReadonlyArray<Forecast.Balance>,
  flags: ReadonlyArray<string>
): Array<string> => {
  const accounts = new Set(balances.map((b) => b.iban))
  return flags.filter((flag) => {
    const eq = flag.indexOf("=")
    return eq >= 0 && !accounts.has(flag.slice(0, eq).replace(/\s+/g, "").toUpperCase())
  })
}

const isConvention = Schema.is(BusinessDayConvention.BusinessDayConvention)

/** The files a `--scenario` adds orders from (`add:FILE`), in the order named. */
export const addedFiles = (text: string): Array<string> =>
  text
    .split(",")
    .map((raw) => raw.trim())
    .filter((part) => part.slice(0, 4).toLowerCase() === "add:")
    .map((part) => part.slice(4).trim())

/**
 * One `--scenario`: changes separated by commas, each `skip:ORDER@DATE`, `fail:ORDER@DATE`, `delay:ORDER+DAYS`,
 * `delay:ORDER@DATE+DAYS`, `add:FILE` (every order of an orders file, read by the caller into `added`),
 * `remove:ORDER`, `convention:NAME` or `calendar:NAME` (as `--calendar`); the text is its name. E.g.
 * `delay:SALARY+3,skip:SO-RENT@2026-08-03`.
 */
export const scenarioOf = (
  text: string,
  added: ReadonlyMap<string, ReadonlyArray<Projection.ProjectableOrder>> = new Map(),
  holidays: ReadonlyArray<LocalDate.LocalDate> = []
): Result.Result<Forecast.Scenario, string> =>
  Result.gen(function* () {
    const changes: Array<Forecast.Change> = []
    const bad = (part: string, why: string) => Result.fail(`--scenario ${JSON.stringify(text)}: ${part}: ${why}`)
    for (const raw of text.split(",")) {
      const part = raw.trim()
      if (part.length === 0) continue
      const colon = part.indexOf(":")
      const kind = colon < 0 ? part : part.slice(0, colon).toLowerCase()
      const arg = colon < 0 ? "" : part.slice(colon + 1).trim()
      const at = (s: string) => {
        const i = s.lastIndexOf("@")
        return i < 0 ? { id: s, date: undefined } : { id: s.slice(0, i), date: s.slice(i + 1) }
      }
      switch (kind) {
        case "skip":
        case "fail": {
          const { id, date } = at(arg)
          if (id.length === 0 || date === undefined) return yield* bad(part, `expected ${kind}:ORDER@YYYY-MM-DD`)
          const day = LocalDate.parse(date)
          if (Result.isFailure(day)) return yield* bad(part, day.failure)
          changes.push({ _tag: kind === "skip" ? "Skip" : "Fail", orderId: id, date: day.success })
          break
        }
        case "delay": {
          const plus = arg.lastIndexOf("+")
          const days = plus < 0 ? Number.NaN : Number(arg.slice(plus + 1))
          if (!(Number.isInteger(days) && days >= 1)) {
            return yield* bad(
              part,
              "expected delay:ORDER+DAYS or delay:ORDER@YYYY-MM-DD+DAYS (DAYS a whole number ≥ 1)"
            )
          }
          const { id, date } = at(arg.slice(0, plus))
          if (id.length === 0) return yield* bad(part, "no orderId")
          if (date === undefined) {
            changes.push({ _tag: "Delay", orderId: id, days })
          } else {
            const day = LocalDate.parse(date)
            if (Result.isFailure(day)) return yield* bad(part, day.failure)
            changes.push({ _tag: "Delay", orderId: id, days, date: day.success })
          }
          break
        }
        case "add": {
          const orders = added.get(arg)
          if (arg.length === 0 || orders === undefined) return yield* bad(part, "expected add:FILE (an orders file)")
          for (const order of orders) changes.push({ _tag: "Add", order })
          if (orders.length === 0) return yield* bad(part, "the file holds no order that can be read")
          break
        }
        case "remove":
          if (arg.length === 0) return yield* bad(part, "expected remove:ORDER")
          changes.push({ _tag: "Remove", orderId: arg })
          break
        case "convention":
          if (!isConvention(arg)) {
            return yield* bad(part, `expected one of ${BusinessDayConvention.conventions.join(", ")}`)
          }
          changes.push({ _tag: "Settings", convention: arg })
          break
        case "calendar": {
          const calendar = Project.calendarOf(arg)
          if (Result.isFailure(calendar)) return yield* bad(part, calendar.failure)
          // the bank's own closing days (--holidays) stay closed on another calendar
          const own = calendar.success.calendar
          changes.push({
            _tag: "Settings",
            calendar: holidays.length === 0 ? own : Calendar.withHolidays(own, [...holidays])
          })
          break
        }
        default:
          return yield* bad(part, "expected skip:, fail:, delay:, add:, remove:, convention: or calendar:")
      }
    }
    if (changes.length === 0) return yield* Result.fail(`--scenario ${JSON.stringify(text)}: no change named`)
    return { name: text, changes }
  })

// ---------------------------------------------------------------------------
// the report
// ---------------------------------------------------------------------------

/** Everything `tppkit forecast` prints. */
export interface Report {
  readonly forecast: Forecast.Forecast
  readonly calendarName: string
  readonly convention: string
  readonly scenarios: ReadonlyArray<Forecast.Outcome>
  readonly unreadable: ReadonlyArray<Unreadable>
  readonly skippedOrders: ReadonlyArray<Render.SkippedRow>
}

/**
 * Whether the forecast has findings a person should look at (exit 8): an account at or below zero or below its
 * threshold on some day, or a funds check that contradicts the forecast.
 */
export const hasFindings = (forecast: Forecast.Forecast): boolean =>
  forecast.accounts.some((a) => a.riskDays.length > 0) ||
  forecast.evidence.some((e) => e.finding === "DeclinedButCovered" || e.finding === "ApprovedButAtRisk")

const m = (x: BigDecimal.BigDecimal, currency: string): string => Money.formatMinor(x, currency)
const f = LocalDate.format
const span = (a: LocalDate.LocalDate, b: LocalDate.LocalDate): string => (a === b ? f(a) : `${f(a)}..${f(b)}`)
const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`
const daysOf = (a: Forecast.AccountForecast): number => a.riskDays.reduce((n, d) => n + (d.until - d.date + 1), 0)

/** How many accounts a table lists in full (the worst first); the rest are summed up in one line. */
export const TABLE_ACCOUNTS = 200

/** The heading of the accounts with payments and no usable balance, in every format that has headings. */
export const WITHOUT_BALANCE = "Accounts with payments and no usable balance (not forecast)"

/** An account without a usable balance in one line: its payments out in the window and why it has no balance. */
export const withoutBalanceLine = (w: Forecast.WithoutBalance): string =>
  `${w.iban} ${w.currency}: ${plural(w.count, "payment")} out in the window; ${w.reason}`

const WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
const weekday = (day: LocalDate.LocalDate): string => `${WEEKDAYS[LocalDate.dayOfWeek(day) - 1]} ${f(day)}`

/** A delayed payment its order's rule moved off its due day, in one line. */
export const movedLine = (v: Forecast.Moved): string =>
  `~ ${v.payment.orderId} of ${f(v.was)} delayed: due ${weekday(v.due)}, no day its order pays on; moved by its rule to ${weekday(v.payment.executionDate)}`

const paymentLine = (p: Payment.Payment): string =>
  `${f(p.executionDate)}  ${p.orderId}  ${m(p.amount, p.currency)} ${p.currency} to ${p.creditorName ?? p.creditorIban}`

const FINDING_TEXT: Record<Forecast.Finding, string> = {
  DeclinedButCovered: "URGENT: declined, but the forecast covers its day",
  ApprovedButAtRisk: "approved, but the forecast puts its day at risk",
  Agrees: "agrees with the forecast",
  Outside: "no forecast for the account on that day"
}

/** The report as text: the accounts worst first, then their risk days, the evidence and the scenarios. */
export const table = (report: Report, width: number = Render.WIDTH): string => {
  const { forecast } = report
  const out: Array<string> = []
  const worst = Forecast.worstFirst(forecast.accounts)
  const atRisk = worst.filter((a) => a.riskDays.length > 0)
  out.push(
    `Forecast ${span(forecast.window.from, forecast.window.to)} · ${report.calendarName} · ${report.convention} · ${plural(forecast.accounts.length, "account")}, ${atRisk.length} at risk`
  )
  out.push("")
  const shown = worst.slice(0, TABLE_ACCOUNTS)
  out.push(
    ...Render.table(
      [
        { header: "Account", flex: true },
        { header: "Cur" },
        { header: "Opening", align: "right" },
        { header: "Lowest", align: "right" },
        { header: "On" },
        { header: "Closing", align: "right" },
        { header: "Risk days", align: "right" }
      ],
      shown.map((a) => [
        a.iban,
        a.currency,
        m(a.opening, a.currency),
        m(a.lowest.amount, a.currency),
        f(a.lowest.date),
        m(a.closing, a.currency),
        `${daysOf(a)}`
      ]),
      width
    )
  )
  if (worst.length > shown.length) {
    const rest = worst.slice(shown.length)
    out.push(
      `… and ${plural(rest.length, "more account")} (${rest.filter((a) => a.riskDays.length > 0).length} at risk; --format json or csv lists them all)`
    )
  }
  for (const a of atRisk.slice(0, TABLE_ACCOUNTS)) out.push("", ...sectionLines(riskSection(a), width))
  for (const section of sections(report)) out.push("", ...sectionLines(section, width))
  return out.join("\n")
}

/**
 * A part of the report in the words every format with text uses (the table, the HTML picture): a heading and its
 * lines, each with its depth under the heading.
 */
export interface Section {
  readonly heading: string
  readonly lines: ReadonlyArray<readonly [depth: number, text: string]>
  /** Wrapped two columns narrower in the table (the skipped records, as every command lists them). */
  readonly narrow?: boolean
}

/** A section as the table prints it: its lines wrapped at `width`, indented two spaces per depth. */
const sectionLines = (section: Section, width: number): Array<string> => [
  section.heading,
  ...section.lines.flatMap(([depth, text]) =>
    Render.wrap(text, section.narrow === true ? width - 2 : width, "  ".repeat(depth), "  ".repeat(depth + 1))
  )
]

/** How many of an account's risk days the table and the picture list (JSON lists every one). */
export const TABLE_RISK_DAYS = 100

/** How many payments of an account's risk days the table and the picture list (JSON lists those the forecast lists). */
export const TABLE_RISK_PAYMENTS = 1_000

/**
 * An account's risk days, each with its payments out (the table lists them for the accounts at risk): its first
 * {@link TABLE_RISK_DAYS} with at most `maxPayments` ({@link TABLE_RISK_PAYMENTS}) payments in all, each day's payments not listed
 * counted, and the days left out counted with their payments.
 */
export const riskSection = (a: Forecast.AccountForecast, maxPayments: number = TABLE_RISK_PAYMENTS): Section => {
  const line = a.threshold === undefined ? "zero" : `threshold ${m(a.threshold, a.currency)}`
  const lines: Array<readonly [number, string]> = []
  const days = a.riskDays
  const shown = Math.min(days.length, TABLE_RISK_DAYS)
  let payments = 0
  for (let i = 0; i < shown; i++) {
    const d = days[i]!
    lines.push([
      1,
      `${span(d.date, d.until)}  closing ${m(d.closing, a.currency)}, out ${m(d.out, a.currency)} that day together, short ${m(d.shortfall, a.currency)}${d.reason === "zero" ? " (at or below zero)" : ""}`
    ])
    const listed = payments >= maxPayments ? [] : d.payments.slice(0, maxPayments - payments)
    payments += listed.length
    for (const p of listed) lines.push([2, paymentLine(p)])
    if (d.count > listed.length)
      lines.push([2, `… and ${plural(d.count - listed.length, "more payment")} out that day`])
  }
  if (days.length > shown) {
    let count = 0
    for (let i = shown; i < days.length; i++) count += days[i]!.count
    lines.push([
      1,
      `… and ${plural(days.length - shown, "more day")} at risk with payments or a closing at risk, to ${f(days[days.length - 1]!.until)} (${plural(count, "payment")} out): --format json lists every one`
    ])
  }
  return { heading: `${a.iban} ${a.currency}: ${plural(daysOf(a), "day")} at risk (line: ${line})`, lines }
}

/**
 * The warning when the forecast lists fewer payments of risk days than there are (schedule's `Forecast.AT_RISK_LIMIT`
 * bounds its memory), else `undefined`.
 */
export const atRiskCut = (forecast: Forecast.Forecast): string | undefined =>
  forecast.atRiskCount > forecast.atRisk.length
    ? `${forecast.atRiskCount} payments out on days at risk; the first ${forecast.atRisk.length} are listed (a forecast lists at most ${Forecast.AT_RISK_LIMIT}, its earliest risk days account by account), every risk day gives the count of its own`
    : undefined

/**
 * The parts of the report after the accounts, in order: the funds checks beside the forecast, the payments not
 * netted, the accounts without a usable balance, each scenario, and the skipped records (each only when it has lines).
 */
export const sections = (report: Report): Array<Section> => {
  const { forecast } = report
  const out: Array<Section> = []
  if (forecast.evidence.length > 0) {
    const urgent = forecast.evidence.filter((e) => e.finding !== "Agrees")
    out.push({
      heading: `Funds checks beside the forecast (${plural(forecast.evidence.length, "check")}, ${urgent.length} to look at; an answer is about the check's day):`,
      lines: forecast.evidence.map((e) => {
        const c = e.check
        const figures = `forecast ${e.onCheckDay === undefined ? "-" : m(e.onCheckDay, c.currency)} on ${f(c.checkedOn)}, ${e.onPaymentDay === undefined ? "-" : m(e.onPaymentDay, c.currency)} on ${f(c.executionDate)}`
        return [
          1,
          `${c.answer} ${c.orderId} ${m(c.amount, c.currency)} ${c.currency} from ${c.debtorIban}: ${FINDING_TEXT[e.finding]} (${figures})`
        ] as const
      })
    })
  }
  if (forecast.notNetted.length > 0) {
    out.push({
      heading: "Not netted (another currency than the account's; no exchange rate is known):",
      lines: forecast.notNetted.map((n) => [1, `${n.iban} ${n.side}: ${paymentLine(n.payment)}`] as const)
    })
  }
  if (forecast.withoutBalance.length > 0) {
    out.push({
      heading: `${WITHOUT_BALANCE}:`,
      lines: forecast.withoutBalance.map((w) => [1, withoutBalanceLine(w)] as const)
    })
  }
  for (const s of report.scenarios) {
    const lines: Array<readonly [number, string]> = []
    if (s.payments.removed.length + s.payments.added.length === 0 && s.accounts.length === 0)
      lines.push([1, "no change"])
    for (const p of s.payments.removed) lines.push([1, `- ${paymentLine(p)}`])
    for (const p of s.payments.added) lines.push([1, `+ ${paymentLine(p)}`])
    for (const v of s.moved) lines.push([1, movedLine(v)])
    for (const a of s.accounts) {
      lines.push([
        1,
        `${a.iban}: lowest ${m(a.lowest.base.amount, a.currency)} on ${f(a.lowest.base.date)} -> ${m(a.lowest.scenario.amount, a.currency)} on ${f(a.lowest.scenario.date)}, closing ${m(a.closing.base, a.currency)} -> ${m(a.closing.scenario, a.currency)}`
      ])
      for (const d of a.riskDaysAdded)
        lines.push([2, `new risk days ${span(d.date, d.until)} closing ${m(d.closing, a.currency)}`])
      for (const d of a.riskDaysRemoved) lines.push([2, `no longer at risk ${span(d.date, d.until)}`])
    }
    for (const c of s.unmatched) lines.push([1, `! names no payment: ${changeText(c)}`])
    out.push({ heading: `Scenario ${JSON.stringify(s.scenario.name)}:`, lines })
  }
  const skipped = [
    ...report.unreadable.map((u) => ({ orderId: `${u.file} #${u.index + 1}`, reason: u.reason })),
    ...report.skippedOrders
  ]
  if (skipped.length > 0) {
    out.push({
      heading: `Skipped (${skipped.length}):`,
      lines: skipped.map((x) => [1, `${x.orderId ?? "(no orderId)"}: ${x.reason}`] as const),
      narrow: true
    })
  }
  return out
}

const changeText = (c: Forecast.Change): string => {
  switch (c._tag) {
    case "Skip":
    case "Fail":
      return `${c._tag.toLowerCase()}:${c.orderId}@${f(c.date)}`
    case "Delay":
      return `delay:${c.orderId}${c.date === undefined ? "" : `@${f(c.date)}`}+${c.days}`
    case "Remove":
      return `remove:${c.orderId}`
    case "Add":
      return `add:${c.order.orderId}`
    case "Settings":
      return "settings"
  }
}

const paymentJson = (p: Payment.Payment) => ({
  orderId: p.orderId,
  executionDate: f(p.executionDate),
  nominalDate: f(p.nominalDate),
  amount: Money.formatMinor(p.amount, p.currency),
  currency: p.currency,
  debtorIban: p.debtorIban,
  creditorIban: p.creditorIban,
  ...(p.creditorName === undefined ? {} : { creditorName: p.creditorName })
})

/**
 * A risk day as the JSON documents show it (amounts in its account's `currency`'s minor unit digits): its days, closing
 * balance, payments out, shortfall, reason, the count of its payments out and those the forecast lists.
 */
export const riskJson = (d: Forecast.RiskDay, currency: string) => ({
  date: f(d.date),
  until: f(d.until),
  closing: Money.formatMinor(d.closing, currency),
  out: Money.formatMinor(d.out, currency),
  shortfall: Money.formatMinor(d.shortfall, currency),
  reason: d.reason,
  count: d.count,
  payments: d.payments.map(paymentJson)
})

const accountJson = (a: Forecast.AccountForecast) => ({
  iban: a.iban,
  currency: a.currency,
  ...(a.threshold === undefined ? {} : { threshold: Money.formatMinor(a.threshold, a.currency) }),
  balanceDate: f(a.balanceDate),
  start: f(a.start),
  opening: Money.formatMinor(a.opening, a.currency),
  closing: Money.formatMinor(a.closing, a.currency),
  out: Money.formatMinor(a.out, a.currency),
  in: Money.formatMinor(a.in, a.currency),
  lowest: { amount: Money.formatMinor(a.lowest.amount, a.currency), date: f(a.lowest.date) },
  riskDays: JsonPieces.lazy(a.riskDays, (d) => riskJson(d, a.currency)),
  ladder: JsonPieces.lazy(a.rows ?? [], (r) => ({
    date: f(r.date),
    until: f(r.until),
    opening: Money.formatMinor(r.opening, a.currency),
    out: Money.formatMinor(r.out, a.currency),
    in: Money.formatMinor(r.in, a.currency),
    closing: Money.formatMinor(r.closing, a.currency),
    atRisk: r.atRisk,
    ...(r.notNetted.length === 0
      ? {}
      : { notNetted: r.notNetted.map((n) => ({ side: n.side, ...paymentJson(n.payment) })) })
  }))
})

/**
 * A funds check beside the forecast as the JSON documents show it: the finding, the check, and the forecast's
 * closing balance on the day the bank was asked and on the payment's day (null outside the forecast).
 */
export const evidenceJson = (e: Forecast.Evidence) => ({
  finding: e.finding,
  orderId: e.check.orderId,
  debtorIban: e.check.debtorIban,
  executionDate: f(e.check.executionDate),
  amount: Money.formatMinor(e.check.amount, e.check.currency),
  currency: e.check.currency,
  checkedOn: f(e.check.checkedOn),
  answer: e.check.answer,
  forecastOnCheckDay: e.onCheckDay === undefined ? null : Money.formatMinor(e.onCheckDay, e.check.currency),
  forecastOnPaymentDay: e.onPaymentDay === undefined ? null : Money.formatMinor(e.onPaymentDay, e.check.currency),
  covered: e.covered ?? null
})

/**
 * The report as one JSON document (amounts as exact decimal strings with their currency's minor unit digits, never
 * rounded; the accounts worst first).
 */
export const json = (report: Report): string => {
  const text = [...jsonPieces(report)].join("")
  return text.slice(0, -1)
}

/**
 * {@link json} in pieces, ending with a newline: its long lists (accounts, ladders, risk days, payments) made as they
 * are written, an empty piece now and then (the command stops promptly on SIGINT or SIGTERM).
 */
export const jsonPieces = (report: Report): Iterable<string> => {
  const { forecast } = report
  return JsonPieces.pieces({
    from: f(forecast.window.from),
    to: f(forecast.window.to),
    calendar: report.calendarName,
    convention: report.convention,
    findings: hasFindings(forecast),
    accounts: JsonPieces.lazy(Forecast.worstFirst(forecast.accounts), accountJson),
    atRisk: JsonPieces.lazy(forecast.atRisk, paymentJson),
    atRiskCount: forecast.atRiskCount,
    evidence: forecast.evidence.map(evidenceJson),
    notNetted: forecast.notNetted.map((n) => ({ iban: n.iban, side: n.side, payment: paymentJson(n.payment) })),
    withoutBalance: forecast.withoutBalance,
    scenarios: report.scenarios.map((s) => ({
      name: s.scenario.name,
      removed: s.payments.removed.map(paymentJson),
      added: s.payments.added.map(paymentJson),
      moved: s.moved.map((v) => ({
        orderId: v.payment.orderId,
        was: f(v.was),
        due: f(v.due),
        executionDate: f(v.payment.executionDate)
      })),
      accounts: s.accounts.map((a) => ({
        iban: a.iban,
        currency: a.currency,
        closing: {
          base: Money.formatMinor(a.closing.base, a.currency),
          scenario: Money.formatMinor(a.closing.scenario, a.currency)
        },
        lowest: {
          base: { amount: Money.formatMinor(a.lowest.base.amount, a.currency), date: f(a.lowest.base.date) },
          scenario: {
            amount: Money.formatMinor(a.lowest.scenario.amount, a.currency),
            date: f(a.lowest.scenario.date)
          }
        },
        riskDaysAdded: a.riskDaysAdded.map((d) => riskJson(d, a.currency)),
        riskDaysRemoved: a.riskDaysRemoved.map((d) => riskJson(d, a.currency))
      })),
      unmatched: s.unmatched.map(changeText)
    })),
    skipped: [
      ...report.unreadable.map((u) => ({ file: u.file, index: u.index, position: u.index + 1, reason: u.reason })),
      ...report.skippedOrders.map(Render.skippedJson)
    ]
  })
}

/**
 * The ladders as CSV: one line per row of each account (worst first), amounts exact; the account's IBAN and
 * currency (a file's text) as schedule's `Export.csvCell` writes a cell: control characters escaped and, unless
 * `rawFormulas`, a text beginning like a spreadsheet formula neutralised (amounts are numbers and stay so); an
 * account with payments and no usable balance is one line with no figures and the reason in `note`.
 */
export const csv = (report: Report, options?: Export.CsvOptions): string =>
  [...csvPieces(report, options)].join("").slice(0, -1)

/**
 * {@link csv} in pieces, ending with a newline: each account's ladder made as it is written, an empty piece after it
 * (the command stops promptly on SIGINT or SIGTERM).
 */
export function* csvPieces(report: Report, options?: Export.CsvOptions): Generator<string> {
  const cell = (text: string) => Export.csvCell(text, options?.rawFormulas === true)
  let lines = ["iban,currency,date,until,opening,out,in,closing,at_risk,not_netted,note"]
  for (const a of Forecast.worstFirst(report.forecast.accounts)) {
    yield ""
    for (const r of a.rows ?? []) {
      lines.push(
        [
          cell(a.iban),
          cell(a.currency),
          f(r.date),
          f(r.until),
          Money.formatMinor(r.opening, a.currency),
          Money.formatMinor(r.out, a.currency),
          Money.formatMinor(r.in, a.currency),
          Money.formatMinor(r.closing, a.currency),
          r.atRisk ? "yes" : "no",
          `${r.notNetted.length}`,
          ""
        ].join(",")
      )
    }
    if (lines.length > 0) yield `${lines.join("\n")}\n`
    lines = []
  }
  // an account with payments and no usable balance: one line over the window, no figures, the reason in `note`
  // (always quoted: a sentence)
  const quoted = (c: string) => (c.startsWith('"') ? c : `"${c}"`)
  const { from, to } = report.forecast.window
  for (const w of report.forecast.withoutBalance) {
    const note = `no usable balance: ${w.reason}; ${plural(w.count, "payment")} out in the window`
    lines.push([cell(w.iban), cell(w.currency), f(from), f(to), "", "", "", "", "", "", quoted(cell(note))].join(","))
  }
  if (lines.length > 0) yield `${lines.join("\n")}\n`
}

/** How many accounts the HTML picture draws (the worst first); the others are summed up in one line. */
export const HTML_ACCOUNTS = 50

/** How many payments on risk days the HTML picture lists per account; the others are counted. */
export const HTML_PAYMENTS = 50

/** The headline of an account in the picture: the first day it runs short (or that it does not), and its lowest point. */
export const headline = (a: Forecast.AccountForecast): string => {
  const first = a.riskDays[0]
  const lowest = `lowest ${m(a.lowest.amount, a.currency)} on ${f(a.lowest.date)}`
  if (first === undefined) {
    return `stays above ${a.threshold === undefined ? "zero" : `the threshold of ${m(a.threshold, a.currency)}`}; ${lowest}`
  }
  const when =
    first.reason === "zero"
      ? `runs out (at or below zero) from ${f(first.date)}`
      : `below the threshold of ${m(a.threshold!, a.currency)} from ${f(first.date)}`
  const days = a.riskDays.reduce((n, d) => n + (d.until - d.date + 1), 0)
  return `${when}; ${plural(days, "day")} at risk; ${lowest}`
}

/** How many pixels a day takes on the chart's axis (its width follows the window: a year is wider than a month). */
const PER_DAY = 3

/** The chart's plot width in pixels: {@link PER_DAY} per day, at least 600 and at most 2400. */
export const plotWidth = (days: number): number => Math.min(2400, Math.max(600, Math.round(days * PER_DAY)))

/** A text of the chart: its anchor point (the baseline), text, font size and how it is anchored. */
interface Label {
  readonly x: number
  readonly y: number
  readonly text: string
  readonly size: number
  readonly anchor: "start" | "middle" | "end"
  readonly className: string
}

/** A label's box as its text takes it, estimated generously (0.68 em a character; the browser test measures). */
const boxOfLabel = (l: Label): { x0: number; x1: number; y0: number; y1: number } => {
  const w = l.text.length * l.size * 0.68 + 2
  const x0 = l.anchor === "start" ? l.x : l.anchor === "middle" ? l.x - w / 2 : l.x - w
  return { x0, x1: x0 + w, y0: l.y - l.size * 0.85 - 1, y1: l.y + l.size * 0.3 + 1 }
}

/** The labels of a chart placed so that none overlaps another: each is put where it is first free, or left out. */
class Labels {
  readonly placed: Array<Label> = []
  readonly boxes: Array<ReturnType<typeof boxOfLabel>> = []
  /** Keeps a box free of labels (a drawn point). */
  block(cx: number, cy: number, r: number): void {
    this.boxes.push({ x0: cx - r, x1: cx + r, y0: cy - r, y1: cy + r })
  }
  /** Places the first of the candidates that overlaps no label placed before; whether one was placed. */
  place(candidates: ReadonlyArray<Label>, inside: { x0: number; x1: number; y0: number; y1: number }): boolean {
    for (const c of candidates) {
      const b = boxOfLabel(c)
      if (b.x0 < inside.x0 || b.x1 > inside.x1 || b.y0 < inside.y0 || b.y1 > inside.y1) continue
      if (this.boxes.some((o) => b.x0 < o.x1 && o.x0 < b.x1 && b.y0 < o.y1 && o.y0 < b.y1)) continue
      this.placed.push(c)
      this.boxes.push(b)
      return true
    }
    return false
  }
  svg(): string {
    return this.placed
      .map(
        (l) =>
          `<text class="${l.className}" x="${l.x.toFixed(1)}" y="${l.y.toFixed(1)}"${l.anchor === "start" ? "" : ` text-anchor="${l.anchor}"`}>${Html.escapeText(l.text)}</text>`
      )
      .join("")
  }
}

const amount = (x: BigDecimal.BigDecimal): number => Number(Money.toPlainString(x))

/**
 * One account's balance over the window as an SVG: its closing balance as a step line, the risk days red, zero and
 * the threshold as lines labelled on the amount axis, the lowest point labelled, each funds check at its check day;
 * the width follows the window ({@link plotWidth}), the dates below; no label overlaps another (each is placed where
 * it is free, the lowest point's first, else left out).
 */
const chart = (
  a: Forecast.AccountForecast,
  checks: ReadonlyArray<Forecast.Evidence>,
  window: Projection.Window
): string => {
  const { from, to } = window
  const rows = a.rows ?? []
  const values = rows.map((r) => amount(r.closing))
  const threshold = a.threshold === undefined ? undefined : amount(a.threshold)
  const highest = values.length === 0 ? undefined : Math.max(...values)
  const lowest = amount(a.lowest.amount)
  const lo = Math.min(lowest, ...values, 0, ...(threshold === undefined ? [] : [threshold]))
  const hi = Math.max(lowest, ...values, 0, ...(threshold === undefined ? [] : [threshold]))
  // the amount axis' labels, most important first: the threshold (named), zero, the highest balance
  const axisTexts: Array<[string, number]> = []
  if (threshold !== undefined) axisTexts.push([`threshold ${m(a.threshold!, a.currency)}`, threshold])
  axisTexts.push(["0.00", 0])
  if (highest !== undefined && highest !== 0 && highest !== threshold) {
    axisTexts.push([m(rows[values.indexOf(highest)]!.closing, a.currency), highest])
  }
  const TICK = 10
  const left = Math.max(60, Math.ceil(Math.max(...axisTexts.map(([t]) => t.length)) * TICK * 0.68) + 12)
  const right = 14
  const top = 16
  const bottom = 30
  const H = 220
  const days = Math.max(1, to - from + 1)
  const W = left + plotWidth(days) + right
  const x = (day: number) => left + ((Math.min(Math.max(day, from), to + 1) - from) / days) * (W - left - right)
  const y = (v: number) => H - bottom - ((v - lo) / Math.max(hi - lo, 1e-9)) * (H - top - bottom)
  const plot = { x0: left, x1: W - right, y0: top, y1: H - bottom }
  const labels = new Labels()
  const parts: Array<string> = [
    `<svg viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="balance of ${Html.escapeText(a.iban)}">`
  ]
  for (const d of a.riskDays) {
    parts.push(
      `<rect class="risk" x="${x(d.date).toFixed(1)}" y="${top}" width="${(x(d.until + 1) - x(d.date)).toFixed(1)}" height="${H - top - bottom}"><title>at risk ${f(d.date)}..${f(d.until)}: closing ${m(d.closing, a.currency)}</title></rect>`
    )
  }
  parts.push(`<line class="zero" x1="${left}" x2="${W - right}" y1="${y(0).toFixed(1)}" y2="${y(0).toFixed(1)}"/>`)
  if (threshold !== undefined) {
    const t = y(threshold).toFixed(1)
    parts.push(`<line class="limit" x1="${left}" x2="${W - right}" y1="${t}" y2="${t}"/>`)
  }
  let path = ""
  rows.forEach((r, i) => {
    path += `${i === 0 ? "M" : "L"}${x(r.date).toFixed(1)},${y(values[i]!).toFixed(1)}H${x(r.until + 1).toFixed(1)}`
  })
  parts.push(`<path class="line" d="${path}"/>`)
  // the lowest point's label first, inside the plot: above or below the point, to its right or left
  const lx = x(a.lowest.date)
  const ly = y(lowest)
  parts.push(`<circle cx="${lx.toFixed(1)}" cy="${ly.toFixed(1)}" r="3" fill="#c00"/>`)
  // the points drawn (the lowest one, the funds checks) stay free of labels
  labels.block(lx, ly, 4)
  const points = checks.flatMap((e) =>
    e.check.checkedOn < from || e.check.checkedOn > to
      ? []
      : [{ e, cx: x(e.check.checkedOn), cy: e.onCheckDay === undefined ? H - bottom : y(amount(e.onCheckDay)) }]
  )
  for (const p of points) labels.block(p.cx, p.cy, 9)
  const lowText = `lowest ${m(a.lowest.amount, a.currency)} on ${f(a.lowest.date)}`
  const low = (dx: number, dy: number, anchor: Label["anchor"]): Label => ({
    x: lx + dx,
    y: ly + dy,
    text: lowText,
    size: 11,
    anchor,
    className: "low"
  })
  const preferEnd = lx > (left + W - right) / 2
  const sides: ReadonlyArray<[number, Label["anchor"]]> = preferEnd
    ? [
        [-4, "end"],
        [4, "start"]
      ]
    : [
        [4, "start"],
        [-4, "end"]
      ]
  const lowCandidates: Array<Label> = []
  for (const dy of [-7, 15, -19, 27, -31, 39]) for (const [dx, anchor] of sides) lowCandidates.push(low(dx, dy, anchor))
  // at worst, inside the plot at its top or bottom corner (clamped)
  lowCandidates.push(
    low(0, 0, "start"),
    { ...low(0, 0, "start"), x: left + 4, y: top + 12 },
    { ...low(0, 0, "start"), x: left + 4, y: H - bottom - 4 }
  )
  labels.place(lowCandidates, plot)
  // the amounts on the left, each at its line or moved up or down to the nearest free place
  const axis = { x0: 0, x1: left - 1, y0: 0, y1: H - bottom + 8 }
  for (const [text, v] of axisTexts) {
    const at = y(v) + 3.5
    const candidates: Array<Label> = []
    for (const shift of [0, -6, 6, -12, 12, -18, 18]) {
      candidates.push({ x: left - 4, y: at + shift, text, size: TICK, anchor: "end", className: "tick" })
    }
    labels.place(candidates, axis)
  }
  // the dates below: the window's ends, then the first day of every n-th month where the labels fit
  const dates = { x0: 0, x1: W, y0: H - bottom + 8, y1: H }
  const dateLabel = (day: number, anchor: Label["anchor"], at = x(day)): Label => ({
    x: at,
    y: H - 9,
    text: f(day as LocalDate.LocalDate),
    size: TICK,
    anchor,
    className: "tick"
  })
  labels.place([dateLabel(from, "start", left)], dates)
  labels.place([dateLabel(to, "end", W - right)], dates)
  const monthWidth = (30.4 * (W - left - right)) / days
  const step = [1, 2, 3, 4, 6, 12, 24, 60, 120, 240, 600].find((n) => n * monthWidth >= 75) ?? 1200
  const { year, month } = LocalDate.toParts(from)
  for (let k = 1; ; k += 1) {
    const index = year * 12 + month - 1 + k
    const day = LocalDate.fromPartsUnchecked(Math.floor(index / 12), (index % 12) + 1, 1)
    if (day > to || Math.floor(index / 12) > 9999) break
    if (index % step !== 0) continue
    labels.place([dateLabel(day, "middle")], dates)
  }
  parts.push(labels.svg())
  for (const { e, cx: px, cy } of points) {
    const c = e.check
    const clash = e.finding === "DeclinedButCovered" || e.finding === "ApprovedButAtRisk"
    const cx = px.toFixed(1)
    parts.push(
      `<circle class="${c.answer === "DECL" ? "decl" : "appr"}" cx="${cx}" cy="${cy.toFixed(1)}" r="4"><title>${Html.escapeText(checkLine(e))}</title></circle>`
    )
    if (clash) parts.push(`<circle class="clash" cx="${cx}" cy="${cy.toFixed(1)}" r="8"/>`)
  }
  parts.push("</svg>")
  return parts.join("\n")
}

/**
 * The report as a self-contained HTML page (no script, no network): per drawn account a headline (the first day it
 * runs short, the lowest point), its balance over the window as an SVG step line with the amounts and dates on the
 * axes, the days at risk marked red, the threshold dashed, the lowest point labelled, each funds check the bank
 * answered as a point at its check day (APPR green, DECL red; a contradiction with the forecast ringed), and its
 * at-risk payments and contradicting checks listed; the accounts worst first.
 */
export const html = (report: Report): string => {
  const { forecast } = report
  const { from, to } = forecast.window
  const worst = Forecast.worstFirst(forecast.accounts)
  const drawn = worst.slice(0, HTML_ACCOUNTS)
  const evidenceOf = new Map<string, Array<Forecast.Evidence>>()
  for (const e of forecast.evidence) {
    const list = evidenceOf.get(e.check.debtorIban)
    if (list === undefined) evidenceOf.set(e.check.debtorIban, [e])
    else list.push(e)
  }
  const parts: Array<string> = []
  parts.push(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Balance forecast ${f(from)}..${f(to)}</title>`,
    "<style>body{font:14px system-ui,sans-serif;margin:24px;color:#222}svg{background:#fafafa;border:1px solid #ddd}",
    ".line{fill:none;stroke:#2a6;stroke-width:1.5}.risk{fill:#f4b4b4}.limit{stroke:#e33;stroke-dasharray:4 3}",
    ".zero{stroke:#999}.tick{font-size:10px;fill:#666}.low{font-size:11px;fill:#c00}li{font-size:13px}",
    ".head{margin:4px 0 8px}.short{color:#c00;font-weight:600}.appr{fill:#2a6}.decl{fill:#d00}",
    ".clash{fill:none;stroke:#d00;stroke-width:2}.legend{font-size:12px;color:#555}.d2{margin-left:1.5em}",
    ".figures{font-size:13px;color:#444;margin:2px 0}.list h2{font-size:16px;margin:18px 0 4px}</style></head><body>",
    `<h1>Balance forecast ${f(from)}..${f(to)}</h1>`,
    `<p>${plural(forecast.accounts.length, "account")}, ${worst.filter((a) => a.riskDays.length > 0).length} at risk · ${Html.escapeText(report.calendarName)} · ${Html.escapeText(report.convention)}</p>`
  )
  if (forecast.evidence.length > 0) {
    parts.push(
      `<p class="legend">Funds checks are drawn at the day the bank was asked: <b style="color:#2a6">●</b> APPR, <b style="color:#d00">●</b> DECL, ringed where the answer contradicts the forecast. An answer tells whether the amount was available then, not on the payment day.</p>`
    )
  }
  for (const a of drawn) {
    const checks = evidenceOf.get(a.iban) ?? []
    const short = a.riskDays.length > 0
    parts.push(`<section><h2>${Html.escapeText(a.iban)} ${Html.escapeText(a.currency)}</h2>`)
    parts.push(`<p class="head${short ? " short" : ""}">${Html.escapeText(headline(a))}</p>`)
    parts.push(chart(a, checks, forecast.window))
    const clashes = checks.filter((e) => e.finding === "DeclinedButCovered" || e.finding === "ApprovedButAtRisk")
    parts.push(
      `<p class="figures">${Html.escapeText(`opening ${m(a.opening, a.currency)} on ${f(a.start)} (balance of ${f(a.balanceDate)}), closing ${m(a.closing, a.currency)} on ${f(to)}; out ${m(a.out, a.currency)}, in ${m(a.in, a.currency)}`)}</p>`
    )
    if (a.riskDays.length > 0 || clashes.length > 0) {
      parts.push("<ul>")
      for (const e of clashes) parts.push(`<li class="short">${Html.escapeText(checkLine(e))}</li>`)
      // the risk days as the table lists them, at most 50 payments per account (each day counts the others)
      for (const [depth, text] of a.riskDays.length === 0 ? [] : riskSection(a, HTML_PAYMENTS).lines)
        parts.push(`<li class="d${depth}">${Html.escapeText(text)}</li>`)
      parts.push("</ul>")
    }
    parts.push("</section>")
  }
  if (worst.length > drawn.length) {
    const rest = worst.slice(drawn.length)
    parts.push(
      `<p>… and ${plural(rest.length, "more account")} (${rest.filter((a) => a.riskDays.length > 0).length} at risk): --format json or csv lists them all.</p>`
    )
  }
  // what the table lists after the accounts, in its words
  for (const section of sections(report)) {
    parts.push(`<section class="list"><h2>${Html.escapeText(section.heading.replace(/:$/, ""))}</h2><ul>`)
    for (const [depth, text] of section.lines) parts.push(`<li class="d${depth}">${Html.escapeText(text)}</li>`)
    parts.push("</ul></section>")
  }
  parts.push("</body></html>")
  return parts.join("\n")
}

/** A funds check beside the forecast in one line: the answer, the payment, the finding and both figures. */
const checkLine = (e: Forecast.Evidence): string => {
  const c = e.check
  const figures = `forecast ${e.onCheckDay === undefined ? "-" : m(e.onCheckDay, c.currency)} on ${f(c.checkedOn)}, ${e.onPaymentDay === undefined ? "-" : m(e.onPaymentDay, c.currency)} on ${f(c.executionDate)}`
  return `${c.answer} ${c.orderId} ${m(c.amount, c.currency)} ${c.currency} checked ${f(c.checkedOn)} for ${f(c.executionDate)}: ${FINDING_TEXT[e.finding]} (${figures})`
}
