/**
 * Whole records written in a target standard (`SourceRecord.write`): the schedule through the standard's encoder, and
 * who pays what in the record's own fields, so that what `translate --to T` writes is a record of T its readers take
 * (a COBS detail in a list page, a UK `OBStandingOrder6` in a `Data.StandingOrder` list, a Berlin Group
 * `bookingStatus=information` transaction, a YNAB `ScheduledTransactionDetail` in its answer, an Actual `APIScheduleEntity`). What T cannot carry
 * is a loss, named like a schedule's: a currency YNAB and Actual keep per budget, a payee's account they do not keep.
 */
import { BigDecimal } from "effect"
import * as Actual from "../../Actual.ts"
import * as BerlinGroup from "../../BerlinGroup.ts"
import * as Cobs from "../../Cobs.ts"
import * as LocalDate from "../../LocalDate.ts"
import * as Money from "../../Money.ts"
import * as Occurrence from "../../Occurrence.ts"
import type * as Recurrence from "../../Recurrence.ts"
import * as Translation from "../../Translation.ts"
import * as UkOpenBanking from "../../UkOpenBanking.ts"
import * as Ynab from "../../Ynab.ts"
import { NumberText } from "../json.ts"

/** An order to write: its schedule and who pays what (the fields of core's order as read). */
export interface Writable {
  readonly orderId: string
  readonly recurrence: Recurrence.Recurrence
  readonly instructedAmount: { readonly value: BigDecimal.BigDecimal; readonly currency: string }
  /**
   * The payer: its IBAN, or (with `scheme`, as core's `Orders.Party`) another identifier; an empty one with scheme
   * `unknown` when the record named none.
   */
  readonly debtor: { readonly iban: string; readonly name?: string | undefined; readonly scheme?: string | undefined }
  /** The payee; `iban` undefined when the order names no payee's account (the creditor unknown): written without one. */
  readonly creditor: {
    readonly iban: string | undefined
    readonly name?: string | undefined
    readonly scheme?: string | undefined
  }
  /** The source's next date, when it gave one: written where the target has one (UK, YNAB). */
  readonly nextDate?: LocalDate.LocalDate | undefined
}

/** A YNAB `ScheduledTransactionDetail` as written (the type-check test holds it to the `ynab` package's). */
export interface YnabScheduledTransaction {
  id: string
  date_first: string
  date_next: string
  frequency: Ynab.Frequency
  amount: number
  account_id: string
  account_name: string
  payee_name: string | null
  deleted: boolean
  subtransactions: Array<never>
}

/** An Actual `APIScheduleEntity` as written (the type-check test holds it to `@actual-app/api`'s). */
export interface ActualSchedule {
  id: string
  name: string
  posts_transaction: boolean
  account: string
  payee?: string
  amount: number
  amountOp: "is"
  date: {
    frequency: Actual.RecurConfig["frequency"]
    interval: number
    patterns?: Array<{ type: Actual.Pattern["type"]; value: number }>
    skipWeekend: boolean
    weekendSolveMode: "before" | "after"
    endMode: "never" | "after_n_occurrences" | "on_date"
    endOccurrences?: number
    endDate?: string
    start: string
  }
  next_date?: string
}

/** The targets written whole (`berlin-group` the periodic payment body, `berlin-group-ais` the AIS information entry). */
export type Target = "cobs" | "uk-v3" | "uk-v4" | "berlin-group" | "berlin-group-ais" | "ynab" | "actual"

/** COBS and Berlin Group identifications hold 35 characters. */
const MAX35 = 35

const withMore = <A>(
  t: Translation.Translation<unknown>,
  value: A,
  more: ReadonlyArray<Translation.Loss>
): Translation.Translation<A> => Translation.withLosses(value, [...(t._tag === "Lossy" ? t.losses : []), ...more])

