/**
 * The work behind `tppkit token`, `tppkit balance-check` and `tppkit standing-orders`, loaded only when one of
 * them runs (it pulls in the HTTP stack).
 */
import {
  Currency,
  ErrorBody,
  Iban,
  LocalDate,
  Money,
  Orders,
  Profile,
  SourceRecord,
  type Standard,
  StandingOrder
} from "@tppkit/core"
import { BankClient, type BankConfig, type BankError, Budget, TokenService } from "@tppkit/http"
import { Clock, Duration, Effect, Option, Redacted, Result, Stream } from "effect"
import * as Connection from "../Connection.ts"
import * as Failure from "../Failure.ts"
import * as OrderTables from "../OrderTables.ts"
import * as Output from "../Output.ts"
import * as Render from "../Render.ts"
import * as Style from "../Style.ts"
import { clientLayerOf, scaToken, settingsOf, tokenLayerOf } from "./client.ts"

// ---------------------------------------------------------------------------
// token
// ---------------------------------------------------------------------------

/** What `tppkit token` learned: the token, its type and scopes, and when it expires. */
export interface Issued {
  readonly tokenType: string
  readonly accessToken: Redacted.Redacted<string>
  readonly scopes: ReadonlyArray<string>
  readonly expiresIn: number
  readonly expiresAt: string
  readonly environment: "sandbox" | "live"
}

/** One line for a refused or failed token request: the status and codes, or the address and the system error. */
const tokenFailure = (error: BankError.BankError) => {
  const reason = error.reason
  switch (reason._tag) {
    case "TransportFailure":
    case "ResponseTooLarge":
      // the message names the request, what went wrong, the attempts and the request identifiers
      return Failure.fromBank(error)
    case "BadRequest":
    case "Unauthorized":
    case "Forbidden":
    case "NotFound":
      return Failure.fromBank(error, `token: status ${statusOf[reason._tag]} (${ErrorBody.headline(reason.body)})`)
    case "TooManyRequests":
      return Failure.fromBank(error, `token: status 429 (${ErrorBody.headline(reason.body)})`)
    case "ServerError":
    case "UnexpectedStatus":
      return Failure.fromBank(error, `token: status ${reason.status} (${ErrorBody.headline(reason.body)})`)
    default:
      return Failure.fromBank(error)
  }
}

/**
 * A bank call's failure as a `CliFailure` of its kind with the bank's details and its one-line message (for
 * one that never got an answer: the operation, the request path, what went wrong, the attempts and the request
 * identifiers). Anything else is left as it is.
 */
const withAddress =
  (_settings: BankConfig.Settings) =>
  <E>(error: E): E | Failure.CliFailure =>
    isBankError(error) ? Failure.fromBank(error) : error

const isBankError = (error: unknown): error is BankError.BankError =>
  typeof error === "object" && error !== null && "_tag" in error && error._tag === "BankError"

const statusOf = { BadRequest: 400, Unauthorized: 401, Forbidden: 403, NotFound: 404 } as const

/**
 * Requests a client-credentials token (docs/bank-interface.md, "Token") through `TokenService` (retries of transient
 * failures included) and reports its expiry; the secret is never printed.
 */
const issueToken = (settings: BankConfig.Settings, scopes: ReadonlyArray<string>) =>
  Effect.gen(function* () {
    const tokens = yield* TokenService.TokenService
    const token = yield* Effect.mapError(tokens.get(scopes), (e) => tokenFailure(e))
    const expiresIn = token.expiresIn ?? 0
    const expiresAt = token.expiresAt ?? (yield* Clock.currentTimeMillis) + expiresIn * 1000
    return {
      tokenType: token.tokenType,
      accessToken: token.value,
      scopes,
      expiresIn,
      expiresAt: new Date(expiresAt).toISOString().replace(/\.\d{3}Z$/, "Z"),
      environment: token.environment
    } satisfies Issued
  }).pipe(Effect.provide(tokenLayerOf(settings)))

