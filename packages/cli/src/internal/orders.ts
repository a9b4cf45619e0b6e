/**
 * Reading an orders file (or standard input) for the commands that take `--orders`: `tppkit project`, `translate`,
 * `explain`, `forecast`, `reconcile` and `worker status`. Each reads records of any standard the same way
 * (`--standard` forces one) and says the same per-record warnings on stderr.
 */
import { AccountMap, BusinessDayConvention, LocalDate, Orders, Profile, type Standard } from "@tppkit/core"
import { Clock, Effect, Option, Result, type Stdio, Stream } from "effect"
import * as Failure from "../Failure.ts"
import * as Output from "../Output.ts"
import * as Project from "../Project.ts"
import * as Render from "../Render.ts"
import * as Files from "./files.ts"

/**
 * The orders file (or stdin) decoded while it is read, piece by piece (`Project.ordersDecoder`): memory holds the
 * decoded orders, never the whole text or its parsed JSON; the file is read as bytes (UTF-8 checked by the decoder),
 * in order, so that a pipe or `<(…)` works; reading stops at the first piece that is not an orders file.
 */
export const readOrders = (file: string, options?: Orders.Options) =>
  Effect.suspend(() => {
    const decoder = Project.ordersDecoder(options)
    const pieces: Stream.Stream<Uint8Array, Failure.CliFailure, Stdio.Stdio> =
      file === "-"
        ? Output.stdinBytes.pipe(Stream.mapError(Failure.failure))
        : Files.streamBytes("orders file", file, Failure.failure)
    return Stream.runForEachWhile(pieces, (piece) => Effect.sync(() => decoder.push(piece))).pipe(
      Effect.map(() => decoder.end())
    )
  })

/**
 * The failure of a run that printed every good order but not every record (cli README, "Exit codes": 7): how many
 * records or parts of the list could not be read.
 */
export const unreadMessage = (orders: string, count: number, done = "projected"): string =>
  `${orders === "-" ? "standard input" : orders}: ${count} ${count === 1 ? "record or part of the list" : "records or parts of the list"} could not be read as standing orders (each reported above); every other order was ${done}`

/** The name of the orders file in messages (`standard input` for `-`). */
export const nameOf = (file: string): string => (file === "-" ? "standard input" : file)

/**
 * Each order read from another standard with a tolerance (a bad string real banks send) or a loss, one line on stderr
 * naming the order: it is still used.
 */
export const warn = (warnings: ReadonlyArray<Render.SkippedRow>) =>
  Effect.forEach(
    grouped(warnings),
    (w) => Output.errorLine(Render.printable(`tppkit: warning ${w.orderId ?? "an order"}: ${w.reason}`)),
    { discard: true }
  )

/** How many orderIds a grouped warning names before "…". */
const NAMED = 3

/**
 * Equal warnings (the same standard, field and reason: {@link Render.SkippedRow}'s `group`) as one row, in the order
 * first given: the count and the first orderIds (`12 orders (SO-1, SO-2, SO-3, …)`), then the first one's words.
 */
export const grouped = (warnings: ReadonlyArray<Render.SkippedRow>): ReadonlyArray<Render.SkippedRow> => {
  const groups = new Map<string, { readonly first: Render.SkippedRow; readonly ids: Array<string> }>()
  const out: Array<Render.SkippedRow | { readonly key: string }> = []
  for (const w of warnings) {
    if (w.group === undefined) {
      out.push(w)
      continue
    }
    const g = groups.get(w.group)
    if (g === undefined) {
      groups.set(w.group, { first: w, ids: [w.orderId ?? "an order"] })
      out.push({ key: w.group })
    } else g.ids.push(w.orderId ?? "an order")
  }
  if (groups.size === warnings.length) return warnings
  return out.map((x) => {
    if (!("key" in x)) return x
    const { first, ids } = groups.get(x.key)!
    if (ids.length === 1) return first
    const named = ids.slice(0, NAMED).join(", ")
    return {
      orderId: `${ids.length} orders (${named}${ids.length > NAMED ? ", …" : ""})`,
      // the first one's words: the same standard, field and reason (a value received may differ between them)
      reason: first.reason
    }
  })
}