/** The first occurrence's nominal date on or after a date (the target's next date), or undefined. */
const nominalOnOrAfter = (r: Recurrence.Recurrence, date: LocalDate.LocalDate): string | undefined => {
  const plan = Occurrence.planOf(r)
  if (plan._tag === "Failure") return undefined
  for (const o of Occurrence.iterate(plan.success)) {
    if (o.execution >= date) return LocalDate.format(o.nominal)
    if (o.nominal > date + 400) break
  }
  return undefined
}

/** An amount in whole minor units, when it has no more decimals than they hold. */
const minor = (value: BigDecimal.BigDecimal, decimals: number): number | undefined => {
  const scaled = BigDecimal.normalize(BigDecimal.multiply(value, BigDecimal.make(10n ** BigInt(decimals), 0)))
  if (scaled.scale > 0) return undefined
  const n = scaled.value * 10n ** BigInt(-scaled.scale)
  return n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : undefined
}

/** The order's amount in whole units of `decimals` places, else the refusal `UNITS: not AMOUNT` (`units` says which). */
const wholeUnits = (o: Writable, decimals: number, units: string): number | Translation.Unrepresentable => {
  const n = minor(o.instructedAmount.value, decimals)
  return n !== undefined
    ? n
    : { _tag: "Unrepresentable", reason: `${units}: not ${Money.toPlainString(o.instructedAmount.value)}` }
}

const currencyLost = (target: string, currency: string): Translation.Loss => ({
  field: "currency",
  from: currency,
  to: "the budget's",
  why: `${target} keeps the currency per budget, not per schedule`
})

const payeeAccountLost = (target: string, iban: string): Translation.Loss => ({
  field: "creditor",
  from: iban,
  to: "the payee's name",
  why: `${target} names a payee, not the payee's account`
})

/** Berlin Group's `creditorName` holds 70 characters: a longer name is cut, a loss. */
const nameLost = (name: string | undefined): ReadonlyArray<Translation.Loss> =>
  name !== undefined && name.length > 70
    ? [{ field: "creditorName", from: name, to: name.slice(0, 70), why: "creditorName holds 70 characters" }]
    : []

/** Whether the order names no payer (an empty identifier of scheme `unknown`, e.g. money into a YNAB account). */
const payerUnknown = (o: Writable): boolean => o.debtor.iban === "" || o.debtor.scheme === "unknown"

/** An ID the target holds in 35 characters: cut, a loss. */
const idCut = (orderId: string, field: string): ReadonlyArray<Translation.Loss> =>
  orderId.length > MAX35
    ? [{ field: "orderId", from: orderId, to: orderId.slice(0, MAX35), why: `${field} holds 35 characters` }]
    : []

/**
 * A COBS account's identification: its IBAN, else the identifier as the local number (`other.identification`; a Czech
 * number `prefix-number/bank` as its 16 digits, the bank code apart: {@link cobsAgent}).
 */
const cobsIdentification = (p: {
  readonly iban: string
  readonly scheme?: string | undefined
}): Record<string, unknown> => {
  if (p.scheme === undefined) return { iban: p.iban }
  const cz = p.scheme === "cz" ? CZECH.exec(p.iban) : null
  const local = cz === null ? p.iban : `${(cz[1] ?? "").padStart(6, "0")}${cz[2]!.padStart(10, "0")}`
  return { other: { identification: local } }
}

/** A Czech account number `prefix-number/bank` (core's `SourceRecord.czechAccount` form). */
const CZECH = /^(?:(\d{1,6})-)?(\d{1,10})(?:\/(\d{4}))?$/

/** The payee's bank of a Czech number (its bank code, `creditorAgent`'s member identification), when it has one. */
const cobsAgent = (p: { readonly iban: string | undefined; readonly scheme?: string | undefined }) => {
  const bank = p.iban !== undefined && p.scheme === "cz" ? CZECH.exec(p.iban)?.[3] : undefined
  return bank === undefined
    ? {}
    : {
        creditorAgent: {
          financialInstitutionIdentification: { clearingSystemMemberIdentification: { memberIdentification: bank } }
        }
      }
}

/** Berlin Group's keys of an account reference besides `iban`, as core reads them. */
const BG_KEYS = new Set(["bban", "pan", "maskedPan", "msisdn"])