/** The parsed connection flags plus `--access-token`. */
export interface BankInput extends Connection.Values {
  readonly accessToken: Option.Option<Redacted.Redacted<string>>
}

/** Runs `tppkit token`. */
export const token = Effect.fn("tppkit.token")(function* (
  input: Connection.Values & { readonly scope: string; readonly showToken: boolean; readonly format: "table" | "json" }
) {
  const target = yield* Connection.target(input, { needsClient: true })
  const settings = yield* settingsOf(target)
  const scopes = input.scope.split(/[\s,]+/).filter((s) => s.length > 0)
  const issued = yield* issueToken(settings, scopes)
  if (input.showToken && input.format === "table") return yield* Output.line(Redacted.value(issued.accessToken))
  if (input.format === "json") {
    return yield* Output.line(
      JSON.stringify({
        tokenType: issued.tokenType,
        scopes: issued.scopes,
        expiresIn: issued.expiresIn,
        expiresAt: issued.expiresAt,
        environment: issued.environment,
        ...(input.showToken ? { accessToken: Redacted.value(issued.accessToken) } : {})
      })
    )
  }
  yield* Output.line(
    Render.keyValues([
      ["Token type", issued.tokenType],
      ["Scopes", issued.scopes.join(" ")],
      ["Expires in", `${issued.expiresIn} s (at ${issued.expiresAt})`],
      ["Environment", issued.environment],
      ["Token", "hidden (use --show-token to print it)"]
    ])
  )
})

/** Runs `tppkit balance-check`. */
export const balanceCheck = Effect.fn("tppkit.balanceCheck")(function* (
  input: BankInput & {
    readonly iban: string
    readonly amount: string
    readonly currency: string
    readonly format: "table" | "json"
  }
) {
  const iban = Iban.parse(input.iban)
  if (Result.isFailure(iban)) return yield* Failure.usage(`--iban ${JSON.stringify(input.iban)}: ${iban.failure}`)
  const amount = Money.parse(input.amount)
  if (Result.isFailure(amount)) {
    return yield* Failure.usage(`--amount ${JSON.stringify(input.amount)}: ${amount.failure}`)
  }
  const tooLarge = Money.invalidReason(amount.success, Money.balanceCheckFormat)
  if (tooLarge !== undefined) return yield* Failure.usage(`--amount ${JSON.stringify(input.amount)}: ${tooLarge}`)
  const currency = Currency.parseCurrency(input.currency)
  if (Result.isFailure(currency)) {
    return yield* Failure.usage(`--currency ${JSON.stringify(input.currency)}: ${currency.failure}`)
  }
  const target = yield* Connection.target(input, { needsClient: Option.isNone(input.accessToken) })
  const settings = yield* settingsOf(target)
  const token = scaToken(target.environment, input.accessToken)
  const reply = yield* Effect.gen(function* () {
    const client = yield* BankClient.BankClient
    return yield* client.balanceCheck(
      {
        // a profile whose id holds fewer characters (COBS: 18) gets the UUID's first hex digits, no dashes
        instructionIdentification: Profile.isSbas(settings.profile)
          ? crypto.randomUUID()
          : crypto.randomUUID().replaceAll("-", "").slice(0, 18),
        iban: iban.success,
        amount: { value: amount.success, currency: currency.success }
      },
      { psu: Connection.psu(input), ...(token === undefined ? {} : { token }) }
    )
  }).pipe(Effect.provide(clientLayerOf(settings, target)), Effect.mapError(withAddress(settings)))
  const ids = reply.identity
  // an amount with more decimals than its currency's minor unit (100.5 JPY): printed whole, never rounded, and said
  const beyond = Render.beyondMinorUnit(amount.success, currency.success)
  if (beyond !== undefined) yield* Output.errorLine(`tppkit: warning: ${beyond}`)
  if (input.format === "json") {
    return yield* Output.line(
      JSON.stringify({
        iban: iban.success,
        amount: Money.formatMinor(amount.success, currency.success),
        currency: currency.success,
        response: reply.body.response,
        dateTime: reply.body.dateTime,
        requestId: ids.requestId,
        correlationId: ids.correlationId,
        responseId: ids.responseId
      })
    )
  }
  const style = yield* Output.stdoutStyle
  yield* Output.line(
    Render.keyValues([
      ["IBAN", iban.success],
      ["Amount", `${Money.formatMinor(amount.success, currency.success)} ${currency.success}`],
      [
        "Answer",
        reply.body.response === "APPR" ? style.green("APPR (sufficient funds)") : style.red("DECL (insufficient funds)")
      ],
      ["Date-time", String(reply.body.dateTime)],
      ["Request-ID", ids.requestId ?? ""],
      ["Response-ID", ids.responseId ?? ""]
    ])
  )
})

