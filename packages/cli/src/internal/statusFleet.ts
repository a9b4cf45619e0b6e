/**
 * The fleet of `tppkit worker status`: each day's sweep per consent, the budget of unattended listings, the webhook
 * deliveries not made yet and the endpoints disabled, whether the fleet still advances, and their JSON.
 */
import { Budget } from "@tppkit/http"
import type { FleetStatus, SweepLog } from "@tppkit/worker"
import * as Render from "../Render.ts"
import { isoOrNull, shortUtc, width } from "./statusText.ts"

const sweepState: Record<SweepLog.State, string> = {
  running: "running",
  retrying: "retrying",
  complete: "finished",
  failed: "failed"
}

/**
 * Each day's sweep per consent: its run, state (running, retrying, finished, failed), the checks it planned, the
 * listings tried and when (finished, or the next try), then one line per failed or retrying consent with why and
 * its typed reason, and when it runs again, and one per consent whose orders wait for their details (issue 37).
 */
export const sweepsSection = (status: FleetStatus.Status, w: number = width): Array<string> => {
  const sweeps = status.sweeps
  if (sweeps === undefined) return []
  if (sweeps.length === 0) return ["Sweeps: none recorded", ""]
  const rows = Render.table(
    [
      { header: "Day" },
      { header: "Consent", flex: true },
      { header: "Run", align: "right" },
      { header: "State" },
      { header: "Checks", align: "right" },
      { header: "Tries", align: "right" },
      { header: "When (UTC)" }
    ],
    sweeps.map((e) => [
      e.day,
      e.consent,
      String(e.run),
      sweepState[e.state] ?? e.state,
      e.state === "complete" ? String(e.planned) : "",
      String(e.tries),
      e.state === "retrying" && e.retryAt !== undefined
        ? `again ${shortUtc(e.retryAt)}`
        : e.finishedAt !== undefined
          ? shortUtc(e.finishedAt)
          : `since ${shortUtc(e.startedAt)}`
    ]),
    w
  )
  const why = sweeps.flatMap((e) => {
    // records of the listing that could not be read, and those that pay nothing (issue 34): the count, the first few
    // with position and reason
    const settled = e.state !== "failed" && e.state !== "retrying"
    const records = (named: SweepLog.Entry["unread"], what: string) =>
      named === undefined || !settled
        ? []
        : Render.wrap(
            `${e.day} ${e.consent}: ${named.count} record(s) of the listing ${what}: ${named.first.map((u) => `${u.position}: ${u.reason}`).join("; ")}${named.count > named.first.length ? "; …" : ""}`,
            w,
            "  ",
            "    "
          )
    // the warnings of the listing's reading: one line per field and reason, with the count (planned as read)
    const warned = settled
      ? (e.warnings ?? []).flatMap((g) =>
          Render.wrap(
            `${e.day} ${e.consent}: ${g.count} record(s) read with a warning, planned as read: ${g.field}: ${g.reason} (${g.orderIds.join(", ")}${g.count > g.orderIds.length ? ", …" : ""})`,
            w,
            "  ",
            "    "
          )
        )
      : []
    const unread = [
      ...records(e.unread, "could not be read, not planned"),
      ...records(e.skipped, "pay nothing, skipped"),
      ...warned
    ]
    const pending = e.detailsPending ?? []
    if (pending.length > 0 && e.state !== "failed" && e.state !== "retrying") {
      const named = pending.slice(0, 10).join(", ")
      return [
        ...unread,
        ...Render.wrap(
          `${e.day} ${e.consent}: ${pending.length} order(s) not planned, their details pending (the list names no start): ${named}${pending.length > 10 ? ", …" : ""}; read within a later day's budget`,
          w,
          "  ",
          "    "
        )
      ]
    }
    if (unread.length > 0) return unread
    if (e.state !== "failed" && e.state !== "retrying") return []
    const reason = e.reason === undefined ? "" : ` (${e.reason})`
    const next =
      e.state === "failed"
        ? (e.cause ?? "").includes("runs again")
          ? ""
          : "; runs again when a worker starts or at the next sweep hour"
        : e.retryAt === undefined
          ? ""
          : `; tried again at ${new Date(e.retryAt).toISOString().replace(/\.\d{3}Z$/, "Z")}`
    return Render.wrap(
      `${e.day} ${e.consent}: ${e.state}${reason}: ${e.cause ?? "no description"}${next}`,
      w,
      "  ",
      "    "
    )
  })
  return ["Sweeps by day and consent:", ...rows, ...why, ""]
}

