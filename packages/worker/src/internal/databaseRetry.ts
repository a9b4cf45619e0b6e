/**
 * How the worker waits out its database being away for a moment (a restart, a fail-over, a stall): every write and
 * read that must not be lost is retried on one core `Backoff`, bounded by how long its caller may wait.
 */
import { Backoff } from "@tppkit/core"
import { type Duration, Schedule } from "effect"

/** A kept page or a check's row: tried again after 100 ms, doubled up to 5 s between tries. */
export const restart: Backoff.Backoff = Backoff.exponential({ initial: "100 millis", cap: "5 seconds" })

/** A journal's line (the sweep log, a listing's reconciliation, a fleet event): after 200 ms, doubled, no cap. */
export const journal: Backoff.Backoff = Backoff.exponential({ initial: "200 millis" })

/** `backoff` as a retry schedule that gives up once `within` has passed since the first failure. */
export const within = (backoff: Backoff.Backoff, duration: Duration.Input) =>
  Backoff.schedule(backoff).pipe(Schedule.upTo({ duration }))

/** A journal's line retried for up to a minute: after that the line is given up (logged by its caller). */
export const journalForAMinute = within(journal, "1 minute")
