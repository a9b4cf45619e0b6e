/**
 * A bank profile: what a bank's interface looks like, as data (packages/http/README.md, "Bank profiles"). Per
 * operation the method, the LIVE and SANDBOX paths, the authentication (a client-credentials token, the customer's
 * access token, an API key, mutual TLS) and the scopes; the request headers and where each value comes from; the
 * paging; the record format (a standard core's decoders read); the error dialect; the rule that says which calls
 * are made without the customer and how many a day are allowed; the consent's validity; the bank's known technical
 * breaks. A profile is read from JSON a user writes (`decodeJson`), each wrong field named. tppkit ships two:
 * `sbas`, the seed bank's (docs/bank-interface.md), and `cobs`, the Czech Open Banking Standard 7/8 as its rule book
 * states it; both are JSON files of this package (`src/profiles/`).
 *
 * @since 0.3.0
 */
import { Result, Schema, SchemaParser } from "effect"
import cobsJson from "./profiles/cobs.json" with { type: "json" }
import sbasJson from "./profiles/sbas.json" with { type: "json" }
import * as SchemaProblem from "./SchemaProblem.ts"

/** The operations a profile may describe: the token request, the balance check, the list and one order's detail. */
export const Operation = Schema.Literals(["token", "balanceCheck", "standingOrders", "standingOrder"])

/** An operation a profile may describe. */
export type Operation = typeof Operation.Type

/**
 * How an operation authenticates: a client-credentials token (`clientCredentials`), the customer's access token of
 * an authorization-code flow (`customerToken`), an API key header (`apiKey`), the TPP's certificate over mutual TLS
 * (`mutualTls`).
 */
export const Auth = Schema.Literals(["clientCredentials", "customerToken", "apiKey", "mutualTls"])

/** How an operation authenticates. */
export type Auth = typeof Auth.Type

/** The placeholder of the order's id in a detail path. */
export const idPlaceholder = "{transactionIdentification}"

