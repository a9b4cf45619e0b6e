/**
 * Records of any standard in one list (packages/core/README.md, "Other standards"): which standard a record reveals by
 * its fields, and its recurrence through that standard's decoder. A file of orders may mix the bank's own records,
 * RRULEs, UK v3 and v4, Berlin Group, ISO 20022, COBS, YNAB and Actual; a reader may also force one standard.
 *
 * @since 0.2.0
 */
import { Result } from "effect"
import * as Actual from "./Actual.ts"
import * as BerlinGroup from "./BerlinGroup.ts"
import type * as BusinessDayConvention from "./BusinessDayConvention.ts"
import * as Calendar from "./Calendar.ts"
import * as Cobs from "./Cobs.ts"
import type * as Decoded from "./Decoded.ts"
import * as Frequency from "./Frequency.ts"
import * as Iso20022 from "./Iso20022.ts"
import * as Standards from "./internal/standards.ts"
import * as LocalDate from "./LocalDate.ts"
import * as Occurrence from "./Occurrence.ts"
import type * as Recurrence from "./Recurrence.ts"
import * as Rrule from "./Rrule.ts"
import * as Sbas from "./Sbas.ts"
import * as Translation from "./Translation.ts"
import * as UkOpenBanking from "./UkOpenBanking.ts"
import * as Ynab from "./Ynab.ts"

/** The standards a record can be in, as the CLI names them. */
export const standards = [
  "sbas",
  "rrule",
  "uk-v3",
  "uk-v4",
  "berlin-group",
  "iso20022",
  "cobs",
  "ynab",
  "actual"
] as const
/** A standard. */
export type Standard = (typeof standards)[number]

/**
 * The settings a standard may leave to the bank: convention, calendar, and the date to count from where the record
 * names none (a COBS list record, an RRULE without `DTSTART`).
 */
export interface Options {
  readonly convention?: BusinessDayConvention.BusinessDayConvention | undefined
  readonly calendar?: string | undefined
  readonly start?: LocalDate.LocalDate | undefined
}

const isObject = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

/** ISO codes the bank's list never uses (the others, e.g. MNTH, mean the same in both but DAIL). */
const ISO_ONLY = new Set(["QURT", "MIAN", "FRTN", "TOMN", "TOWK", "TWMN", "ADHO", "INDA", "OVNG", "ONDE"])
const YNAB = new Set<string>(Ynab.frequencies)
const ACTUAL = new Set(["daily", "weekly", "monthly", "yearly"])

/**
 * The standard a record reveals, or undefined: an `rrule` text; a `MandateRelatedInformation` or a `Frequency` object
 * (UK v4); a `Frequency` string (UK v3); `additionalInformationStructured` / `standingOrderDetails`, or a Berlin Group
 * code (Berlin Group); `standingOrder.execution` (COBS); a `Frequency36Choice` object or a code only ISO 20022 has
 * (ISO 20022); `date_first` (YNAB); `start` with Actual's frequency names (Actual); a bank code (the bank's own list:
 * a bare MNTH, WEEK, QUTR, SEMI, YEAR or DAIL is read as the bank's, whose DAIL is every working day).
 */
export const detect = (record: unknown): Standard | undefined => {
  if (!isObject(record)) return undefined
  if (typeof record.rrule === "string") return "rrule"
  if (isObject(record.MandateRelatedInformation) || isObject(record.Frequency)) return "uk-v4"
  if (typeof record.Frequency === "string") return "uk-v3"
  if (isObject(record.additionalInformationStructured) || isObject(record.standingOrderDetails)) return "berlin-group"
  if (isObject(record.standingOrder) || isObject(record.execution)) return "cobs"
  if (typeof record.date_first === "string" && YNAB.has(String(record.frequency))) return "ynab"
  const f = record.frequency
  if (isObject(f)) return "iso20022"
  if (typeof f !== "string") return undefined
  if (ACTUAL.has(f) && typeof record.start === "string") return "actual"
  if (BerlinGroup.frequencies.some((c) => c.toLowerCase() === f.toLowerCase())) return "berlin-group"
  if (ISO_ONLY.has(f.toUpperCase())) return "iso20022"
  if ((Frequency.codes as ReadonlyArray<string>).includes(f)) return "sbas"
  return undefined
}

