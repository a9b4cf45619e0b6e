/**
 * The work behind `tppkit reconcile`, loaded only when the command runs: read the orders, reconcile them on the
 * listing day, print the summary and the differences, and exit 8 when there are findings.
 */
import { Reconciliation } from "@tppkit/schedule"
import { Effect, Result } from "effect"
import * as Failure from "../Failure.ts"
import * as Output from "../Output.ts"
import * as Reconcile from "../Reconcile.ts"
import { readOrders } from "./project.ts"

/** The parsed flags of `tppkit reconcile`. */
export interface Input {
  readonly orders: string
  readonly asOf: string
  readonly calendar: string
  readonly convention: string
  readonly format: Reconcile.Format
}

/** Runs `tppkit reconcile` with parsed flags. */
export const run = Effect.fn("tppkit.reconcile")(function* (input: Input) {
  const settings = Reconcile.settings(input)
  if (Result.isFailure(settings)) return yield* Failure.usage(settings.failure)
  const decoded = yield* readOrders(input.orders)
  if (Result.isFailure(decoded)) {
    return yield* Failure.badInput(`${input.orders === "-" ? "standard input" : input.orders}: ${decoded.failure}`)
  }
  const reconciliation = Reconciliation.reconcile(decoded.success.orders, settings.success)
  const report = { reconciliation, unreadable: decoded.success.skipped }
  yield* Output.line(input.format === "json" ? Reconcile.json(report) : Reconcile.table(report))
  if (Reconciliation.hasFindings(reconciliation)) return yield* Failure.findings()
})
