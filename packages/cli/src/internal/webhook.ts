/** The work behind `tppkit webhook secret`, `verify`, `enable` and `replay`, loaded only when one runs. */
import * as Webhook from "@tppkit/worker/Webhook"
import { Effect, Option, Redacted, Result, Stream } from "effect"
import * as Failure from "../Failure.ts"
import * as Output from "../Output.ts"
import * as DatabaseFailure from "./database.ts"
import { readText } from "./files.ts"

/** The parsed flags of `tppkit webhook secret`. */
export interface SecretInput {
  readonly bytes: number
}

/** Runs `tppkit webhook secret`: a new secret on stdout, for the workers and the receiver (and nowhere else). */
export const secret = Effect.fn("tppkit.webhook.secret")(function* (input: SecretInput) {
  const { min, max } = Webhook.secretBytes
  if (!Number.isInteger(input.bytes) || input.bytes < min || input.bytes > max) {
    return yield* Failure.usage(`--bytes must be a whole number from ${min} to ${max}`)
  }
  yield* Output.line(Redacted.value(Webhook.makeSecret(input.bytes)))
})

/** The parsed flags of `tppkit webhook verify`. */
export interface VerifyInput {
  readonly id: Option.Option<string>
  readonly timestamp: Option.Option<string>
  readonly signature: Option.Option<string>
  readonly headers: Option.Option<string>
  readonly body: string
  readonly secret: Option.Option<Redacted.Redacted<string>>
  readonly tolerance: number
}

/**
 * The headers of a file: a JSON object of names to values, or one `name: value` a line (as `curl -D` writes them;
 * a status line and blank lines are skipped); names in any case. `undefined` for a JSON text that is no object.
 */
export const headersOf = (text: string): Record<string, string> | undefined => {
  const trimmed = text.trim()
  if (trimmed.startsWith("{")) {
    try {
      const parsed: unknown = JSON.parse(trimmed)
      if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return undefined
      const out: Record<string, string> = {}
      for (const [k, v] of Object.entries(parsed)) if (typeof v === "string") out[k.toLowerCase()] = v
      return out
    } catch {
      return undefined
    }
  }
  const out: Record<string, string> = {}
  for (const line of text.split(/\r?\n/)) {
    const colon = line.indexOf(":")
    if (colon <= 0 || line.startsWith("HTTP/")) continue
    out[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
  }
  return out
}

/**
 * Runs `tppkit webhook verify`: the event with its id on stdout (one JSON line), or one line on stderr and exit 7
 * (the request does not verify), 2 (a header given nowhere) or 3 (no secret, or a secret that is not one).
 */
export const verify = Effect.fn("tppkit.webhook.verify")(function* (input: VerifyInput) {
  if (Option.isNone(input.secret)) {
    return yield* Failure.configuration(
      "no secret: set TPPKIT_WEBHOOK_SECRET (or give --secret), the endpoint's whsec_… secret"
    )
  }
  if (!Number.isInteger(input.tolerance) || input.tolerance < 0) {
    return yield* Failure.usage("--tolerance must be a whole number of seconds, 0 or more")
  }
  if (Option.isSome(input.headers) && input.headers.value === "-" && input.body === "-") {
    return yield* Failure.usage("--headers - and the body both on standard input: give one of them as a file")
  }
  const stdin = Stream.mkString(Output.stdinText).pipe(Effect.mapError((m) => Failure.failure(m)))
  const fromFile = Option.isNone(input.headers)
    ? {}
    : headersOf(
        input.headers.value === "-"
          ? yield* stdin
          : yield* readText("the headers", input.headers.value, (m) => Failure.failure(m))
      )
  if (fromFile === undefined) {
    return yield* Failure.usage("--headers: a JSON object of names to values, or one 'name: value' a line")
  }
  const pick = (given: Option.Option<string>, name: string) => Option.getOrElse(given, () => fromFile[name])
  const headers = {
    [Webhook.idHeader]: pick(input.id, Webhook.idHeader),
    [Webhook.timestampHeader]: pick(input.timestamp, Webhook.timestampHeader),
    [Webhook.signatureHeader]: pick(input.signature, Webhook.signatureHeader)
  }
  const flagOf: Record<string, string> = { [Webhook.idHeader]: "--id", [Webhook.timestampHeader]: "--timestamp" }
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) {
      return yield* Failure.usage(`no ${name}: give ${flagOf[name] ?? "--signature"} or --headers FILE`)
    }
  }
  const secrets = Redacted.value(input.secret.value)
    .split(/\s+/)
    .filter((s) => s.length > 0)
    .map((s) => Redacted.make(s))
  const body = input.body === "-" ? yield* stdin : yield* readText("the body", input.body, (m) => Failure.failure(m))
  const result = Webhook.verify({ body, headers, secret: secrets, toleranceSeconds: input.tolerance })
  if (Result.isFailure(result)) {
    const error = result.failure
    return yield* error.reason === "invalidSecret"
      ? Failure.configuration(`TPPKIT_WEBHOOK_SECRET (or --secret): ${error.message}`, error)
      : Failure.make("data", `webhook: ${error.message}`, { origin: error })
  }
  yield* Output.line(JSON.stringify({ id: result.success.id, ...result.success.event }))
})