const ageUnits: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 }

/** `--max-age`: a whole number with a unit (s, m, h, d; also spelt out, e.g. "10 minutes"), or 0. */
const parseAge = (text: string): Duration.Duration | undefined => {
  if (/^\s*0+\s*$/.test(text)) return Duration.zero
  const m = /^\s*(\d{1,9})\s*(s|sec|secs|seconds?|m|min|mins|minutes?|h|hours?|d|days?)\s*$/i.exec(text)
  if (m === null) return undefined
  const unit = ageUnits[(m[2] ?? "").toLowerCase().startsWith("mi") ? "m" : ((m[2] ?? "s")[0]?.toLowerCase() ?? "s")]
  return unit === undefined ? undefined : Duration.millis(Number(m[1]) * unit)
}

/** Runs `tppkit standing-orders`. */
export const standingOrders = Effect.fn("tppkit.standingOrders")(function* (
  input: BankInput & {
    readonly iban: Option.Option<string>
    readonly page: Option.Option<number>
    readonly pageSize: Option.Option<number>
    readonly all: boolean
    readonly maxAge: Option.Option<string>
    readonly format: "table" | "json"
    readonly reconcile?: boolean | undefined
    readonly asOf?: Option.Option<string> | undefined
    /** With `--reconcile`: the rule in use (`--calendar`, `--holidays`, `--convention`), as `tppkit reconcile`'s. */
    readonly calendar?: string | undefined
    readonly holidays?: Option.Option<string> | undefined
    readonly convention?: string | undefined
    /** `--standard`: the standard the bank's records are read in, in place of the profile's (`--profile`). */
    readonly standard?: Option.Option<Standard.Standard> | undefined
  }
) {
  const standard = input.standard === undefined ? undefined : Option.getOrUndefined(input.standard)
  const asOfText = input.asOf === undefined ? undefined : Option.getOrUndefined(input.asOf)
  const asOfDay = asOfText === undefined ? undefined : LocalDate.parse(asOfText.trim())
  if (asOfDay !== undefined && Result.isFailure(asOfDay)) {
    return yield* Failure.usage(`--as-of ${JSON.stringify(asOfText)}: ${asOfDay.failure}`)
  }
  if (asOfText !== undefined && input.reconcile !== true) return yield* Failure.usage("--as-of needs --reconcile")
  let maxAge: Duration.Duration | undefined
  if (Option.isSome(input.maxAge)) {
    maxAge = parseAge(input.maxAge.value)
    if (maxAge === undefined) {
      return yield* Failure.usage(
        `--max-age ${JSON.stringify(input.maxAge.value)}: not a duration; give a number with s, m, h or d, e.g. 10m`
      )
    }
    if (!input.all) return yield* Failure.usage("--max-age needs --all: only complete listings are kept")
  }
  let iban: Iban.Iban | undefined
  if (Option.isSome(input.iban)) {
    const parsed = Iban.parse(input.iban.value)
    if (Result.isFailure(parsed)) {
      return yield* Failure.usage(`--iban ${JSON.stringify(input.iban.value)}: ${parsed.failure}`)
    }
    iban = parsed.success
  }
  if (input.all && Option.isSome(input.page)) return yield* Failure.usage("--all and --page exclude each other")
  const target = yield* Connection.target(input, { needsClient: Option.isNone(input.accessToken) })
  // unattended listings spend the daily budget of the bank that answers: a mock bank says which one it is
  const announced = yield* Effect.flatMap(settingsOf(target), Budget.withAnnouncedIdentity)
  const settings: BankConfig.Settings = standard === undefined ? announced : { ...announced, standard }
  const token = scaToken(target.environment, input.accessToken)
  const options = {
    psu: Connection.psu(input),
    ...(token === undefined ? {} : { token }),
    ...(iban === undefined ? {} : { iban })
  }
  const pageSize = Option.getOrUndefined(input.pageSize)
  const pages = yield* Effect.gen(function* () {
    const client = yield* BankClient.BankClient
    if (!input.all) {
      const page = Option.getOrUndefined(input.page)
      const reply = yield* client.standingOrdersPage({
        ...options,
        ...(page === undefined ? {} : { page }),
        ...(pageSize === undefined ? {} : { pageSize })
      })
      return [reply]
    }
    const progress = yield* Output.progressLine
    let listed = 0
    const all = {
      ...options,
      ...(pageSize === undefined ? {} : { pageSize }),
      ...(maxAge === undefined ? {} : { maxAge })
    }
    const collected = yield* client.standingOrders(all).pipe(
      Stream.tap((reply) => {
        listed += reply.body.orders.length
        const of = reply.body.pageCount === undefined ? "" : ` of ${reply.body.pageCount}`
        return progress.update(`standing orders: page ${reply.body.page + 1}${of}, ${listed} orders`, true)
      }),
      Stream.runCollect,
      Effect.ensuring(progress.done)
    )
    return collected
  }).pipe(Effect.provide(clientLayerOf(settings, target)), Effect.mapError(withAddress(settings)))
  const requested = Option.getOrUndefined(input.page)
  const listed = pages[0]?.body.pageCount
  if (requested !== undefined && listed !== undefined && requested > 0 && requested >= listed) {
    return yield* Failure.failure(
      `--page ${requested}: past the last page; the list has ${listed} page(s), numbered from 0 to ${Math.max(0, listed - 1)}`
    )
  }
  const orders = pages.flatMap((p) => p.body.orders)
  for (const p of pages) {
    for (const e of p.body.errors) {
      yield* Output.errorLine(
        Output.printable(
          e.index < 0
            ? `tppkit: page ${p.body.page}: ${e.path} ${e.message}`
            : `tppkit: page ${p.body.page}, record ${e.index + 1} (${e.orderId ?? "no orderId"}) is malformed: ${e.path === "" ? "" : `${e.path} `}${e.message}`
        )
      )
    }
  }
  // warnings: equal ones (the same field and words, e.g. a field the bank's record does not name) as one line
  for (const line of listingWarnings(pages.map((p) => ({ page: p.body.page, warnings: p.body.warnings ?? [] })))) {
    yield* Output.errorLine(Output.printable(line))
  }
  // records listed whole that pay nothing (no anchor, an end before it): listed as the bank gave them, and each
  // named with its reason in every format (the table's own section, the reconciliation's skipped, else stderr)
  const skipped = pages.flatMap((p) =>
    (p.body.skipped ?? []).map(
      (s): Render.SkippedRow => ({
        orderId: s.orderId ?? undefined,
        page: p.body.page,
        position: s.index + 1,
        reason: s.message
      })
    )
  )
  const pageCount = pages[pages.length - 1]?.body.pageCount
  // another profile's records are listed as it sends them; reconciled, they are read in --standard
  const reconcileAs = input.reconcile === true ? standard : undefined
  if (!Profile.isSbas(settings.profile) && reconcileAs === undefined) {
    return yield* profiledListing(pages, input, settings.profile)
  }
  if (input.reconcile !== true && input.format === "json") yield* saySkipped(skipped)
  if (input.reconcile === true) {
    // the listing day: the day the listing was taken (a kept one's own), in the bank's time zone
    const takenAt = pages[0]?.snapshotTakenAt
    const millis = takenAt === undefined ? yield* Clock.currentTimeMillis : Date.parse(takenAt)
    const asOf =
      asOfDay !== undefined && Result.isSuccess(asOfDay)
        ? asOfDay.success
        : LocalDate.ofInstant(millis, LocalDate.bankTimeZone)
    const impl = yield* Effect.promise(() => import("./reconcile.ts"))
    const rule = yield* impl.settingsOf({
      asOf: LocalDate.format(asOf),
      calendar: input.calendar ?? "target",
      convention: input.convention ?? "following",
      holidays: input.holidays
    })
    // --standard: the records read by core's Orders in it on the listing day, as `tppkit reconcile --standard` reads a
    // file. A record that pays nothing (no anchor, an end before it, inactive) is not reconciled: the report names it
    // with its page, record and reason in every format, as the listing does, and the exit code stays as it is
    const read =
      reconcileAs === undefined
        ? { orders: placed(pages, skipped), unread: [], skipped }
        : yield* readListed(listedRecords(pages, Profile.isSbas(settings.profile)), reconcileAs, asOf)
    yield* saySkipped(read.skipped)
    const findings = yield* impl.listing(read.orders, rule, input.format, read.skipped)
    yield* unreadPages(pages)
    if (read.unread.length > 0) {
      const Listed = yield* Effect.promise(() => import("./orders.ts"))
      const Project = yield* Effect.promise(() => import("../Project.ts"))
      yield* Listed.warnUnread(read.unread.map(Project.unreadRow))
      return yield* Failure.make(
        "data",
        Listed.unreadMessage(`the listing (read as ${reconcileAs})`, read.unread.length, "reconciled")
      )
    }
    if (findings) return yield* Failure.findings()
    return
  }
  if (input.format === "json") {
    const body = {
      ...(pageCount === undefined || input.all ? {} : { pageCount }),
      standingOrders: orders.map((o) => StandingOrder.encodeReceived(o))
    }
    yield* Output.line(JSON.stringify(body, null, 2))
    return yield* unreadPages(pages)
  }
  const first = pages[0]
  const takenAt = first?.snapshotTakenAt
  const where = input.all
    ? `all ${pages.length} page(s)${takenAt === undefined ? "" : `, a listing taken at ${takenAt} (--max-age: no budget spent)`}`
    : // people count pages from 1; --page keeps the bank's number, from 0
      `page ${(first?.body.page ?? 0) + 1}${pageCount === undefined ? "" : ` of ${pageCount}`} (--page ${first?.body.page ?? 0})`
  const style = yield* Output.stdoutStyle
  yield* Output.line(style.bold(`${orders.length} standing order(s), ${where}`))
  if (orders.length > 0) {
    const groups = OrderTables.byDebtor(orders)
    if (groups.length === 1) yield* Output.line(Style.table(style, OrderTables.ordersTable(orders)).join("\n"))
    else {
      // a list that spans several accounts: one table per debtor account, its IBAN whole
      for (const [iban, group] of groups) {
        const heading = `Debtor account ${iban === "" ? "(none given)" : iban}: ${group.length} order(s)`
        yield* Output.line(`\n${style.bold(heading)}\n${Style.table(style, OrderTables.ordersTable(group)).join("\n")}`)
      }
    }
    yield* Output.line(
      `\n${style.bold("Totals per frequency (one payment of each order)")}\n${Style.table(style, OrderTables.orderTotalsTable(orders)).join("\n")}`
    )
  }
  if (skipped.length > 0) {
    const heading = `Skipped: listed, but ${skipped.length === 1 ? "it pays" : `${skipped.length} orders pay`} nothing`
    yield* Output.line(`\n${style.bold(heading)}`)
    for (const line of Render.skippedLines(skipped)) yield* Output.line(Output.printable(line))
  }
  const last = pages[pages.length - 1]
  if (last !== undefined) yield* Output.line(`Process-ID ${last.identity.processId ?? ""}`)
  yield* unreadPages(pages)
})