/**
 * The orders of a file (or stdin) as every command that reads orders reads them: records of any standard, each in the
 * one it says or reveals or the one `--standard` forces; each record's warnings said on stderr at once; a file that is
 * no orders file at all fails (exit 7). Unread records are the caller's to report after its output (exit 7).
 */
export const read = (
  file: string,
  standard?: Option.Option<Standard.Standard> | undefined,
  accounts?: Option.Option<string> | undefined,
  listedOn?: LocalDate.LocalDate | undefined,
  convention?: string | undefined
) =>
  Effect.gen(function* () {
    const decoded = yield* readOrders(file, {
      standard: standard === undefined ? undefined : Option.getOrUndefined(standard),
      accounts: yield* readAccounts(accounts),
      listedOn,
      convention: conventionOf(convention)
    })
    if (Result.isFailure(decoded)) return yield* Failure.badInput(`${nameOf(file)}: ${decoded.failure}`)
    yield* warn(decoded.success.warnings ?? [])
    yield* warnRepeated(Orders.repeated(decoded.success.orders))
    return decoded.success
  })

/**
 * The command's `--convention` as the reader applies it to a record that leaves it unstated (so that the warning
 * saying so names it); a value that is none is the command's own to refuse, read with the default meanwhile.
 */
const conventionOf = (c: string | undefined): BusinessDayConvention.BusinessDayConvention | undefined =>
  (BusinessDayConvention.conventions as ReadonlyArray<string | undefined>).includes(c)
    ? (c as BusinessDayConvention.BusinessDayConvention)
    : undefined

/**
 * Records that could not be read or pay nothing, on stderr with their positions or orderIds and why (a problem of the
 * list itself, e.g. a repeated standingOrders key, is no order's); equal ones (the same kind, field and reason: a
 * row's `alike`) are one line with their count, the first orderIds and their positions.
 */
export const warnUnread = (skipped: ReadonlyArray<Render.SkippedRow>) =>
  Effect.forEach(skippedLines(skipped), (line) => Output.errorLine(Render.printable(line)), { discard: true })

/** How many positions a grouped line names before "…". */
const POSITIONS = 10

/** The lines of {@link warnUnread}, equal rows grouped in the order first given. */
export const skippedLines = (skipped: ReadonlyArray<Render.SkippedRow>): Array<string> => {
  const one = (s: Render.SkippedRow) =>
    s.orderId === undefined && s.kind !== "record"
      ? `tppkit: the orders list: ${s.reason}`
      : `tppkit: skipped ${s.orderId ?? "an order"}: ${s.reason}`
  const groups = new Map<string, Array<Render.SkippedRow>>()
  const out: Array<Render.SkippedRow | { readonly key: string }> = []
  for (const s of skipped) {
    const key = s.alike?.key
    const group = key === undefined ? undefined : groups.get(key)
    if (key === undefined) out.push(s)
    else if (group === undefined) {
      groups.set(key, [s])
      out.push({ key })
    } else group.push(s)
  }
  return out.map((x) => {
    if (!("key" in x)) return one(x)
    const rows = groups.get(x.key)!
    if (rows.length === 1) return one(rows[0]!)
    const ids = rows.flatMap((r) => (r.orderId === undefined ? [] : [r.orderId]))
    const positions = rows.flatMap((r) => (r.position === undefined ? [] : [r.position]))
    const parts = [
      ...(ids.length === 0 ? [] : [`${ids.slice(0, NAMED).join(", ")}${ids.length > NAMED ? ", …" : ""}`]),
      ...(positions.length === 0
        ? []
        : [
            positions.length > POSITIONS
              ? `records ${positions.slice(0, POSITIONS).join(", ")}, …`
              : positionsText(positions)
          ])
    ]
    return `tppkit: skipped ${rows.length} orders${parts.length === 0 ? "" : ` (${parts.join("; ")})`}: ${rows[0]!.alike!.said}`
  })
}

/**
 * The accounts file of `--accounts` (core's `AccountMap`), or none; a file that cannot be read or is wrong fails the
 * command (exit 2) naming every wrong entry.
 */
export const readAccounts = (file: Option.Option<string> | undefined) =>
  Effect.gen(function* () {
    if (file === undefined || Option.isNone(file)) return undefined
    const map = AccountMap.parse(yield* Files.readText("accounts file", file.value, Failure.usage))
    if (Result.isFailure(map))
      return yield* Failure.usage(`accounts file ${JSON.stringify(file.value)}: ${map.failure.join("; ")}`)
    return map.success
  })

