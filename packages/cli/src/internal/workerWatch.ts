/** What `tppkit worker --once` reports of its listings (the fleet's watchers are worker's `Runner`). */
import { Budget } from "@tppkit/http"
import type { Runner, Sweep } from "@tppkit/worker"
import { Effect } from "effect"

/**
 * The `--once` report's listing counts: the pages of the listings the day's checks were planned from (this run's
 * consents; a consent carried over from an earlier run counts none), and the unattended listing requests of the
 * sweep's consents counted today against the daily budget (every page and every try, failed ones included, by any
 * process of this client sharing the fleet's budget).
 */
export const listingCounts = (summary: Sweep.Summary, setup: Runner.Setup) =>
  Effect.gen(function* () {
    const pages = summary.consents.reduce((n, c) => n + (c.pages ?? 0), 0)
    const keys = new Set(summary.consents.map((c) => c.consent))
    const usages = yield* Effect.orElseSucceed((yield* Budget.Budget).usages, () => [])
    const requests = usages
      .filter((u) => {
        const parts = Budget.parseConsentKey(u.consentKey)
        return parts !== undefined && parts.clientId === setup.bankSettings.clientId && keys.has(parts.consent)
      })
      .reduce((n, u) => n + u.used, 0)
    return { pages, requests }
  })