/** The records listed that pay nothing, one line each on stderr with its page, record and reason. */
const saySkipped = (skipped: ReadonlyArray<Render.SkippedRow>) =>
  Effect.forEach(
    skipped,
    (s) =>
      Output.errorLine(
        Output.printable(
          `tppkit: page ${s.page}, record ${s.position} (${s.orderId ?? "no orderId"}) is skipped: ${s.reason}`
        )
      ),
    { discard: true }
  )

/** A record of the bank's listing: its JSON, and where the bank listed it (page from 0, record of the page from 1). */
interface ListedRecord {
  readonly json: unknown
  readonly page: number
  readonly position: number
}

/**
 * The record index of each order of a page: the indices that are not the page's errors, in order (the seed bank's
 * page keeps every record read, in list order, and leaves out those in its errors).
 */
const recordIndices = (page: { readonly orders: ReadonlyArray<unknown>; readonly errors: ReadonlyArray<RecordAt> }) => {
  const failed = new Set(page.errors.map((e) => e.index))
  const indices: Array<number> = []
  for (let i = 0; indices.length < page.orders.length; i++) if (!failed.has(i)) indices.push(i)
  return indices
}

interface RecordAt {
  readonly index: number
}

type ListedPage = BankClient.Reply<BankClient.StandingOrdersPage>