/** The day a list was read (`--listed-on`), or today in the bank's time zone when not given (`given` false). */
export interface ListingDay {
  readonly day: LocalDate.LocalDate
  readonly given: boolean
  readonly timeZone: string
}

/**
 * The listing day of `--listed-on` (a bad date is a usage error, exit 2), else today in the time zone of the bank
 * whose list items name no start (the COBS profile's, `Profile.cobs`).
 */
export const listingDay = (flag: Option.Option<string> | undefined) =>
  Effect.gen(function* () {
    const timeZone = Profile.cobs.unattended.timeZone
    if (flag !== undefined && Option.isSome(flag)) {
      const parsed = LocalDate.parse(flag.value.trim())
      if (Result.isFailure(parsed)) {
        return yield* Failure.usage(`--listed-on ${JSON.stringify(flag.value)}: ${parsed.failure}`)
      }
      return { day: parsed.success, given: true, timeZone } satisfies ListingDay
    }
    const millis = yield* Clock.currentTimeMillis
    const day = LocalDate.ofInstant(millis, timeZone)
    return { day, given: false, timeZone } satisfies ListingDay
  })

/**
 * The orders of a file read as {@link read} reads them, a COBS list item counting from the listing day
 * (`--listed-on`, else today in the bank's time zone): when today was taken for some item, one warning on stderr says
 * so and names the flag.
 */
export const readListed = (
  file: string,
  standard: Option.Option<Standard.Standard> | undefined,
  accounts: Option.Option<string> | undefined,
  listedOn: Option.Option<string> | undefined,
  convention?: string | undefined
) =>
  Effect.gen(function* () {
    const listing = yield* listingDay(listedOn)
    const decoded = yield* read(file, standard, accounts, listing.day, convention)
    const counted = listing.given ? 0 : (decoded.fromListingDay ?? 0)
    if (counted > 0) {
      yield* Output.errorLine(
        `tppkit: warning: ${counted === 1 ? "1 COBS list item names" : `${counted} COBS list items name`} no start and ${counted === 1 ? "counts" : "count"} from the listing day: today, ${LocalDate.format(listing.day)} in ${listing.timeZone} (give the day the list was read with --listed-on YYYY-MM-DD)`
      )
    }
    return decoded
  })

/** Record positions in words: "records 2 and 5", "records 2, 5 and 9". */
export const positionsText = (positions: ReadonlyArray<number>): string =>
  `records ${positions.length === 1 ? positions[0] : `${positions.slice(0, -1).join(", ")} and ${positions.at(-1)}`}`

/**
 * The order a flag names (`--order ID`, a scenario's order): its one record, or `ID#N`, the N-th record with that
 * orderId; a name that several records give is refused (exit 2) naming their positions and the names that pick each.
 */
export const pickOrder = <A extends { readonly orderId: string; readonly position?: number | undefined }>(
  orders: ReadonlyArray<A>,
  name: string,
  flag: string
): Result.Result<A | undefined, string> => {
  const picked = Orders.pick(orders, name)
  if (picked._tag === "Found") return Result.succeed(picked.order)
  if (picked._tag === "None") return Result.succeed(undefined)
  return Result.fail(ambiguous(name, picked.positions, flag))
}

/** The refusal of a name that several records give. */
export const ambiguous = (name: string, positions: ReadonlyArray<number>, flag: string): string =>
  `${flag} ${JSON.stringify(name)} names ${positions.length} orders (${positionsText(positions)} give that orderId): name one as ${positions.map((_, i) => `${name}#${i + 1}`).join(" or ")}`

/**
 * Each orderId that more than one record gives, one line on stderr naming its records' positions: every such order is
 * used, none silently taken for another.
 */
export const warnRepeated = (repeats: ReadonlyArray<Orders.Repeated>) =>
  Effect.forEach(
    repeats,
    (r) =>
      Output.errorLine(
        Render.printable(
          `tppkit: warning: orderId ${JSON.stringify(r.orderId)} is given by ${r.positions.length} records (${positionsText(r.positions)}): each is used; name one as ${r.orderId}#1 ${r.positions.length === 2 ? "or" : "…"} ${r.orderId}#${r.positions.length}`
        )
      ),
    { discard: true }
  )