/**
 * A Berlin Group `accountReference`: the IBAN, an identifier under its own key (`bban`, `pan`, …), else under
 * `otherAccountIdentification`.
 */
const accountReference = (p: {
  readonly iban: string
  readonly scheme?: string | undefined
}): Record<string, unknown> =>
  p.scheme === undefined
    ? { iban: p.iban }
    : BG_KEYS.has(p.scheme)
      ? { [p.scheme]: p.iban }
      : { otherAccountIdentification: { identification: p.iban } }

/** A payee named without its account, where the target's payee is an account: the name is lost. */
const nameWithoutAccount = (target: string, name: string | undefined): ReadonlyArray<Translation.Loss> =>
  name === undefined
    ? []
    : [{ field: "creditor", from: name, to: "none", why: `${target} names a payee by its account, which is unknown` }]

/** A COBS standing order (the detail's fields): the schedule with its identification, amount and both accounts. */
const cobs = (o: Writable): Translation.Translation<Record<string, unknown>> => {
  const t = Cobs.encode(o.recurrence)
  if (t._tag === "Unrepresentable") return t
  if (payerUnknown(o))
    return Translation.unrepresentable("a COBS standing order names its debtorAccount: the payer is unknown")
  const idLost = idCut(o.orderId, "standingOrderIdentification.transactionIdentification")
  const { requestedExecutionDate, standingOrder } = t.value
  return withMore(
    t,
    {
      standingOrderIdentification: { transactionIdentification: o.orderId.slice(0, MAX35) },
      amount: {
        instructedAmount: {
          value: new NumberText(Money.toPlainString(o.instructedAmount.value)),
          currency: o.instructedAmount.currency
        }
      },
      requestedExecutionDate,
      standingOrder: {
        ...standingOrder,
        // breaks: one object in the schema (an array only for several, as the rule book's examples write them)
        ...(standingOrder.exceptions?.breaks?.length === 1
          ? { exceptions: { ...standingOrder.exceptions, breaks: standingOrder.exceptions.breaks[0] } }
          : {}),
        // intervalDue is required (a number): where the schedule has none, the month's last day (31) or the start's day
        execution: {
          ...standingOrder.execution,
          intervalDue: new NumberText(
            standingOrder.execution.intervalDue ??
              (standingOrder.execution.modeDue === "DUE_LAST_DAY_OF_MONTH"
                ? "31"
                : requestedExecutionDate.slice(8).replace(/^0/, ""))
          )
        }
      },
      debtorAccount: { identification: cobsIdentification(o.debtor) },
      ...cobsAgent(o.creditor),
      // a creditor unknown: no creditorAccount, as a list item has none (a name alone: the ultimate creditor's)
      ...(o.creditor.iban === undefined
        ? o.creditor.name === undefined
          ? {}
          : { ultimateCreditor: { name: o.creditor.name } }
        : {
            creditorAccount: {
              identification: cobsIdentification({ ...o.creditor, iban: o.creditor.iban }),
              ...(o.creditor.name === undefined ? {} : { name: o.creditor.name })
            }
          })
    },
    idLost
  )
}

/** A UK amount: unsigned decimal text with at most five decimals. */
const ukAmount = (o: Writable): { Amount: string; Currency: string } | undefined => {
  const text = Money.toPlainString(o.instructedAmount.value)
  return /^\d{1,13}(\.\d{1,5})?$/.test(text) ? { Amount: text, Currency: o.instructedAmount.currency } : undefined
}