/** A path relative to the base URL: starts with `/`, no query or fragment, printable ASCII. */
export const Path = Schema.String.check(
  Schema.makeFilter(
    (s: string) =>
      (/^\/[\x21-\x7e]*$/.test(s) && !/[?#]/.test(s)) ||
      "must start with / and hold printable ASCII without blanks, query or fragment"
  )
)

/** An operation's paths in the two environments. */
export const Paths = Schema.Struct({ live: Path, sandbox: Path })

/** One operation as the bank offers it. */
export const OperationSpec = Schema.Struct({
  method: Schema.Literals(["GET", "POST"]),
  paths: Paths,
  auth: Schema.Array(Auth),
  /** The OAuth scopes the token of this operation is asked with. */
  scopes: Schema.optionalKey(Schema.Array(Schema.String.check(Schema.isPattern(/^[\x21\x23-\x5b\x5d-\x7e]+$/)))),
  /** The balance check's body: the seed bank's (`sbas`) or the COBS one (`cobs`). */
  body: Schema.optionalKey(Schema.Literals(["sbas", "cobs"])),
  /** The token request's grant: client credentials, or an authorization code and its refresh token. */
  grant: Schema.optionalKey(Schema.Literals(["client_credentials", "authorization_code"]))
})

/** One operation as the bank offers it. */
export type OperationSpec = typeof OperationSpec.Type

/**
 * Where a request header's value comes from: a constant, the token, the API key, the request identities, the time
 * of the request, whether the customer takes part, the TPP's name or licence, or a field of the customer's context.
 */
export const HeaderSource = Schema.Literals([
  "constant",
  "authorization",
  "apiKey",
  "requestId",
  "correlationId",
  "processId",
  "date",
  "userInvolved",
  "tppName",
  "tppIdentification",
  "psu.ipAddress",
  "psu.deviceOs",
  "psu.userAgent",
  "psu.geoLocation",
  "psu.lastLoggedTime"
])

/** Where a request header's value comes from. */
export type HeaderSource = typeof HeaderSource.Type

/**
 * A header name HTTP can carry (RFC 9110 5.1, a token). A name some standard spells with a dash that is not ASCII (an
 * en dash in COBS's `User–IP-Address`) cannot go over HTTP: the profile names it with the hyphen and may keep the
 * standard's spelling in `standardSpelling`.
 */
export const HeaderName = Schema.String.check(
  Schema.makeFilter(
    (s: string) =>
      /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(s) ||
      (/[\u2010-\u2015\u2212]/.test(s)
        ? "holds a dash that is not ASCII (HTTP cannot send it): write the hyphen '-' and keep the standard's spelling in standardSpelling"
        : "is not an HTTP header name (RFC 9110 token characters only)")
  )
)

/** One request header of the API operations. */
export const Header = Schema.Struct({
  name: HeaderName,
  /** The name as the standard spells it, when that cannot go over HTTP (documentation only). */
  standardSpelling: Schema.optionalKey(Schema.String),
  from: HeaderSource,
  /** The value of a `constant` header. */
  value: Schema.optionalKey(Schema.String.check(Schema.isPattern(/^[\x20-\x7e]*$/))),
  /**
   * Whether the bank requires it: a required header whose value is missing fails the call before sending; an
   * optional one is left out.
   */
  required: Schema.Boolean,
  /** `customerPresent`: sent only on calls with the customer present (default `always`). */
  when: Schema.optionalKey(Schema.Literals(["always", "customerPresent"])),
  /** How the value is written: as given, or a `latitude, longitude` as RFC 2426's `GEO:lat;lon` (`geoUri`). */
  format: Schema.optionalKey(Schema.Literals(["asIs", "geoUri"]))
})

/** One request header of the API operations. */
export type Header = typeof Header.Type

const FieldName = Schema.String.check(Schema.isPattern(/^[A-Za-z_][A-Za-z0-9_]*$/))

/** How the list is paged: where the page and size go, where pages start, the size's bounds and the answer's fields. */
export const Paging = Schema.Struct({
  /** The page and size sent in the JSON body (`body`) or the query (`query`). */
  in: Schema.Literals(["body", "query"]),
  page: FieldName,
  size: FieldName,
  firstPage: Schema.Literals([0, 1]),
  maxSize: Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 10_000 })),
  /** The size must be a multiple of this. */
  sizeStep: Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 10_000 })),
  pageCount: FieldName,
  /** The answer's own page number, when it gives one. */
  pageNumber: Schema.optionalKey(FieldName),
  /** The answer's next page number, when it gives one (never trusted alone: `pageNumber + 1 >= pageCount` ends). */
  nextPage: Schema.optionalKey(FieldName),
  records: FieldName
})

/** How the list is paged. */
export type Paging = typeof Paging.Type

const ClockTime = Schema.String.check(
  Schema.makeFilter((s: string) => /^([01]\d|2[0-3]):[0-5]\d$/.test(s) || "must be HH:MM, 00:00 to 23:59")
)

/** A time the bank does not answer: on some weekdays (1 Monday … 7 Sunday; all when absent), from a time to a time. */
export const TechnicalBreak = Schema.Struct({
  weekdays: Schema.optionalKey(Schema.Array(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 7 })))),
  from: ClockTime,
  /** The end, exclusive; before `from` means the break runs past midnight. */
  to: ClockTime,
  timeZone: Schema.String
})

/** A time the bank does not answer. */
export type TechnicalBreak = typeof TechnicalBreak.Type

/**
 * Which calls are made without the customer and how many a day are allowed (RTS Article 36(5)(b)): the marker that
 * says so (the seed bank's `PSU-Last-Logged-Time` older than an hour or absent, or COBS's `User-Involved: false`),
 * the daily limit, the day's time zone, and the operations that count.
 */
export const Unattended = Schema.Struct({
  marker: Schema.Literals(["psuLastLoggedTime", "userInvolved"]),
  dailyLimit: Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 1_000_000 })),
  timeZone: Schema.String,
  counts: Schema.Array(Schema.Literals(["standingOrders", "standingOrder"]))
})