/** The budget of unattended listings per bank, client, consent and day. */
export const budgetSection = (status: FleetStatus.Status, w: number = width): Array<string> => {
  const budgetLines = Render.table(
    [
      { header: "Bank", flex: true },
      { header: "Client", flex: true },
      { header: "Consent", flex: true },
      { header: "Day" },
      { header: "Used", align: "right" },
      { header: "Limit", align: "right" }
    ],
    status.budget.map((b) => {
      const parts = Budget.parseConsentKey(b.consentKey)
      return [
        parts === undefined ? "?" : `${parts.baseUrl} (${parts.environment})`,
        parts?.clientId ?? "?",
        `${parts?.consent ?? b.consentKey}${b.profile === undefined ? "" : ` (${b.profile})`}`,
        b.day,
        String(b.used),
        String(b.limit)
      ]
    }),
    w
  )
  return ["", "Daily budget of unattended listings:", ...(status.budget.length === 0 ? ["nothing spent"] : budgetLines)]
}

/**
 * The webhook endpoints disabled (they answered 410 Gone) or with deliveries given up, each with the way out, and the
 * deliveries not made yet: event, endpoint, attempts, the next try and the last error.
 */
export const deliveriesSection = (status: FleetStatus.Status, w: number = width): Array<string> => {
  const deliveries = status.deliveries ?? []
  const endpoints = (status.endpoints ?? []).filter((e) => e.disabledAt !== undefined || e.failed > 0)
  const endpointLines = endpoints.flatMap((e) =>
    Render.wrap(
      (e.disabledAt === undefined
        ? `Webhook endpoint ${e.endpoint}: `
        : `Webhook endpoint ${e.endpoint} disabled since ${shortUtc(e.disabledAt)} UTC` +
          `${e.disabledReason === undefined ? "" : ` (${e.disabledReason})`}; tppkit webhook enable URL turns it back on; `) +
        `${e.failed} ${e.failed === 1 ? "delivery" : "deliveries"} given up, tppkit webhook replay --since D sends them again`,
      w,
      "",
      "  "
    )
  )
  return [
    ...(endpointLines.length === 0 ? [] : ["", ...endpointLines]),
    ...(deliveries.length === 0
      ? []
      : [
          "",
          `Webhook deliveries not made yet (${deliveries.length}${deliveries.length >= 50 ? " or more" : ""}):`,
          ...deliveries.flatMap((d) =>
            Render.wrap(
              `${d.type} ${d.eventId} to ${d.endpoint}: ${d.attempts} attempts, next ${shortUtc(d.nextAt)} UTC` +
                (d.lastError === undefined ? "" : `; last: ${d.lastError}`),
              w,
              "  ",
              "    "
            )
          )
        ])
  ]
}

/**
 * Whether the fleet still advances, one line (wrapped to the width): `live` with the queue and the runners, `stopped`
 * (no healthy runner), or `stalled` since when and why (`Liveness.verdict`).
 */
export const livenessSection = (status: FleetStatus.Status, w: number = width): Array<string> => {
  const liveness = status.liveness
  if (liveness === undefined) return []
  const { reading, verdict } = liveness
  const waiting = `${reading.unread} due ${reading.unread === 1 ? "request waits" : "requests wait"} unread`
  const swept = reading.lastSweepAt === undefined ? "no sweep yet" : `last sweep ${shortUtc(reading.lastSweepAt)} UTC`
  const text =
    verdict.state === "stalled"
      ? `Fleet: stalled since ${shortUtc(verdict.since)} UTC: ${verdict.reason}`
      : verdict.state === "stopped"
        ? `Fleet: stopped: no runner is healthy; ${waiting}; ${swept}`
        : `Fleet: live: ${reading.runners} ${reading.runners === 1 ? "runner" : "runners"} healthy, ${waiting}; ${swept}`
  return ["", ...Render.wrap(text, w, "", "  ")]
}

/**
 * The JSON of whether the fleet still advances and of its webhook endpoints, for `--format json` beside
 * {@link json}: `fleet` (`state` live, stopped or stalled, with `what`, `since` and `reason` when stalled; the queue's
 * due unread requests and the oldest's time, the healthy runners, the last sweep) and `webhookEndpoints` (each
 * endpoint, disabled since when and why, its deliveries given up); each key only when the status read it.
 */
export const fleetJson = (status: FleetStatus.Status) => {
  const liveness = status.liveness
  const endpoints = status.endpoints
  return {
    ...(liveness === undefined
      ? {}
      : {
          fleet: {
            state: liveness.verdict.state,
            ...(liveness.verdict.state === "stalled"
              ? {
                  what: liveness.verdict.what,
                  since: new Date(liveness.verdict.since).toISOString(),
                  reason: liveness.verdict.reason
                }
              : {}),
            unread: liveness.reading.unread,
            oldestUnreadAt: isoOrNull(liveness.reading.oldestUnreadAt),
            runners: liveness.reading.runners,
            lastSweepAt: isoOrNull(liveness.reading.lastSweepAt)
          }
        }),
    ...(endpoints === undefined
      ? {}
      : {
          webhookEndpoints: endpoints.map((e) => ({
            endpoint: e.endpoint,
            disabledAt: isoOrNull(e.disabledAt),
            disabledReason: e.disabledReason ?? null,
            failed: e.failed
          }))
        })
  }
}