/** The seed bank's orders of the listing to reconcile: every one but those the listing names as paying nothing. */
const placed = (pages: ReadonlyArray<ListedPage>, skipped: ReadonlyArray<Render.SkippedRow>) => {
  const paysNothing = new Set(skipped.map((s) => `${s.page} ${s.position}`))
  return pages.flatMap((p) => {
    const indices = recordIndices(p.body)
    return p.body.orders.filter((_, i) => !paysNothing.has(`${p.body.page} ${(indices[i] ?? -1) + 1}`))
  })
}

/** The listing's records as `--standard` reads them, each with its place: the seed bank's as received, another's as sent. */
const listedRecords = (pages: ReadonlyArray<ListedPage>, sbas: boolean): Array<ListedRecord> =>
  pages.flatMap((p) => {
    if (!sbas) return (p.body.records ?? []).map((r, i) => ({ json: r.json, page: p.body.page, position: i + 1 }))
    const indices = recordIndices(p.body)
    return p.body.orders.map((o, i) => ({
      json: StandingOrder.encodeReceived(o),
      page: p.body.page,
      position: (indices[i] ?? i) + 1
    }))
  })

/**
 * The bank's records read by core's `Orders` in `standard` on the listing day (its stream, the records read kept when
 * the text turns out to be no list): the orders, the records not read, and those read whole that pay nothing (an
 * anchorless record of the bank's, an inactive one of another source), each with its page and record.
 */