/** The parsed flags of `tppkit webhook enable`. */
export interface EnableInput {
  readonly url: string
  readonly databaseUrl: Option.Option<Redacted.Redacted<string>>
}

/** The fleet's endpoints as one phrase, for a message that names none of them. */
const known = (endpoints: ReadonlyArray<Webhook.EndpointState>): string =>
  endpoints.length === 0
    ? "the fleet has none (tppkit worker --webhook URL adds one)"
    : `the fleet's: ${endpoints.map((e) => e.endpoint).join(", ")}`

/** The fleet's endpoint `url` names, or a usage failure naming the fleet's endpoints. */
const endpointNamed = (flag: string, url: string) =>
  Effect.gen(function* () {
    const found = yield* Webhook.findEndpoint(url.trim())
    if (found !== undefined) return found
    return yield* Failure.usage(
      `${flag}${Webhook.displayUrl(url)}: no such webhook endpoint; ${known(yield* Webhook.endpoints)}`
    )
  })

/** Runs `tppkit webhook enable`: one line on stdout saying what changed. */
export const enable = Effect.fn("tppkit.webhook.enable")(function* (input: EnableInput) {
  yield* DatabaseFailure.withDatabase(
    input.databaseUrl,
    Effect.gen(function* () {
      const endpoint = yield* endpointNamed("", input.url)
      const changed = yield* Webhook.enable(endpoint.url)
      yield* Output.line(
        changed
          ? `${Webhook.displayUrl(endpoint.url)}: enabled; its new events are delivered again (tppkit webhook replay --since D sends what it missed)`
          : `${Webhook.displayUrl(endpoint.url)}: was not disabled; nothing changed`
      )
    })
  )
})

/** The parsed flags of `tppkit webhook replay`. */
export interface ReplayInput {
  readonly since: string
  readonly type: Option.Option<string>
  readonly endpoint: Option.Option<string>
  readonly databaseUrl: Option.Option<Redacted.Redacted<string>>
}

/** `--since`: a day (from 00:00 UTC) or an RFC 3339 time with its offset, as epoch milliseconds. */
export const sinceOf = (text: string): number | undefined => {
  const t = text.trim()
  if (/^\d{4}-\d{2}-\d{2}$/.test(t)) {
    const at = Date.parse(`${t}T00:00:00Z`)
    return Number.isNaN(at) || new Date(at).toISOString().slice(0, 10) !== t ? undefined : at
  }
  if (!/^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?([Zz]|[+-]\d{2}:\d{2})$/.test(t)) return undefined
  const at = Date.parse(t)
  return Number.isNaN(at) ? undefined : at
}

/**
 * Runs `tppkit webhook replay`: the events since `--since` due again for the endpoints (a worker with their
 * `--webhook` posts them); one JSON line on stdout, `{"since", "type"?, "endpoints": {URL: deliveries due}}`.
 */
export const replay = Effect.fn("tppkit.webhook.replay")(function* (input: ReplayInput) {
  const since = sinceOf(input.since)
  if (since === undefined) {
    return yield* Failure.usage(
      `--since ${JSON.stringify(input.since)}: a day YYYY-MM-DD (from 00:00 UTC) or a time such as 2026-11-02T07:00:00Z`
    )
  }
  const type = Option.getOrUndefined(input.type)
  if (type !== undefined && !(Webhook.EventType.literals as ReadonlyArray<string>).includes(type)) {
    return yield* Failure.usage(`--type ${JSON.stringify(type)}: one of ${Webhook.EventType.literals.join(", ")}`)
  }
  yield* DatabaseFailure.withDatabase(
    input.databaseUrl,
    Effect.gen(function* () {
      let targets: ReadonlyArray<string> | "enabled" = "enabled"
      if (Option.isSome(input.endpoint)) {
        const endpoint = yield* endpointNamed("--endpoint ", input.endpoint.value)
        if (endpoint.disabled) {
          return yield* Failure.configuration(
            `--endpoint ${Webhook.displayUrl(endpoint.url)} is disabled (it answered 410 Gone): tppkit webhook enable URL first`
          )
        }
        targets = [endpoint.url]
      } else {
        const all = yield* Webhook.endpoints
        if (all.every((e) => e.disabledAt !== undefined)) {
          return yield* Failure.configuration(
            all.length === 0
              ? "the fleet has no webhook endpoint (tppkit worker --webhook URL adds one)"
              : "every webhook endpoint of the fleet is disabled: tppkit webhook enable URL first"
          )
        }
      }
      const due = yield* Webhook.replay({ since, type, endpoints: targets })
      const counts = Object.fromEntries([...due].map(([url, n]) => [Webhook.displayUrl(url), n]))
      yield* Output.line(
        JSON.stringify({
          since: new Date(since).toISOString(),
          ...(type === undefined ? {} : { type }),
          endpoints: counts
        })
      )
      const total = [...due.values()].reduce((a, b) => a + b, 0)
      yield* Output.errorLine(
        total === 0
          ? "tppkit: nothing to replay: no event of the fleet's outbox matches"
          : `tppkit: ${total} ${total === 1 ? "delivery" : "deliveries"} due again; a worker with the endpoint's --webhook posts them`
      )
    })
  )
})
