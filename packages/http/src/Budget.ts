/**
 * The daily budget of unattended standing-order calls (4 a day without the customer present). Every request sent
 * counts (each page, each retry), per consent key and calendar day in a configurable time zone (default
 * Europe/Bratislava); the day comes from effect's `Clock`, so `TestClock` drives it. Counts, listing leases and
 * listing snapshots live in a store of the `BudgetStore` module: in memory, in an SQLite file (Node's built-in
 * `node:sqlite`, loaded only when the store is first used), or any shared store that implements the interface (a
 * database for a fleet).
 */
import { Context, DateTime, Duration, Effect, Layer } from "effect"
import { BankConfig, type Settings } from "./BankConfig.ts"
import { BudgetExhausted, type BudgetStoreError } from "./BankError.ts"
import * as BankTransport from "./BankTransport.ts"
import { BudgetStore } from "./BudgetStore.ts"

/** What a consent key names: the environment, the bank (its base URL), the TPP client and the consent. */
export interface ConsentKeyParts {
  readonly environment: string
  readonly baseUrl: string
  readonly clientId: string
  readonly consent: string
}

/**
 * The budget key of a consent at a bank: environment, base URL, client id and consent as JSON text, so that sandbox
 * and live, two banks, or two clients never share counts.
 */
export const consentKey = (parts: ConsentKeyParts): string =>
  JSON.stringify([parts.environment, parts.baseUrl, parts.clientId, parts.consent])

/** The parts of a key made by `consentKey`, or undefined for any other text (a key from elsewhere). */
export const parseConsentKey = (key: string): ConsentKeyParts | undefined => {
  try {
    const parsed: unknown = JSON.parse(key)
    if (Array.isArray(parsed) && parsed.length === 4 && parsed.every((p) => typeof p === "string")) {
      const [environment, baseUrl, clientId, consent] = parsed as [string, string, string, string]
      return { environment, baseUrl, clientId, consent }
    }
  } catch {
    // not a key of ours
  }
  return undefined
}

/** The budget of one consent key today. */
export interface Usage {
  readonly consentKey: string
  /** The calendar day in the budget's time zone, "YYYY-MM-DD". */
  readonly day: string
  readonly used: number
  readonly limit: number
  readonly remaining: number
  /** When the next day's budget starts (RFC 3339, UTC). */
  readonly freesAt: string
}

/** The calendar day of an instant in a time zone, and the instant the following day starts there. */
export const dayOf = (now: DateTime.DateTime, timeZone: string): { readonly day: string; readonly freesAt: string } => {
  const zoned = DateTime.setZoneNamedUnsafe(now, timeZone)
  const nextDay = DateTime.startOf(DateTime.add(DateTime.startOf(zoned, "day"), { days: 1 }), "day")
  return { day: DateTime.formatIsoDate(zoned), freesAt: DateTime.formatIso(DateTime.toUtc(nextDay)) }
}

/** The daily budget of unattended standing-order calls. */
export class Budget extends Context.Service<
  Budget,
  {
    /** Today's usage of the key. */
    readonly usage: (consentKey: string) => Effect.Effect<Usage, BudgetStoreError>
    /** Today's usage of every key that has spent something today. */
    readonly usages: Effect.Effect<ReadonlyArray<Usage>, BudgetStoreError>
    /** Fails with `BudgetExhausted` when `n` more requests would not fit today; spends nothing. */
    readonly ensure: (consentKey: string, n: number) => Effect.Effect<Usage, BudgetExhausted | BudgetStoreError>
    /**
     * Counts `n` requests about to be sent, or fails with `BudgetExhausted` without counting; `listingPages`, when
     * the requests are the rest of a listing of that many pages, is quoted in the refusal.
     */
    readonly spend: (
      consentKey: string,
      n: number,
      listingPages?: number
    ) => Effect.Effect<Usage, BudgetExhausted | BudgetStoreError>
    /**
     * Gives back `n` requests counted on `day` by `spend` that were never sent (their token request failed, the
     * connection was refused, the listing stopped before them): a request never sent costs nothing
     * (docs/bank-interface.md, "Daily limit"). A refund the store cannot record leaves the count as it was (too high,
     * never too low).
     */
    readonly refund: (consentKey: string, n: number, day: string) => Effect.Effect<void>
    /** The store underneath, for listing leases and snapshots. */
    readonly store: BudgetStore["Service"]
  }
