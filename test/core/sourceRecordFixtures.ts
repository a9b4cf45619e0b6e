/**
 * The whole-record fixtures (test/core/fixtures/records, written for tppkit from the shapes of each standard's
 * published field tables, one more per trap) read as a golden line per record: the standard, ID, direction, amount,
 * accounts, the source's next date, the first nominal dates of the schedule, and the warnings and missing fields by
 * name; or the reason a record is skipped.
 */
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { Json, LocalDate, Money, Occurrence, SourceRecord, Standard, Translation } from "@tppkit/core"
import { Result } from "effect"

/** The fixtures' folder. */
export const fixtures = fileURLToPath(new URL("./fixtures/records/", import.meta.url))

/** A fixture's document, read exactly (numbers as their text). */
export const document = (name: string): Json.Value =>
  Result.getOrThrow(Json.parse(readFileSync(`${fixtures}${name}`, "utf8"))).value

/** A value with its exact numbers made JSON numbers (what the schedule decoders read today). */
const plain = (u: unknown): unknown => JSON.parse(JSON.stringify(u))

const party = (p: SourceRecord.Party): string =>
  p.account === undefined ? (p.name === undefined ? "?" : `"${p.name}"`) : `${p.account.scheme}:${p.account.id}`

/** One golden line of a record read whole (the listing day 2026-11-29 for COBS list items). */
export const line = (read: SourceRecord.Read): string => {
  if (read._tag === "Skipped") return `skipped ${read.orderId}: ${read.reason}`
  const r = read.reading
  const decoded = Standard.decode(plain(r.schedule), { standard: r.standard, start: r.start })
  const t = decoded.translation
  const v = Translation.getValue(t)
  const dates: Array<string> = []
  if (v !== undefined) {
    const plan = Occurrence.planOf(v)
    if (Result.isSuccess(plan))
      for (const o of Occurrence.iterate(plan.success)) {
        if (dates.length >= 3) break
        dates.push(LocalDate.format(o.nominal))
      }
  }
  const bounds = [
    ...(v?.end === undefined ? [] : [`end ${LocalDate.format(v.end)}`]),
    ...(v?.count === undefined ? [] : [`count ${v.count}`])
  ]
  const notes = [
    ...r.warnings.map((w) => `~${w.field}`),
    ...decoded.warnings.map((w) => `~${w.field}`),
    ...r.missing.map((m) => `-${m.field}`),
    ...(t._tag === "Lossy" ? t.losses.map((l) => `!${l.field}`) : [])
  ]
  const amount = `${Money.toPlainString(r.amount.value)}${r.amount.currency === undefined ? "" : ` ${r.amount.currency}`}`
  return [
    `${r.standard} ${r.orderId} ${r.direction} ${amount}`,
    `${party(r.debtor)} -> ${party(r.creditor)}`,
    ...(r.nextDate === undefined ? [] : [`next ${LocalDate.format(r.nextDate)}`]),
    t._tag === "Unrepresentable" ? `unrepresentable: ${t.reason}` : dates.join(","),
    ...bounds,
    ...(notes.length === 0 ? [] : [notes.join(" ")])
  ].join(" | ")
}

/** Every record of a fixture read whole, as golden lines. */
export const lines = (name: string): Array<string> => {
  const env = SourceRecord.envelope(document(name))
  return env.records.map((record) => {
    const read = SourceRecord.read(record, {
      standard: SourceRecord.detect(record) ?? env.standard,
      listedOn: LocalDate.parseUnsafe("2026-11-29"),
      account: env.account
    })
    return read === undefined ? "not a source record" : line(read)
  })
}