/** A bank profile. */
export const Profile = Schema.Struct({
  name: Schema.String.check(Schema.isPattern(/^[a-z0-9][a-z0-9-]{0,39}$/)),
  title: Schema.String,
  /** The record format of the list and the detail: a standard core's decoders read. */
  standard: Schema.Literals(["sbas", "cobs"]),
  /** The error body the bank answers with (the mock bank's dialect when it plays this profile). */
  errorDialect: Schema.Literals(["problem", "berlin-group", "cz-sk"]),
  operations: Schema.Struct({
    token: OperationSpec,
    balanceCheck: OperationSpec,
    standingOrders: OperationSpec,
    /** One order by its id, for banks whose list lacks fields a projection needs. */
    standingOrder: Schema.optionalKey(OperationSpec)
  }),
  headers: Schema.Array(Header),
  /** The response headers that carry the bank's id of the answer and the echoed identities. */
  responseHeaders: Schema.Struct({
    responseId: Schema.optionalKey(HeaderName),
    correlationId: Schema.optionalKey(HeaderName),
    processId: Schema.optionalKey(HeaderName)
  }),
  paging: Paging,
  /** Whether a list item carries everything a projection needs (false: the detail is asked once per order). */
  detailsInList: Schema.Boolean,
  unattended: Unattended,
  consent: Schema.Struct({
    electronicValidityDays: Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 3650 }))
  }),
  technicalBreaks: Schema.Array(TechnicalBreak)
})

/** A bank profile. */
export type Profile = typeof Profile.Type

/** One problem of a profile: the field's dotted path (absent at the root) and what is wrong with it. */
export type Problem = SchemaProblem.Problem

/** Whether `zone` is an IANA time zone this runtime knows (as `Intl.DateTimeFormat` takes it). */
export const isTimeZone = (zone: string): boolean => {
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone })
    return true
  } catch {
    return false
  }
}

/** What the schema cannot say: cross-field rules (a detail path with its placeholder, known time zones, …). */
const rules = (p: Profile): Array<Problem> => {
  const out: Array<Problem> = []
  const detail = p.operations.standingOrder
  if (detail !== undefined) {
    for (const env of ["live", "sandbox"] as const) {
      if (!detail.paths[env].includes(idPlaceholder))
        out.push({ path: `operations.standingOrder.paths.${env}`, message: `must hold ${idPlaceholder}` })
    }
  }
  if (!p.detailsInList && detail === undefined)
    out.push({ path: "operations.standingOrder", message: "is needed when detailsInList is false" })
  for (const [name, op] of Object.entries(p.operations) as Array<[string, OperationSpec | undefined]>) {
    if (op === undefined || name === "token") continue
    if (op.auth.length === 0) out.push({ path: `operations.${name}.auth`, message: "names no authentication" })
    if (op.auth.includes("clientCredentials") && op.auth.includes("customerToken"))
      out.push({ path: `operations.${name}.auth`, message: "names two tokens: clientCredentials or customerToken" })
  }
  if (p.operations.token.grant === undefined)
    out.push({ path: "operations.token.grant", message: "is missing: client_credentials or authorization_code" })
  p.headers.forEach((h, i) => {
    if (h.from === "constant" && h.value === undefined)
      out.push({ path: `headers.${i}.value`, message: "is missing: a constant header needs its value" })
  })
  const names = new Set<string>()
  p.headers.forEach((h, i) => {
    const lower = h.name.toLowerCase()
    if (names.has(lower)) out.push({ path: `headers.${i}.name`, message: `repeats the header ${h.name}` })
    names.add(lower)
  })
  if (!isTimeZone(p.unattended.timeZone)) out.push({ path: "unattended.timeZone", message: "is not an IANA time zone" })
  p.technicalBreaks.forEach((b, i) => {
    if (!isTimeZone(b.timeZone))
      out.push({ path: `technicalBreaks.${i}.timeZone`, message: "is not an IANA time zone" })
    if (b.from === b.to) out.push({ path: `technicalBreaks.${i}.to`, message: "equals from: the break has no length" })
  })
  return out
}

const decodeAll = SchemaParser.decodeUnknownResult(Profile, { errors: "all", onExcessProperty: "error" })

/**
 * Reads a profile from decoded JSON: the schema's problems, every one with its field, then the rules across fields
 * (a detail path holds `{transactionIdentification}`, a constant header has its value, a time zone exists, …).
 */