/** A UK v3.1 or v4 `OBStandingOrder6`: `AccountId` the payer's IBAN, the schedule, `NextPaymentAmount`, `CreditorAccount`. */
const uk = (o: Writable, version: "uk-v3" | "uk-v4"): Translation.Translation<Record<string, unknown>> => {
  const amount = ukAmount(o)
  if (amount === undefined) {
    return Translation.unrepresentable(
      `UK Open Banking amounts have at most 13 digits and 5 decimals: not ${Money.toPlainString(o.instructedAmount.value)}`
    )
  }
  const t = version === "uk-v3" ? UkOpenBanking.encodeV3(o.recurrence) : UkOpenBanking.encodeV4(o.recurrence)
  if (t._tag === "Unrepresentable") return t
  if (payerUnknown(o))
    return Translation.unrepresentable("a UK standing order names its AccountId: the payer is unknown")
  // the payee's account as UK names one: an IBAN, or an identifier under its UK scheme; another one is not said
  const scheme =
    o.creditor.iban === undefined
      ? undefined
      : o.creditor.scheme === undefined
        ? "UK.OBIE.IBAN"
        : /^UK\.OBI?E?\./.test(o.creditor.scheme)
          ? o.creditor.scheme
          : undefined
  const next = o.nextDate === undefined ? undefined : nominalOnOrAfter(o.recurrence, o.nextDate)
  const common = {
    AccountId: o.debtor.iban,
    StandingOrderId: o.orderId,
    ...(next === undefined ? {} : { NextPaymentDateTime: `${next}T00:00:00+00:00` }),
    NextPaymentAmount: amount,
    // a creditor unknown: no CreditorAccount, as the Basic permission's records have none
    ...(o.creditor.iban === undefined || scheme === undefined
      ? {}
      : {
          CreditorAccount: {
            SchemeName: scheme,
            Identification: o.creditor.iban,
            ...(o.creditor.name === undefined ? {} : { Name: o.creditor.name })
          }
        })
  }
  const lost =
    o.creditor.iban === undefined
      ? nameWithoutAccount("UK Open Banking", o.creditor.name)
      : scheme === undefined
        ? [
            {
              field: "creditor",
              from: `${o.creditor.scheme} ${o.creditor.iban}`,
              to: "none",
              why: "UK Open Banking names a payee's account by an IBAN or a UK scheme (CreditorAccount.SchemeName)"
            }
          ]
        : []
  if (version === "uk-v3") {
    return withMore(
      t,
      { ...common, ...(t.value as UkOpenBanking.V3StandingOrder), StandingOrderStatusCode: "Active" },
      lost
    )
  }
  const v4 = t.value as UkOpenBanking.V4MandateRelatedInformation
  const count = o.recurrence.count
  return withMore(
    t,
    {
      ...common,
      StandingOrderStatusCode: "ACTV",
      ...(count === undefined ? {} : { NumberOfPayments: String(count) }),
      MandateRelatedInformation: v4
    },
    lost
  )
}

/**
 * A Berlin Group standing order as an AIS `bookingStatus=information` transaction: its schedule in
 * `additionalInformationStructured.standingOrderDetails` (which alone carries `multiplicator`, `withinAMonthFlag` and
 * `monthsOfExecution`), the amount negative (money out of `debtorAccount`).
 */
const berlinGroup = (o: Writable): Translation.Translation<Record<string, unknown>> => {
  const t = BerlinGroup.encode(o.recurrence)
  if (t._tag === "Unrepresentable") return t
  const text = Money.toPlainString(o.instructedAmount.value)
  if (!/^\d{1,14}(\.\d{1,3})?$/.test(text)) {
    return Translation.unrepresentable(`Berlin Group amounts have at most 14 digits and 3 decimals: not ${text}`)
  }
  return withMore(
    t,
    {
      transactionId: o.orderId,
      transactionAmount: { currency: o.instructedAmount.currency, amount: `-${text}` },
      ...(payerUnknown(o) ? {} : { debtorAccount: accountReference(o.debtor) }),
      ...(o.creditor.iban === undefined
        ? {}
        : { creditorAccount: accountReference({ ...o.creditor, iban: o.creditor.iban }) }),
      ...(o.creditor.name === undefined ? {} : { creditorName: o.creditor.name.slice(0, 70) }),
      bankTransactionCode: "PMNT-ICDT-STDO",
      additionalInformationStructured: { standingOrderDetails: t.value }
    },
    nameLost(o.creditor.name)
  )
}

