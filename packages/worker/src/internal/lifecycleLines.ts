/** The engine of `Lifecycle` (its public module holds the types and documents the functions). */

import { LocalDate } from "@tppkit/core"
import type { BudgetExhausted } from "@tppkit/http/BankError"
import { Cause, Effect, Logger } from "effect"
import { isTransient } from "../FundsCheckWorkflow.ts"
import type { Event, Format, Listener, SweepFinished } from "./lifecycleEvents.ts"

/** How many repeated checks a `run_finished` line names (the rest are counted; `worker status` lists them all). */
export const namedRepeats = 10

/**
 * A sweep's listing failure in the words of a worker's operator: a refusal by the daily budget names only the ways
 * out a worker has (the day's sweep runs again later; a consent too large for the budget is split), not the bank
 * commands' flags (README.md, "Daily budget"); anything else is its own message.
 */
export const listingCause = (failure: { readonly message: string }): string => {
  const reason = (failure as { readonly _tag?: unknown; readonly reason?: unknown }).reason
  if (
    (failure as { readonly _tag?: unknown })._tag !== "BankError" ||
    typeof reason !== "object" ||
    reason === null ||
    (reason as { readonly _tag?: unknown })._tag !== "BudgetExhausted"
  ) {
    return failure.message
  }
  const r = reason as BudgetExhausted
  const need =
    r.listingPages === undefined
      ? `${r.requested} more`
      : `the ${r.requested} more pages of this ${r.listingPages}-page listing`
  return `daily budget of ${r.limit} unattended calls cannot cover ${need} (used ${r.used}); it frees up at ${r.freesAt}. Ways out for a worker: the day's sweep runs again when a worker starts or at the next sweep hour (tppkit worker --today DAY --once runs it now); a consent with more orders than ${r.limit} pages hold must be split over several consents (--consents KEY=IBAN,…)`
}

/**
 * The typed reason of a failure: a `BankError`'s reason tag (`BudgetExhausted`, `TransportFailure`, …), or the
 * failure's own tag (`InvalidIban`, `ChecksError`).
 */
export const reasonOf = (failure: { readonly message: string }): string | undefined => {
  const f = failure as { readonly _tag?: unknown; readonly reason?: { readonly _tag?: unknown } }
  if (f._tag === "BankError" && typeof f.reason?._tag === "string") return f.reason._tag
  return typeof f._tag === "string" ? f._tag : undefined
}

/** The `SweepFinished` event of a sweep run's consents (each planned count, or its listing's failure). */
export const finished = (
  day: string,
  run: number,
  consents: ReadonlyArray<{
    readonly consent: string
    readonly planned: number
    readonly tries?: number | undefined
    readonly failure?: { readonly message: string } | undefined
    readonly pagesUnread?: ReadonlyArray<number> | "unknown" | undefined
  }>
): SweepFinished => {
  // a consent planned in part says which pages' payments are left unplanned before why
  const causeOf = (c: (typeof consents)[number]) =>
    `${
      c.pagesUnread === undefined
        ? ""
        : `${c.pagesUnread === "unknown" ? "its listing's pages not read" : `page(s) ${c.pagesUnread.join(", ")} not read`} and no complete listing kept: their payments are not planned; `
    }${c.failure === undefined ? "" : listingCause(c.failure)}`
  return {
    _tag: "SweepFinished",
    day,
    run,
    consents: consents.length,
    planned: consents.reduce((n, c) => n + c.planned, 0),
    failed: consents.flatMap((c) => (c.failure === undefined ? [] : [{ consent: c.consent, cause: causeOf(c) }])),
    results: consents.map((c) =>
      c.failure === undefined
        ? { consent: c.consent, planned: c.planned, tries: c.tries ?? 1 }
        : {
            consent: c.consent,
            planned: c.planned,
            tries: c.tries ?? 1,
            cause: causeOf(c),
            reason: reasonOf(c.failure)
          }
    )
  }
}

/** The longest message or cause a line carries; the rest is cut with `…`. */
export const maxText = 240

/** A text on one line without stack-trace lines, cut to {@link maxText} characters. */
export const shorten = (text: string): string => {
  const line = text
    .split("\n")
    .filter((l) => !/^\s+at /.test(l))
    .map((l) => l.trim())
    .join(" ")
    .trim()
  return line.length <= maxText ? line : `${line.slice(0, maxText - 1)}…`
}