export const decode = (json: unknown): Result.Result<Profile, ReadonlyArray<Problem>> => {
  const decoded = decodeAll(json)
  if (Result.isFailure(decoded)) return Result.fail(SchemaProblem.all(decoded.failure))
  const problems = rules(decoded.success)
  return problems.length === 0 ? Result.succeed(decoded.success) : Result.fail(problems)
}

/** Reads a profile from its JSON text; text that is not JSON is one problem at the root. */
export const decodeJson = (text: string): Result.Result<Profile, ReadonlyArray<Problem>> => {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (e) {
    return Result.fail([{ path: undefined, message: `not JSON: ${e instanceof Error ? e.message : String(e)}` }])
  }
  return decode(json)
}

/** The problems as lines, `field: what is wrong`, for a command's error output. */
export const describe = (problems: ReadonlyArray<Problem>): string =>
  problems.map((p) => `${p.path ?? "(profile)"}: ${p.message}`).join("\n")

const builtIn = (json: unknown, name: string): Profile => {
  const decoded = decode(json)
  if (Result.isFailure(decoded)) throw new Error(`built-in profile ${name} is invalid:\n${describe(decoded.failure)}`)
  return decoded.success
}

/** The seed bank's profile (docs/bank-interface.md): the default, today's behaviour byte for byte. */
export const sbas: Profile = builtIn(sbasJson, "sbas")

/** The Czech Open Banking Standard 7/8 profile, as its rule book states it. */
export const cobs: Profile = builtIn(cobsJson, "cobs")

/** The profiles tppkit ships, by name. */
export const builtIns: ReadonlyMap<string, Profile> = new Map([
  ["sbas", sbas],
  ["cobs", cobs]
])

/** The path of an operation in an environment (`undefined` when the profile does not offer it). */
export const path = (profile: Profile, operation: Operation, environment: "live" | "sandbox"): string | undefined =>
  profile.operations[operation]?.paths[environment]

/** Whether `profile` behaves as the seed bank: the built-in `sbas`, or one equal to it in every field. */
export const isSbas = (profile: Profile): boolean =>
  profile === sbas || JSON.stringify(profile) === JSON.stringify(sbas)

/**
 * Whether the time `epochMillis` falls in one of the profile's technical breaks, and when that break ends (epoch
 * milliseconds), or `undefined` outside every break.
 */
export const breakEnd = (profile: Profile, epochMillis: number): number | undefined => {
  for (const b of profile.technicalBreaks) {
    const end = breakEndOf(b, epochMillis)
    if (end !== undefined) return end
  }
  return undefined
}

const minutesOf = (hhmm: string): number => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5))

const weekdayIndex: Readonly<Record<string, number>> = { Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6, Sun: 7 }

/** The wall-clock weekday and minute of the day of an instant in a time zone. */
const wallClock = (epochMillis: number, timeZone: string): { weekday: number; minute: number; second: number } => {
  const parts = new Intl.DateTimeFormat("en-GB", {
    timeZone,
    weekday: "short",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
    hourCycle: "h23"
  }).formatToParts(epochMillis)
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? "0"
  return {
    weekday: weekdayIndex[get("weekday")] ?? 1,
    minute: Number(get("hour")) * 60 + Number(get("minute")),
    second: Number(get("second"))
  }
}

const breakEndOf = (b: TechnicalBreak, epochMillis: number): number | undefined => {
  const { weekday, minute, second } = wallClock(epochMillis, b.timeZone)
  const from = minutesOf(b.from)
  const to = minutesOf(b.to)
  const onDay = (day: number) => b.weekdays === undefined || b.weekdays.includes(day)
  const previousDay = weekday === 1 ? 7 : weekday - 1
  let minutesLeft: number | undefined
  if (from < to) {
    if (onDay(weekday) && minute >= from && minute < to) minutesLeft = to - minute
  } else {
    // past midnight: from `from` to the end of its day, and on the next day until `to`
    if (onDay(weekday) && minute >= from) minutesLeft = 24 * 60 - minute + to
    else if (onDay(previousDay) && minute < to) minutesLeft = to - minute
  }
  if (minutesLeft === undefined) return undefined
  const ms = epochMillis % 1000
  return epochMillis - ms - second * 1000 + minutesLeft * 60_000
}