/** The bank's record read: its code and dates (`YYYY-MM-DD`). */
const decodeSbas = (record: Record<string, unknown>, options?: Options): Decoded.Decoded<Recurrence.Recurrence> => {
  const warnings: Array<Decoded.Warning> = []
  const frequency = Frequency.codes.find((c) => c === record.frequency)
  if (frequency === undefined) {
    return {
      translation: Translation.unrepresentable(`${Standards.show(record.frequency)} is not a bank code`),
      warnings
    }
  }
  const translation = Sbas.decode(
    {
      frequency,
      startDate: Standards.readDate(record.startDate, "startDate", warnings),
      nextDate: Standards.readDate(record.nextDate, "nextDate", warnings),
      endDate: Standards.readDate(record.endDate, "endDate", warnings)
    },
    { convention: options?.convention, calendar: options?.calendar }
  )
  return { translation, warnings }
}

/** An RRULE record: `rrule` (content lines, or a bare `FREQ=…` with `startDate`, else the options' `start`). */
const decodeRrule = (record: Record<string, unknown>, options?: Options): Decoded.Decoded<Recurrence.Recurrence> => {
  const warnings: Array<Decoded.Warning> = []
  const start = Standards.readDate(record.startDate, "startDate", warnings) ?? options?.start
  const parsed = Rrule.parse(String(record.rrule), start)
  if (Result.isFailure(parsed)) return { translation: Translation.unrepresentable(parsed.failure), warnings }
  const t = Rrule.decode(parsed.success.rrule)
  const losses = parsed.success.losses
  // X-TPPKIT-NEVER-MOVED: the dates fix their convention (never moved), as the bank's DAI7 they were written from
  const own = parsed.success.rrule.neverMoved === true ? { ownConvention: true } : {}
  if (t._tag === "Unrepresentable" || losses.length === 0) return { translation: t, warnings, ...own }
  return {
    translation: Translation.withLosses(t.value, [...losses, ...(t._tag === "Lossy" ? t.losses : [])]),
    warnings,
    ...own
  }
}

/** A standard's encoding as the schedule fields of a record (its encoder's value, its fields as they are). */
const fields = <A extends object>(t: Translation.Translation<A>) =>
  Translation.map(t, (v): Readonly<Record<string, unknown>> => ({ ...(v as Record<string, unknown>) }))

/** The convention and calendar a standard's decoder is told (the options' own). */
const settingsOf = (options: Options | undefined) => ({ convention: options?.convention, calendar: options?.calendar })

/** Each standard's decoder and encoder of a record's schedule fields: what {@link decode} and {@link encode} run. */
const codecs: {
  readonly [S in Standard]: {
    readonly decode: (record: unknown, options: Options | undefined) => Decoded.Decoded<Recurrence.Recurrence>
    readonly encode: (recurrence: Recurrence.Recurrence) => Translation.Translation<Readonly<Record<string, unknown>>>
  }
} = {
  sbas: {
    decode: (record, options) => decodeSbas(isObject(record) ? record : {}, options),
    encode: (recurrence) =>
      Translation.map(Sbas.encode(recurrence), (o) => ({
        frequency: o.frequency,
        startDate: LocalDate.format(o.startDate),
        ...(o.endDate === undefined ? {} : { endDate: LocalDate.format(o.endDate) })
      }))
  },
  rrule: {
    decode: (record, options) => decodeRrule(isObject(record) ? record : {}, options),
    encode: (recurrence) => Translation.map(Rrule.encode(recurrence), (r) => ({ rrule: Rrule.format(r) }))
  },
  "uk-v3": {
    decode: (record, options) => UkOpenBanking.decodeV3(record, settingsOf(options)),
    encode: (recurrence) => fields(UkOpenBanking.encodeV3(recurrence))
  },
  "uk-v4": {
    decode: (record, options) => UkOpenBanking.decodeV4(record, settingsOf(options)),
    encode: (recurrence) => fields(UkOpenBanking.encodeV4(recurrence))
  },
  "berlin-group": {
    decode: (record, options) => BerlinGroup.decode(record, settingsOf(options)),
    encode: (recurrence) => fields(BerlinGroup.encode(recurrence))
  },
  iso20022: {
    decode: (record, options) => Iso20022.decode(record, settingsOf(options)),
    encode: (recurrence) => fields(Iso20022.encode(recurrence))
  },
  cobs: {
    decode: (record, options) => Cobs.decode(record, { ...settingsOf(options), start: options?.start }),
    encode: (recurrence) => fields(Cobs.encode(recurrence))
  },
  ynab: { decode: (record) => Ynab.decode(record), encode: (recurrence) => fields(Ynab.encode(recurrence)) },
  actual: { decode: (record) => Actual.decode(record), encode: (recurrence) => fields(Actual.encode(recurrence)) }
}