export const readListed = (
  records: ReadonlyArray<ListedRecord>,
  standard: Standard.Standard,
  listedOn: LocalDate.LocalDate
) =>
  Orders.stream(Stream.make(JSON.stringify(records.map((r) => r.json))), { standard, listedOn }).pipe(
    // the text stops being a list where a record passes the reader's limits: the records read are kept, and the
    // stop is said as an unread part of the list (exit 7), never left out without a word
    Stream.catchTag("NotAList", (e) => Stream.make(stoppedAt(e))),
    Stream.runCollect,
    Effect.map((items) => {
      // sorted with the anchorless records among the skipped, with their reasons (the list's own ending is not used)
      const read = Orders.collect(items, { pageCount: undefined, listMissing: false, keys: [] })
      const skipped = read.skipped.map((s): Render.SkippedRow => {
        const at = records[s.position - 1]
        return { orderId: s.orderId, page: at?.page, position: at?.position ?? s.position, reason: s.reason }
      })
      return { orders: read.orders, unread: read.unread, skipped }
    })
  )

/** Where core's reader stopped reading the listing's records: an unread part of the list, with its reason. */
const stoppedAt = (e: Orders.NotAList): Orders.Unread => ({
  _tag: "Unread",
  kind: "list",
  position: undefined,
  orderId: undefined,
  path: "the listing",
  reason: `${e.reason}; the records from there on were not read`,
  standard: undefined
})