/**
 * A Berlin Group periodic payment body (`periodicPaymentInitiation_json`, 1.3.9: what a TPP sends to
 * `POST /v1/periodic-payments/{product}`): the order's ID as `endToEndIdentification`, both accounts, `creditorName`
 * (required: the creditor's IBAN when the order names no name, a loss), the amount as unsigned text, and the schedule's
 * `startDate`, `endDate`, `frequency`, `executionRule`, `dayOfExecution`. The body has no `multiplicator` and (in
 * 1.3.9) no `monthsOfExecution`: such a schedule is unrepresentable (the AIS entry says it, `berlin-group-ais`); no
 * `withinAMonthFlag`: a modified convention becomes its plain one, a loss. An unknown creditor is unrepresentable
 * (`creditorAccount` is required).
 */
const berlinGroupPayment = (o: Writable): Translation.Translation<Record<string, unknown>> => {
  const t = BerlinGroup.encode(o.recurrence)
  if (t._tag === "Unrepresentable") return t
  const d = t.value
  const no = (why: string) =>
    Translation.unrepresentable<Record<string, unknown>>(
      `a Berlin Group periodic payment cannot say ${why} (the AIS entry, berlin-group-ais, can)`
    )
  if (d.multiplicator !== undefined)
    return no(`every ${d.multiplicator}th ${d.frequency} period: it has no multiplicator`)
  if (d.monthsOfExecution !== undefined) return no("selected months: it has no monthsOfExecution (1.3.9)")
  const text = Money.toPlainString(o.instructedAmount.value)
  if (!/^\d{1,14}(\.\d{1,3})?$/.test(text)) {
    return Translation.unrepresentable(`Berlin Group amounts have at most 14 digits and 3 decimals: not ${text}`)
  }
  if (o.creditor.iban === undefined) {
    return Translation.unrepresentable(
      "a Berlin Group periodic payment names its creditorAccount (required), and the order's creditor is unknown"
    )
  }
  if (payerUnknown(o)) {
    return Translation.unrepresentable("a Berlin Group periodic payment names its debtorAccount: the payer is unknown")
  }
  const losses: Array<Translation.Loss> = []
  if (d.withinAMonthFlag === true) {
    losses.push({
      field: "convention",
      from: o.recurrence.convention,
      to: d.executionRule ?? "following",
      why: "a Berlin Group periodic payment has no withinAMonthFlag"
    })
  }
  const name = o.creditor.name ?? o.creditor.iban
  if (o.creditor.name === undefined) {
    losses.push({
      field: "creditorName",
      from: "none",
      to: name,
      why: "a Berlin Group periodic payment requires creditorName: the creditor's IBAN stands in"
    })
  }
  losses.push(...nameLost(name))
  if (o.orderId.length > MAX35) {
    losses.push({
      field: "orderId",
      from: o.orderId,
      to: o.orderId.slice(0, MAX35),
      why: "endToEndIdentification holds 35 characters"
    })
  }
  return withMore(
    t,
    {
      endToEndIdentification: o.orderId.slice(0, MAX35),
      debtorAccount: accountReference(o.debtor),
      instructedAmount: { currency: o.instructedAmount.currency, amount: text },
      creditorAccount: accountReference({ ...o.creditor, iban: o.creditor.iban }),
      creditorName: name.slice(0, 70),
      startDate: d.startDate,
      ...(d.endDate === undefined ? {} : { endDate: d.endDate }),
      ...(d.executionRule === undefined ? {} : { executionRule: d.executionRule }),
      frequency: d.frequency,
      ...(d.dayOfExecution === undefined ? {} : { dayOfExecution: d.dayOfExecution })
    },
    losses
  )
}

