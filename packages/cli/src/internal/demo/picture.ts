/** `tppkit demo --html FILE`: the cash-flow picture of the projection, the funds check's payments at risk marked. */
import { LocalDate } from "@tppkit/core"
import type { Coverage, Payment, Projection } from "@tppkit/schedule"
import { Effect, FileSystem } from "effect"
import * as Failure from "../../Failure.ts"
import * as Html from "../../Html.ts"
import * as Output from "../../Output.ts"
import { reasonText } from "./reasons.ts"
import { calendarName, convention } from "./upcoming.ts"

/** What the picture shows. */
export interface Input {
  readonly from: LocalDate.LocalDate
  readonly to: LocalDate.LocalDate
  readonly payments: ReadonlyArray<Payment.Payment>
  readonly skipped: ReadonlyArray<Projection.Skipped>
  readonly atRisk: ReadonlyArray<Coverage.AtRisk>
  /** The last execution date the funds check covered. */
  readonly horizon: LocalDate.LocalDate
  /** How many payments are at risk. */
  readonly atRiskCount: number
}

/** Writes the picture to `file` (whole or not at all) and says where. */
export const write = (file: string, input: Input) =>
  Effect.gen(function* () {
    const picture = Html.document({
      title: "Cash flow (tppkit demo)",
      from: input.from,
      to: input.to,
      calendar: calendarName,
      convention,
      payments: input.payments,
      skipped: input.skipped,
      atRisk: new Map(input.atRisk.map((r) => [Html.riskKey(r.payment), reasonText(r.reason)])),
      fundsCheck: `payments due by ${LocalDate.format(input.horizon)} checked, ${input.atRiskCount} at risk`
    })
    const fs = yield* FileSystem.FileSystem
    // written beside it, then renamed: interrupted or failed, the file is never half written (the part is removed)
    const part = `${file}.${process.pid}.part`
    yield* fs.writeFileString(part, picture).pipe(
      Effect.andThen(fs.rename(part, file)),
      Effect.onError(() => Effect.ignore(fs.remove(part, { force: true }))),
      Effect.mapError((e) => Failure.failure(`cannot write the picture to ${JSON.stringify(file)}: ${e.message}`, e))
    )
    // The path is printed whole: wrapping it at the report width would break a copy and paste.
    yield* Output.line(`\n   Cash-flow picture written to ${file}.`)
  })
