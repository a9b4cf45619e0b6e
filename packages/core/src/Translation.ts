/**
 * The result of translating a recurrence between standards (packages/core/README.md, "Translations"): `Exact`, `Lossy`
 * with every change named (field, from, to, why), or `Unrepresentable` with the reason. Translations return it and
 * never throw; nothing is rounded to an approximate cadence.
 *
 * @since 0.2.0
 */
import { Schema } from "effect"
import * as LocalDate from "./LocalDate.ts"

/** One change a translation made: the field, its value before and after, and why it could not be kept. */
export const Loss = Schema.Struct({ field: Schema.String, from: Schema.String, to: Schema.String, why: Schema.String })
/** One change a translation made. */
export type Loss = typeof Loss.Type

/** The target says the same dates. */
export interface Exact<A> {
  readonly _tag: "Exact"
  readonly value: A
}

/** The target says something close, and `losses` names every field whose dates differ. */
export interface Lossy<A> {
  readonly _tag: "Lossy"
  readonly value: A
  readonly losses: ReadonlyArray<Loss>
}

/** The target cannot say it at all. */
export interface Unrepresentable {
  readonly _tag: "Unrepresentable"
  readonly reason: string
}

/** A translation's result. */
export type Translation<A> = Exact<A> | Lossy<A> | Unrepresentable

/** An exact translation. */
export const exact = <A>(value: A): Translation<A> => ({ _tag: "Exact", value })

/** `Exact` without losses, else `Lossy` with them. */
export const withLosses = <A>(value: A, losses: ReadonlyArray<Loss>): Translation<A> =>
  losses.length === 0 ? { _tag: "Exact", value } : { _tag: "Lossy", value, losses }

/** An untranslatable value, with the reason. */
export const unrepresentable = <A = never>(reason: string): Translation<A> => ({ _tag: "Unrepresentable", reason })

/** The value of an exact or lossy translation, or `undefined`. */
export const getValue = <A>(t: Translation<A>): A | undefined => (t._tag === "Unrepresentable" ? undefined : t.value)

/** The translation's value mapped (losses and reasons kept). */
export const map = <A, B>(t: Translation<A>, f: (a: A) => B): Translation<B> =>
  t._tag === "Unrepresentable" ? t : t._tag === "Exact" ? exact(f(t.value)) : { ...t, value: f(t.value) }

/**
 * A translation of a translated value: `f`'s translation with the losses of `t` before its own (an unrepresentable
 * `t` stays so, and `f` is not called).
 */
export const andThen = <A, B>(t: Translation<A>, f: (a: A) => Translation<B>): Translation<B> => {
  if (t._tag === "Unrepresentable") return t
  const u = f(t.value)
  return t._tag === "Exact" || u._tag === "Unrepresentable"
    ? u
    : withLosses(u.value, [...t.losses, ...(u._tag === "Lossy" ? u.losses : [])])
}

/** The translation with one more loss after its own (an exact one becomes lossy; an unrepresentable one stays so). */
export const addLoss = <A>(t: Translation<A>, loss: Loss | undefined): Translation<A> =>
  loss === undefined || t._tag === "Unrepresentable"
    ? t
    : { _tag: "Lossy", value: t.value, losses: [...(t._tag === "Lossy" ? t.losses : []), loss] }

/** `exact`, `lossy` or `unrepresentable`: the word the CLI prints. */
export const verdict = (t: Translation<unknown>): "exact" | "lossy" | "unrepresentable" =>
  t._tag === "Exact" ? "exact" : t._tag === "Lossy" ? "lossy" : "unrepresentable"

/** The model's fields as words (a standard's own field names are kept as written). */
const FIELD_WORDS: Readonly<Record<string, string>> = {
  missing: "a day a short month lacks",
  convention: "the business-day convention",
  pauses: "the pauses",
  calendar: "the calendar",
  holidays: "the bank's own closing days",
  start: "the first date",
  end: "the end",
  count: "the number of payments"
}

/** Paused months of every year in words: "every July", "every June, July and August". */
const everyMonth = (months: ReadonlyArray<string>): string => {
  const names = months.map((m) => LocalDate.monthNames[Number(m) - 1] ?? m)
  return `every ${names.length === 1 ? names[0] : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`}`
}

/**
 * A loss's value as words (what {@link describe} says): a missing-day rule, a convention that never moves, paused
 * months (`months 7` is "every July"), the target's silence; any other value as it is.
 */
export const words = (field: string, value: string): string => {
  if (field === "pauses") {
    return value
      .split("; ")
      .map((part) => {
        const m = /^months (\d{1,2}(?:,\d{1,2})*)$/.exec(part)
        return m === null ? part : everyMonth(m[1]!.split(","))
      })
      .join("; ")
  }
  if (field === "missing") {
    if (value === "clamp") return "paid on the month's last day"
    if (value === "skip") return "skipped"
    if (value === "forward") return "paid on the next month's first day"
  }
  if (field === "convention" && value === "none") return "never moved"
  if (value === "not defined") return "not defined by the standard"
  return value
}

/**
 * A loss as one readable sentence: the field, what it was, what it becomes, and why, e.g. "A day a short month lacks
 * (missing) changes from paid on the month's last day to not defined by the standard, because Berlin Group does not say …".
 */
export const describe = (loss: Loss): string => {
  const name = FIELD_WORDS[loss.field]
  // a standard's own field keeps its spelling, even at the start of the sentence
  const subject = name === undefined ? loss.field : `${name.charAt(0).toUpperCase()}${name.slice(1)} (${loss.field})`
  // "the pauses" are plural
  const verb = loss.field === "pauses" ? "change" : "changes"
  const sentence = `${subject} ${verb} from ${words(loss.field, loss.from)} to ${words(loss.field, loss.to)}, because ${loss.why}`
  return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`
}