>()("@tppkit/http/Budget") {
  /** The budget with the configured limit and time zone, over the given store. */
  static readonly layer: Layer.Layer<Budget, never, BankConfig | BudgetStore> = Layer.effect(
    Budget,
    Effect.gen(function* () {
      const config = yield* BankConfig
      const store = yield* BudgetStore
      const { dailyLimit: limit, timeZone } = config.budget
      const today = Effect.map(DateTime.now, (now) => dayOf(now, timeZone))
      const usage = (consentKey: string, used: number, day: string, freesAt: string): Usage => ({
        consentKey,
        day,
        used,
        limit,
        remaining: Math.max(0, limit - used),
        freesAt
      })
      const exhausted = (u: Usage, requested: number, listingPages?: number) =>
        new BudgetExhausted({
          consentKey: u.consentKey,
          limit,
          used: u.used,
          requested,
          freesAt: u.freesAt,
          ...(listingPages === undefined ? {} : { listingPages })
        })
      return Budget.of({
        usage: (consentKey) =>
          Effect.gen(function* () {
            const { day, freesAt } = yield* today
            return usage(consentKey, yield* store.used(consentKey, day), day, freesAt)
          }),
        usages: Effect.gen(function* () {
          const { day, freesAt } = yield* today
          const counts = yield* store.usages(day)
          return counts.map((c) => usage(c.consentKey, c.used, day, freesAt))
        }),
        ensure: (consentKey, n) =>
          Effect.gen(function* () {
            const { day, freesAt } = yield* today
            const u = usage(consentKey, yield* store.used(consentKey, day), day, freesAt)
            return u.remaining >= n ? u : yield* exhausted(u, n)
          }),
        spend: (consentKey, n, listingPages) =>
          Effect.gen(function* () {
            const { day, freesAt } = yield* today
            const { granted, used } = yield* store.tryConsume(consentKey, day, n, limit)
            const u = usage(consentKey, used, day, freesAt)
            return granted ? u : yield* exhausted(u, n, listingPages)
          }),
        // a negative count in one step of the store, never past the limit check (it lowers the count)
        refund: (consentKey, n, day) =>
          n <= 0 ? Effect.void : Effect.ignore(store.tryConsume(consentKey, day, -n, limit)),
        store
      })
    })
  )
}

/** Whether a URL names this machine: a mock bank's address (a real bank is never on loopback). */
const isLoopback = (url: URL): boolean =>
  url.hostname === "localhost" || url.hostname === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(url.hostname)

/** The instance a mock bank announces in the body of `GET /__instance`, when it is a plain short id. */
const announcedInstance = (text: string): string | undefined => {
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    return undefined
  }
  const instance =
    typeof body === "object" && body !== null && "instance" in body
      ? (body as { instance: unknown }).instance
      : undefined
  return typeof instance === "string" && /^[A-Za-z0-9-]{1,64}$/.test(instance) ? instance : undefined
}

/**
 * What a bank said when asked which instance it is (README.md, "Daily budget"): `Instance`, the budget's identity it
 * gives (its base URL with the instance a mock bank on loopback announces, or the identity the settings give);
 * `None`, the bank answered and announces none (no such path, or a body with no plain id), or it is not on loopback
 * and is never asked: its identity is its base URL; `NoAnswer`, nothing was heard (no connection, no answer within
 * 2 s, or a status that says nothing of the instance), so this worker cannot tell which the bank is.
 */
export type Announcement =
  | { readonly _tag: "Instance"; readonly identity: string }
  | { readonly _tag: "None" }
  | { readonly _tag: "NoAnswer"; readonly detail: string }

/**
 * Asks a bank on loopback which instance it is, through the bank transport with the settings' TLS (client
 * certificate, key, CA) on a connection of its own, so that a mock bank served over mutual TLS is known by its
 * instance too; nothing is asked of a bank that is not on loopback, or when the settings give the identity.
 */
export const announcement = (settings: Settings): Effect.Effect<Announcement> => {
  if (settings.bankIdentity !== undefined) return Effect.succeed({ _tag: "Instance", identity: settings.bankIdentity })
  let url: URL
  try {
    url = new URL("/__instance", settings.baseUrl)
  } catch {
    return Effect.succeed({ _tag: "None" })
  }
  if (!isLoopback(url)) return Effect.succeed({ _tag: "None" })
  return Effect.gen(function* () {
    const transport = yield* BankTransport.BankTransport
    const answer = yield* transport.send(
      { method: "GET", url: url.href, headers: { Accept: "application/json" }, contentType: "", body: "" },
      Duration.seconds(2),
      4_096
    )
    if (answer.status === 404) return { _tag: "None" } as const
    if (answer.status !== 200) return { _tag: "NoAnswer", detail: `status ${answer.status}` } as const
    const instance = announcedInstance(answer.text)
    return instance === undefined
      ? ({ _tag: "None" } as const)
      : ({ _tag: "Instance", identity: `${settings.baseUrl}#instance=${instance}` } as const)
  }).pipe(
    Effect.provide(
      BankTransport.BankTransport.layerUndici({ tls: settings.tls, maxHeaderBytes: settings.limits.maxHeaderBytes })
    ),
    Effect.catch((e) => Effect.succeed<Announcement>({ _tag: "NoAnswer", detail: e.message || e._tag }))
  )
}

/** The settings with the identity an announcement gives (`None` and `NoAnswer`: the settings as they are). */
export const withAnnouncement = (settings: Settings, heard: Announcement): Settings =>
  heard._tag === "Instance" && heard.identity !== settings.bankIdentity
    ? { ...settings, bankIdentity: heard.identity }
    : settings

/**
 * The settings with the bank's identity for the daily budget (README.md, "Daily budget"): a bank on loopback that
 * announces an instance id (the mock bank's `GET /__instance`, a new id each time it starts) is its base URL with
 * that id, `http://127.0.0.1:8080#instance=…`, so that a mock bank restarted on the same port starts a new count
 * while the running one keeps its own; any other bank, or no answer within 2 s, keeps the base URL (with the client
 * id, a real bank's identity). Asked as {@link announcement} says. A fleet agrees its identity through its database
 * instead (worker's `PgBudgetStore.agreeIdentity`), where no answer is told from a bank that announces none.
 */
export const withAnnouncedIdentity = (settings: Settings): Effect.Effect<Settings> =>
  Effect.map(announcement(settings), (heard) => withAnnouncement(settings, heard))