/**
 * A listing of another bank's profile (COBS): its records as the bank sent them (`--format json`), or one line per
 * order with its id, amount, interval and core's reading (an order of a longer interval waits for its detail).
 */
const profiledListing = (
  pages: ReadonlyArray<BankClient.Reply<BankClient.StandingOrdersPage>>,
  input: { readonly format: "table" | "json"; readonly reconcile?: boolean | undefined },
  profile: Profile.Profile
) =>
  Effect.gen(function* () {
    if (input.reconcile === true)
      return yield* Failure.usage(`--reconcile reads the seed bank's records; the ${profile.name} profile's are not`)
    const records = pages.flatMap((p) => p.body.records ?? [])
    if (input.format === "json") {
      yield* Output.line(JSON.stringify({ standingOrders: records.map((r) => r.json) }, null, 2))
      return
    }
    const style = yield* Output.stdoutStyle
    yield* Output.line(style.bold(`${records.length} standing order(s) (${profile.name}), ${pages.length} page(s)`))
    for (const r of records) {
      // the record as core sees it at a glance: the CLI reads no field of it
      const o = SourceRecord.glance(r.json)
      const amount = `${o.amount ?? "?"} ${o.currency ?? ""}`
      const every = `${o.interval ?? "?"} ${o.intervalDue ?? ""}`.trim()
      const reading =
        r.read === undefined ? "not read" : r.read._tag === "Order" ? "projected" : `details pending: ${r.read.reason}`
      yield* Output.line(
        Output.printable(`${(r.id ?? "(no id)").padEnd(24)} ${amount.padStart(14)}  ${every.padEnd(12)} ${reading}`)
      )
    }
    const last = pages[pages.length - 1]
    if (last !== undefined) yield* Output.line(`Action-ID ${last.identity.processId ?? ""}`)
  })

/**
 * Exit 7 after the listing was printed when the bank's pages held records that could not be read or a page came
 * back without its records (cli README, "Exit codes"); records merely out of format do not count.
 */
const unreadPages = (pages: ReadonlyArray<{ readonly body: { readonly errors: ReadonlyArray<unknown> } }>) => {
  const problems = pages.reduce((n, p) => n + p.body.errors.length, 0)
  return problems === 0
    ? Effect.void
    : Effect.fail(
        Failure.make(
          "data",
          `the bank's answer had ${problems} ${problems === 1 ? "problem" : "problems"} (each reported above): ` +
            "records that could not be read or a page without its records; every good record is listed"
        )
      )
}

/**
 * The listing's warnings on stderr: one line each, but equal ones (the same field and words) one line with their count
 * and the first records (page, record from 1, orderId), in the order first given.
 */
export const listingWarnings = (
  pages: ReadonlyArray<{
    readonly page: number
    readonly warnings: ReadonlyArray<{
      readonly index: number
      readonly orderId?: string | null | undefined
      readonly path: string
      readonly message: string
    }>
  }>
): Array<string> => {
  const groups = new Map<string, Array<string>>()
  for (const p of pages) {
    for (const w of p.warnings) {
      const key = `${w.path} ${w.message}`
      const named = `page ${p.page}, record ${w.index + 1} (${w.orderId ?? "no orderId"})`
      const group = groups.get(key)
      if (group === undefined) groups.set(key, [named])
      else group.push(named)
    }
  }
  return [...groups].map(([said, records]) =>
    records.length === 1
      ? `tppkit: ${records[0]} is out of format: ${said}`
      : `tppkit: ${records.length} records (${records.slice(0, 3).join("; ")}${records.length > 3 ? "; …" : ""}) are out of format: ${said}`
  )
}
