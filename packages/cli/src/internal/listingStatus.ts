/**
 * The reconciliations of the fleet's listings as `tppkit worker status` shows them (worker's
 * `ListingReconciliation`): per sweep day and consent, how many listed `nextDate`s matched the fleet's rule, were
 * explained by another, stale, anomalies or unexplained, and the rule the evidence points to. Light: types only from
 * the worker, so printing a status loads none of the fleet's machinery.
 */
import type * as ListingReconciliation from "@tppkit/worker/ListingReconciliation"
import * as Render from "../Render.ts"

/** The bank's rule as the evidence shows it: the inferred rule with its support, the rules tied, or no evidence. */
export const bankRule = (s: ListingReconciliation.Summary): string =>
  s.evidence === 0
    ? "no dates to compare"
    : s.inferred !== undefined
      ? `${s.inferred} (${s.support} of ${s.evidence})`
      : `tied: ${s.tied.join(" | ")} (${s.support} of ${s.evidence} each)`

/**
 * The table of the listings' reconciliations under a heading naming the fleet's rule, then a line for each listing
 * with findings (anomalies, unexplained dates, or differences no one rule explains) and one naming the orderIds a
 * listing repeats (the fleet checks each record as `ID#N`); nothing when none is kept.
 */
export const lines = (reconciliations: ReadonlyArray<ListingReconciliation.Summary>, width: number): Array<string> => {
  if (reconciliations.length === 0) return []
  const rules = [...new Set(reconciliations.map((s) => s.ruleInUse))]
  const table = Render.table(
    [
      { header: "Day" },
      { header: "Consent", flex: true },
      { header: "Match", align: "right" },
      { header: "Explained", align: "right" },
      { header: "Stale", align: "right" },
      { header: "Anomaly", align: "right" },
      { header: "Unexplained", align: "right" },
      { header: "Bank's rule", flex: true }
    ],
    reconciliations.map((s) => [
      s.day,
      s.consent,
      String(s.match),
      String(s.explained),
      String(s.stale),
      String(s.anomaly),
      String(s.unexplained),
      bankRule(s)
    ]),
    width
  )
  const findings = reconciliations.filter((s) => s.findings)
  const repeated = reconciliations.flatMap((s) =>
    (s.repeated ?? []).map((r) => `${s.day} ${s.consent} ${r.orderId} (${r.records} records)`)
  )
  return [
    "",
    `Listed nextDates against ${rules.join(", ")} (the sweep's day is the listing day):`,
    ...table,
    ...(findings.length === 0
      ? ["no findings: every date matches or one rule explains the differences"]
      : Render.wrap(
          `${findings.length} listing(s) with findings: ${findings.map((s) => `${s.day} ${s.consent}`).join(", ")} (tppkit standing-orders --all --reconcile shows the orders)`,
          width,
          "",
          "  "
        )),
    ...(repeated.length === 0
      ? []
      : Render.wrap(
          `repeated orderIds, each record checked on its own as ID#1, ID#2, …: ${repeated.join(", ")}`,
          width,
          "",
          "  "
        ))
  ]
}