export const seconds = (millis: number): string => `${Math.round(millis / 100) / 10}s`

/** The instant in a time zone, as `2026-11-26T08:00:00+01:00`. */
export const localTime = (at: number, timeZone: string): string => {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-CA", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
      timeZoneName: "longOffset"
    })
      .formatToParts(new Date(at))
      .map((p) => [p.type, p.value])
  )
  const offset = parts.timeZoneName === "GMT" ? "+00:00" : String(parts.timeZoneName).replace("GMT", "")
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}${offset}`
}

/** A line's fields: its level and event name first, then the others in the order they are written. */
const lineFields = (
  level: string,
  name: string,
  others: Readonly<Record<string, string | number>>
): ReadonlyArray<readonly [string, string | number]> => [["level", level], ["event", name], ...Object.entries(others)]

/** The line of records a consent's listing did not plan: how many, the first ones with their reasons. */
const recordsLine = (
  level: string,
  name: string,
  event: {
    readonly day: string
    readonly consent: string
    readonly count: number
    readonly first: ReadonlyArray<{ readonly position: string; readonly reason: string }>
  },
  message: string
): ReadonlyArray<readonly [string, string | number]> =>
  lineFields(level, name, {
    day: event.day,
    consent: event.consent,
    records: event.count,
    first: event.first.map((r) => `${r.position}: ${r.reason}`).join("; "),
    message
  })

/**
 * An event's fields in line order: the level and name first, then the cause (if any), then the rest. A finished
 * check has a line only when it is tried again (`check_retry`); answers and final failures are counted in the
 * metrics and listed by `worker status`, not logged.
 */
export const fields = (event: Event): ReadonlyArray<readonly [string, string | number]> => {
  switch (event._tag) {
    case "Joined":
      return lineFields("info", "joined", { database: event.database, consents: event.consents })
    case "ShardsHeld":
      return lineFields("info", "shards", { held: event.count, of: event.total })
    case "NextSweep":
      return lineFields("info", "next_sweep", { at: localTime(event.at, event.timeZone), zone: event.timeZone })
    case "SweepStarted":
      return lineFields("info", "sweep_started", { day: event.day, run: event.run, consents: event.consents })
    case "SweepFinished": {
      const first = event.failed[0]
      return first === undefined
        ? lineFields("info", "sweep_finished", {
            day: event.day,
            run: event.run,
            consents: event.consents,
            planned: event.planned
          })
        : lineFields("error", "sweep_failed", {
            cause: shorten(first.cause),
            day: event.day,
            run: event.run,
            consents: event.consents,
            failed: event.failed.length,
            unlisted: event.failed.map((f) => f.consent).join(","),
            planned: event.planned
          })
    }
    case "ListingRetry":
      return lineFields("warn", "listing_retry", {
        cause: shorten(event.cause),
        day: event.day,
        consent: event.consent,
        try: event.tries,
        in: seconds(event.waitMillis)
      })
    case "ListingPartial": {
      const covered =
        event.pagesUnread !== "unknown" && (event.pagesUnread.length === 0 || event.plannedFrom !== undefined)
      return lineFields(covered ? "warn" : "error", "listing_partial", {
        cause: shorten(event.cause),
        day: event.day,
        consent: event.consent,
        pages_kept: event.pagesKept,
        pages_unread: event.pagesUnread === "unknown" ? "unknown" : event.pagesUnread.length,
        planned_from: event.plannedFrom ?? "none",
        planned: event.planned,
        planned_from_earlier: event.plannedFromEarlier
      })
    }
    case "DetailsPending":
      return lineFields("warn", "details_pending", {
        day: event.day,
        consent: event.consent,
        orders: event.orders.length,
        order_ids: event.orders.slice(0, namedRepeats).join(","),
        message:
          "not planned today: their details are pending (the list names no start); read within a later day's budget"
      })
    case "RecordsUnread":
      return recordsLine(
        "warn",
        "records_unread",
        event,
        event.nothingRead === true
          ? "no record of the listing could be read as a standing order; nothing was planned from it"
          : "records of the listing could not be read as standing orders; the others were planned"
      )
    case "RecordsSkipped":
      return recordsLine(
        "info",
        "records_skipped",
        event,
        "records of the listing pay nothing and were not planned; the others were"
      )
    case "RecordsWarned":
      return lineFields("warn", "records_warned", {
        day: event.day,
        consent: event.consent,
        field: event.field,
        records: event.count,
        // the first few (records says how many in all)
        order_ids: event.orderIds.join(","),
        reason: event.reason,
        message: "records of the listing were read with this warning; they were planned as read"
      })
    case "ConsentExpired":
      return lineFields("warn", "consent_expired", {
        day: event.day,
        consent: event.consent,
        valid_until: event.validUntil,
        message: "not listed: the consent is past its validity; the customer must grant it again"
      })
    case "CheckFinished": {
      const failure = event.outcome.failure
      if (failure === undefined || !isTransient(event.outcome)) return []
      return lineFields("warn", "check_retry", {
        cause: shorten(failure.message),
        consent: event.due.consent,
        order: event.due.orderId,
        nominal: LocalDate.format(event.due.nominalDate),
        attempt: event.attempt
      })
    }
    case "WebhookRetry":
      return lineFields("warn", "webhook_retry", {
        cause: shorten(event.cause),
        webhook_event: event.eventId,
        type: event.type,
        endpoint: event.endpoint,
        attempt: event.attempt,
        in: seconds(event.waitMillis)
      })
    case "WebhookFailed":
      return lineFields("error", event.disabled ? "webhook_disabled" : "webhook_failed", {
        cause: shorten(event.cause),
        webhook_event: event.eventId,
        type: event.type,
        endpoint: event.endpoint,
        attempt: event.attempt
      })
    case "DatabaseUnreachable":
      return lineFields("warn", "database_unreachable", { cause: shorten(event.cause) })
    case "DatabaseBack":
      return lineFields("info", "database_back", { after: seconds(event.afterMillis) })
    case "ShardsLost":
      return lineFields("warn", "shards_lost", {
        held: event.held,
        ...(event.pausedMillis === undefined ? {} : { paused: seconds(event.pausedMillis) })
      })
    case "RunFinished": {
      const named = event.repeats.slice(0, namedRepeats)
      // each repeat as consent/order/nominal date:attempts
      const repeats = named.map((r) => `${r.consent}/${r.orderId}/${r.nominalDate}:${r.attempts}`)
      const unplanned = event.unplanned.map(
        (u) => `${u.consent}:${u.pagesUnread === "unknown" ? "unknown" : u.pagesUnread.join("+")}`
      )
      return lineFields(
        event.unplanned.length > 0 ? "error" : event.repeats.length > 0 ? "warn" : "info",
        "run_finished",
        {
          ...(event.unplanned.length === 0 ? {} : { cause: shorten(event.unplanned[0]?.cause ?? "") }),
          day: event.day,
          checks: event.checks,
          repeated: event.repeats.length,
          unconfirmed: event.repeats.reduce((n, r) => n + r.unconfirmed, 0),
          ...(repeats.length === 0
            ? {}
            : { repeats: `${repeats.join(",")}${event.repeats.length > named.length ? ",…" : ""}` }),
          stand_ins: event.standIns,
          unplanned: unplanned.length === 0 ? "none" : unplanned.join(",")
        }
      )
    }
    case "Left":
      return lineFields("info", "left", { reason: event.reason })
  }
}

export const logfmtValue = (value: string | number): string =>
  typeof value === "number" || /^[A-Za-z0-9_.:/@+,-]+$/.test(value) ? String(value) : JSON.stringify(value)

/** Fields as one line: `time=… key=value …` (logfmt, quoted where needed) or one JSON object. */
export const format = (
  time: Date,
  entries: ReadonlyArray<readonly [string, string | number]>,
  as: Format = "logfmt"
): string => {
  const all: ReadonlyArray<readonly [string, string | number]> = [["time", time.toISOString()], ...entries]
  return as === "json"
    ? JSON.stringify(Object.fromEntries(all))
    : all.map(([k, v]) => `${k}=${logfmtValue(v)}`).join(" ")
}

/** An event as one line. */
export const line = (time: Date, event: Event, as: Format = "logfmt"): string => format(time, fields(event), as)

/** A listener that writes each event as one line to `write` (e.g. stderr); events without fields are not written. */
export const lineListener = (write: (line: string) => void, as: Format = "logfmt"): Listener => ({
  emit: (event) =>
    Effect.sync(() => {
      const entries = fields(event)
      if (entries.length > 0) write(format(new Date(), entries, as))
    })
})

/** An error's short name: its tag, or the last part of its name (`~effect/cluster/…/PersistenceError`). */
export const errorName = (error: object): string => {
  if ("_tag" in error && typeof error._tag === "string") return error._tag
  const name = (error as { readonly name?: unknown }).name
  return typeof name === "string" && name.length > 0 ? (name.split("/").at(-1) ?? name) : "Error"
}

/**
 * An error in one line: its message (or its short name when it has none, as effect's cluster errors), followed by
 * what caused it when that says more (`PersistenceError: Failed to connect: connect ECONNREFUSED 127.0.0.1:5433`),
 * up to three causes deep; never a stack.
 */
export const errorText = (error: unknown, depth = 0): string => {
  if (typeof error !== "object" || error === null) return String(error)
  const message = (error as { readonly message?: unknown }).message
  const own = typeof message === "string" && message.length > 0 ? message : errorName(error)
  const inner = (error as { readonly cause?: unknown }).cause
  if (inner === undefined || inner === null || depth >= 3) return own
  const more = errorText(inner, depth + 1)
  // an error wrapping one with the same message (effect's SqlError around its reason) says it once
  return own.includes(more) ? own : more.startsWith(own) ? more : `${own}: ${more}`
}

/** The first failure's message of a cause, without its stack (interruptions and defects named as such). */
export const causeText = (cause: Cause.Cause<unknown>): string | undefined => {
  if (cause.reasons.length === 0) return undefined
  return errorText(Cause.squash(cause))
}

/**
 * A logger for effect's own messages (the cluster's warnings, the workflow engine's errors): one line each, the
 * cause first and cut short, then the message cut short, never a stack trace, at most at level `warn` (what a fault
 * cost is said by the worker's own events); the same message again within {@link repeatWindowMillis} is counted
 * and its count written with its next line (`repeated=N`); `write` gets the line.
 */
export const logger = (write: (line: string) => void, as: Format = "logfmt"): Logger.Logger<unknown, void> => {
  /** Each message's last line written (epoch milliseconds) and how often it came since. */
  const recent = new Map<string, { at: number; repeated: number }>()
  return Logger.make((options) => {
    // a message's parts that are errors or causes (effect's `logWarning("…", cause)`) are its cause
    const parts: ReadonlyArray<unknown> = Array.isArray(options.message) ? options.message : [options.message]
    const causes: Array<string> = []
    const texts: Array<string> = []
    for (const part of parts) {
      if (Cause.isCause(part)) {
        const text = causeText(part)
        if (text !== undefined) causes.push(text)
      } else if (part instanceof Error) causes.push(errorText(part))
      else texts.push(typeof part === "string" ? part : (JSON.stringify(part) ?? String(part)))
    }
    const own = causeText(options.cause)
    const cause =
      own === undefined && causes.length === 0 ? undefined : [own, ...causes].filter((c) => c !== undefined).join("; ")
    const message = texts.join(" ")
    // the same message again within 30 s (effect repeats its warnings every poll) is counted, not written
    const at = options.date.getTime()
    const seen = recent.get(message)
    if (seen !== undefined && at - seen.at < repeatWindowMillis) {
      seen.repeated++
      return
    }
    recent.set(message, { at, repeated: 0 })
    if (recent.size > 100) recent.delete(recent.keys().next().value as string)
    // effect's own lines are below error: what a fault cost is said by the worker's own events
    const level = options.logLevel === "Error" || options.logLevel === "Fatal" ? "warn" : options.logLevel.toLowerCase()
    write(
      format(
        options.date,
        [
          ["level", level],
          ["event", "log"],
          ...(cause === undefined ? [] : [["cause", shorten(cause)] as const]),
          ["message", shorten(message.replace(/^tppkit: /, ""))],
          ...(seen === undefined || seen.repeated === 0 ? [] : [["repeated", seen.repeated] as const])
        ],
        as
      )
    )
  })
}

/** How long an effect log message repeated is counted instead of written again. */
export const repeatWindowMillis = 30_000