/**
 * A record's recurrence through its standard's decoder: the one `standard` forces, else the one it reveals
 * ({@link detect}); with the standard read. Unrepresentable, with the reason, when no standard is revealed.
 * `ownConvention` says whether the record carries or fixes its business-day convention (the bank's codes and RRULEs
 * never do; YNAB and Actual always fix theirs): a reader that applies its own default convention keeps such a one.
 */
export const decode = (
  record: unknown,
  options?: Options & { readonly standard?: Standard | undefined }
): Decoded.Decoded<Recurrence.Recurrence> & {
  readonly standard: Standard | undefined
  readonly ownConvention: boolean
} => {
  const standard = options?.standard ?? detect(record)
  const with_ = (d: Decoded.Decoded<Recurrence.Recurrence>) => ({
    ...d,
    standard,
    ownConvention: d.ownConvention ?? (standard !== "sbas" && standard !== "rrule" && standard !== undefined)
  })
  if (standard === undefined) {
    return with_({
      translation: Translation.unrepresentable("the record reveals no standard (pass one: --standard)"),
      warnings: []
    })
  }
  return with_(codecs[standard].decode(record, options))
}

/**
 * A recurrence as the schedule fields of a record in `standard` (what {@link decode} reads back): the bank's
 * `frequency`, `startDate` and `endDate`; an `rrule` text; the other standards' own fields as their encoders write
 * them. A field the standard cannot carry is a loss (field, from, to, why: `Translation.describe` words it); what it
 * leaves to the bank (the bank's and RFC 5545's convention, UK's and ISO's) is the reader's option, as on decoding.
 */
export const encode = (
  recurrence: Recurrence.Recurrence,
  standard: Standard
): Translation.Translation<Readonly<Record<string, unknown>>> => {
  return codecs[standard].encode(recurrence)
}

/**
 * The loss of the bank's own closing days (`holidays`), which no standard's record says: named for a recurrence when
 * one of them moves a payment among its first `Occurrence.SAMPLED` (its day counted or moved on its calendar with
 * them, against the calendar alone; TARGET when the recurrence names none), with the first payment it moves.
 */
export const holidaysLoss = (
  r: Recurrence.Recurrence,
  holidays: ReadonlyArray<LocalDate.LocalDate>
): Translation.Loss | undefined => {
  if (holidays.length === 0) return undefined
  const base = (r.calendar === undefined ? undefined : Calendar.builtInNamed(r.calendar)) ?? Calendar.target
  const without = Occurrence.planOf(r, { calendar: base })
  const withThem = Occurrence.planOf(r, { calendar: Calendar.withHolidays(base, holidays) })
  if (Result.isFailure(without) || Result.isFailure(withThem)) return undefined
  const a = Occurrence.iterate(without.success)
  const b = Occurrence.iterate(withThem.success)
  for (let i = 0; i < Occurrence.SAMPLED; i++) {
    const x = a.next()
    const y = b.next()
    if (x.done === true && y.done === true) return undefined
    const was = x.done === true ? undefined : x.value.execution
    const now = y.done === true ? undefined : y.value.execution
    if (was === now) continue
    const due = (x.done === true ? y.value : x.value)?.nominal
    return {
      field: "holidays",
      from: holidays.map(LocalDate.format).join(","),
      to: "not defined",
      why: `no standard's record says the bank's own closing days: the payment due ${due === undefined ? "" : LocalDate.format(due)} executes on ${now === undefined ? "no day" : LocalDate.format(now)} with them, on ${was === undefined ? "no day" : LocalDate.format(was)} without`
    }
  }
  return undefined
}