/** A YNAB scheduled transaction: milliunits, negative out of the payer's account (its IBAN as `account_id`). */
const ynab = (o: Writable): Translation.Translation<YnabScheduledTransaction> => {
  const t = Ynab.encode(o.recurrence)
  if (t._tag === "Unrepresentable") return t
  const milli = wholeUnits(o, 3, "YNAB amounts are whole milliunits")
  if (typeof milli !== "number") return milli
  const next = (o.nextDate === undefined ? undefined : nominalOnOrAfter(o.recurrence, o.nextDate)) ?? t.value.date_first
  return withMore(
    t,
    {
      id: o.orderId,
      date_first: t.value.date_first,
      date_next: next,
      frequency: t.value.frequency,
      amount: -milli,
      account_id: o.debtor.iban,
      account_name: o.debtor.name ?? o.debtor.iban,
      payee_name: o.creditor.name ?? o.creditor.iban ?? null,
      deleted: false,
      subtransactions: []
    },
    [
      currencyLost("YNAB", o.instructedAmount.currency),
      ...(o.creditor.iban === undefined ? [] : [payeeAccountLost("YNAB", o.creditor.iban)])
    ]
  )
}

/** An Actual schedule: cents, negative out of the payer's account, `amountOp` `is`, the rule as `date`. */
const actual = (o: Writable): Translation.Translation<ActualSchedule> => {
  const t = Actual.encode(o.recurrence)
  if (t._tag === "Unrepresentable") return t
  const cents = wholeUnits(o, 2, "Actual amounts are whole cents")
  if (typeof cents !== "number") return cents
  const c = t.value
  return withMore<ActualSchedule>(
    t,
    {
      id: o.orderId,
      name: o.creditor.name === undefined ? o.orderId : `${o.creditor.name} (${o.orderId})`,
      posts_transaction: false,
      account: o.debtor.iban,
      ...(o.creditor.iban === undefined ? {} : { payee: o.creditor.iban }),
      amount: -cents,
      amountOp: "is",
      date: {
        frequency: c.frequency,
        interval: c.interval,
        ...(c.patterns === undefined ? {} : { patterns: c.patterns.map((p) => ({ type: p.type, value: p.value })) }),
        skipWeekend: c.skipWeekend,
        weekendSolveMode: c.weekendSolveMode,
        endMode: c.endMode,
        ...(c.endOccurrences === undefined ? {} : { endOccurrences: c.endOccurrences }),
        ...(c.endDate === undefined ? {} : { endDate: c.endDate }),
        start: c.start
      }
    },
    [currencyLost("Actual", o.instructedAmount.currency)]
  )
}

/** An order written whole in a target standard, every loss named (the schedule's and the record's). */
export const write = (target: Target, o: Writable): Translation.Translation<object> => {
  switch (target) {
    case "cobs":
      return cobs(o)
    case "uk-v3":
    case "uk-v4":
      return uk(o, target)
    case "berlin-group":
      return berlinGroupPayment(o)
    case "berlin-group-ais":
      return berlinGroup(o)
    case "ynab":
      return ynab(o)
    case "actual":
      return actual(o)
  }
}

/**
 * The list envelope of a target around written records: a COBS page (one page of them all), a UK
 * `OBReadStandingOrder6`, a YNAB `ScheduledTransactionsResponse`, an Actual array, an array of Berlin Group periodic
 * payment bodies (the standard lists none: each is sent on its own), a Berlin Group transactions answer whose
 * `information` lists the standing orders.
 */
export const envelope = (target: Target, records: ReadonlyArray<object>): unknown => {
  switch (target) {
    case "cobs":
      return {
        pageNumber: 0,
        pageCount: 1,
        pageSize: records.length,
        totalCount: records.length,
        standingOrders: records
      }
    case "uk-v3":
    case "uk-v4":
      return {
        Data: { StandingOrder: records },
        Links: { Self: `urn:tppkit:translate:${target}` },
        Meta: { TotalPages: 1 }
      }
    case "ynab":
      return { data: { scheduled_transactions: records, server_knowledge: 0 } }
    case "berlin-group":
      return records
    case "berlin-group-ais":
      return {
        transactions: { booked: [], information: records, _links: { account: { href: "urn:tppkit:translate" } } }
      }
    case "actual":
      return records
  }
}
