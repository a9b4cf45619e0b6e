/**
 * The interface's OpenAPI 3.1 document, served by the mock bank at `GET /openapi.json`: the three operations of
 * docs/bank-interface.md with their headers, bodies (JSON Schema generated from core's schemas, the ones the mock bank
 * validates with) and error answers (README.md, "Errors").
 */
import { AccessToken, BalanceCheck, Endpoint, ErrorBody, Profile, StandingOrder } from "@tppkit/core"
import { Schema } from "effect"
import type * as Bank from "./internal/bank.ts"

/**
 * Points the references at `components`, and keeps one of equal alternatives of an `anyOf`: a number read as a
 * float and one read as its text (`Json.NumberText`) are the same JSON number on the wire.
 */
const rewriteRefs = (value: unknown): unknown => {
  if (Array.isArray(value)) return value.map(rewriteRefs)
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value)
    // an `anyOf` left with one alternative is that alternative
    if (entries.length === 1 && entries[0]?.[0] === "anyOf" && Array.isArray(entries[0][1])) {
      const alternatives = distinct(entries[0][1].map(rewriteRefs))
      if (alternatives.length === 1) return alternatives[0]
    }
    const out: Record<string, unknown> = {}
    for (const [k, v] of entries) {
      out[k] =
        k === "$ref" && typeof v === "string"
          ? v.replace("#/$defs/", "#/components/schemas/")
          : k === "anyOf" && Array.isArray(v)
            ? distinct(v.map(rewriteRefs))
            : rewriteRefs(v)
    }
    return out
  }
  return value
}

const distinct = (alternatives: ReadonlyArray<unknown>): Array<unknown> => {
  const seen = new Set<string>()
  return alternatives.filter((a) => {
    const key = JSON.stringify(a)
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

/** Converts a schema to JSON Schema, collecting its definitions into `components`. */
const jsonSchema = (schema: Schema.Top, components: Record<string, unknown>): unknown => {
  const doc = Schema.toJsonSchemaDocument(schema)
  for (const [name, def] of Object.entries(doc.definitions)) components[name] = rewriteRefs(def)
  return rewriteRefs(doc.schema)
}

const header = (name: string, description: string, required: boolean) => ({
  name,
  in: "header",
  required,
  description,
  schema: { type: "string" }
})

const requestHeaders = [
  header("Request-ID", "Unique id of the request (a UUID v4 recommended); echoed as Response-ID", true),
  header("Correlation-ID", "Correlates request and response; echoed", false),
  header("Process-ID", "Business or technical process (e.g. paging of one listing); echoed", false),
  header("PSU-IP-Address", "IPv4 or IPv6 address of the customer's connection to the TPP", true),
  header("PSU-Device-OS", "Customer's device and/or operating system", true),
  header("PSU-User-Agent", "Customer's browser or client device", true),
  header("PSU-GeoLocation", "latitude, longitude (the mock bank also accepts PSU-Geo-Location)", false),
  header("PSU-Last-Logged-Time", "RFC 3339; the customer counts as present when it is at most 1 hour old", false),
  header(
    "X-Sandbox-Fault",
    "Mock bank only: inject faults (503, 502, 429, delay[=ms], reset, truncate, nonjson, expired-token)",
    false
  ),
  header("X-Sandbox-Error-Dialect", "Mock bank only: problem, berlin-group or cz-sk error bodies", false)
]

const responseHeaders = {
  "Response-ID": { description: "Equals the request's Request-ID", schema: { type: "string" } },
  "Correlation-ID": { description: "Echo of the request's value", schema: { type: "string" } },
  "Process-ID": { description: "Echo of the request's value", schema: { type: "string" } }
}

/** The error answers of the API paths: problem details by default, the other dialects on request (core's schemas). */
const apiErrorContent = (components: Record<string, unknown>) => ({
  "application/problem+json": { schema: jsonSchema(ErrorBody.ProblemDetails, components) },
  "application/json": {
    schema: {
      description:
        "With X-Sandbox-Error-Dialect: berlin-group (tppMessages) or cz-sk (errors[], scope null when no field)",
      oneOf: [jsonSchema(ErrorBody.TppMessages, components), jsonSchema(ErrorBody.StandardErrors, components)]
    }
  }
})

const errorResponses = (
  statuses: ReadonlyArray<[number, string]>,
  content: Record<string, unknown>,
  headers?: Record<string, unknown>
) =>
  Object.fromEntries(
    statuses.map(([status, description]) => [
      String(status),
      { description, ...(headers !== undefined ? { headers } : {}), content }
    ])
  )

const apiStatuses: ReadonlyArray<[number, string]> = [
  [400, "Missing or invalid header or body field (the detail names it), or a body that is not UTF-8"],
  [401, "Missing, unknown or expired access token"],
  [403, "Scope, consent or account binding missing"],
  [404, "Unknown path"],
  [405, "Method other than POST"],
  [413, "Body larger than the limit, answered before the rest of it is read"],
  [415, "Content type other than application/json"],
  [429, "Daily limit of listings without the customer present, with Retry-After"],
  [503, "Unavailable (fault, or too many request bodies being received at once), with Retry-After"]
]

const tokenStatuses: ReadonlyArray<[number, string]> = [
  [400, "invalid_request, unsupported_grant_type or invalid_scope (RFC 6749 5.2)"],
  [401, "invalid_client (RFC 6749 5.2)"],
  [413, "Form larger than 8 KiB (or the body limit, when smaller), answered before the rest of it is read"],
  [415, "Content type other than application/x-www-form-urlencoded (any case; parameters such as charset allowed)"],
  [503, "temporarily_unavailable (fault, or too many request bodies being received at once), with Retry-After"]
]

/**
 * Builds the OpenAPI document for the SANDBOX or LIVE paths, served from `serverUrl` (default the loopback
 * address the mock bank binds to): every body, error dialects included, is JSON Schema generated from core's
 * schemas, the ones the mock bank reads and writes with.
 */
export const document = (
  environment: Bank.Environment,
  serverUrl = "http://127.0.0.1:8080"
): Record<string, unknown> => {
  const paths = Endpoint.paths(environment)
  const components: Record<string, unknown> = {}
  const oauthContent = { "application/json": { schema: jsonSchema(ErrorBody.OAuthError, components) } }
  const apiErrors = errorResponses(apiStatuses, apiErrorContent(components), responseHeaders)
  /** A POST of the bank's API: the token's scope, a JSON body, a JSON answer and the API's errors. */
  const apiOperation = (
    operationId: string,
    summary: string,
    scope: string,
    request: Schema.Top,
    answer: { readonly description: string; readonly schema: Schema.Top }
  ) => ({
    post: {
      operationId,
      summary,
      security: [{ bearer: [scope] }],
      parameters: requestHeaders,
      requestBody: { required: true, content: { "application/json": { schema: jsonSchema(request, components) } } },
      responses: {
        "200": {
          description: answer.description,
          headers: responseHeaders,
          content: { "application/json": { schema: jsonSchema(answer.schema, components) } }
        },
        ...apiErrors
      }
    }
  })
  return {
    openapi: "3.1.0",
    info: {
      title: "tppkit mock bank",
      version: "1.0.0",
      description:
        "Token by client credentials, balance check (PIISP) and standing-order list (AISP), as served by @tppkit/sandbox.",
      license: { name: "MIT", identifier: "MIT" }
    },
    servers: [{ url: serverUrl, description: "The running mock bank" }],
    paths: {
      [paths.token]: {
        post: {
          operationId: "token",
          summary: "Token by secret (OAuth 2.0 client credentials; 1200 s, not renewable)",
          description:
            "The client authenticates with client_id and client_secret in the form body (client_secret_post).",
          security: [],
          requestBody: {
            required: true,
            content: {
              "application/x-www-form-urlencoded": { schema: jsonSchema(AccessToken.TokenRequest, components) }
            }
          },
          responses: {
            "200": {
              description: "The access token",
              content: { "application/json": { schema: jsonSchema(AccessToken.TokenResponse, components) } }
            },
            ...errorResponses(tokenStatuses, oauthContent)
          }
        }
      },
      [paths.balanceCheck]: apiOperation(
        "balanceCheck",
        "Whether the amount is available on the account (needs PIISP and a consent)",
        "PIISP",
        BalanceCheck.Request,
        { description: "APPR (sufficient funds) or DECL", schema: BalanceCheck.Response }
      ),
      [paths.standingOrders]: apiOperation(
        "standingOrderList",
        "Standing orders of the accounts bound to the AISP token, paged",
        "AISP",
        StandingOrder.ListRequest,
        { description: "One page of standing orders", schema: StandingOrder.ListResponse }
      )
    },
    components: {
      schemas: components,
      securitySchemes: {
        bearer: {
          type: "oauth2",
          flows: {
            clientCredentials: {
              tokenUrl: paths.token,
              scopes: { PISP: "payment initiation", PIISP: "funds confirmation", AISP: "account information" }
            }
          }
        }
      }
    }
  }
}

/** The statuses the mock bank answers playing COBS, with the rule book's codes (standard's "Error dialect"). */
const cobsStatuses: ReadonlyArray<[number, string]> = [
  [
    400,
    "FIELD_MISSING, FIELD_INVALID, PAGE_NOT_FOUND, PARAMETER_INVALID; on the balance check also FF01, RR10, AM11, AM12, AC02, AC09, AG01, RF01"
  ],
  [401, "UNAUTHORISED: the access token or the API key missing or unknown"],
  [403, "FORBIDDEN: the access token has expired, or has no AISP scope"],
  [404, "ID_NOT_FOUND: no such standing order"],
  [415, "UNSUPPORTED_MEDIA_TYPE: a Content-Type that is not JSON, or an Accept that admits none"],
  [429, "The daily limit of calls without the customer (User-Involved: false), with Retry-After"]
]

/**
 * The OpenAPI 3.1 document of the mock bank playing a profile other than the seed bank's (COBS): its operations at the
 * profile's paths, the profile's request headers (required as the profile says; the API key's and the customer's
 * token security as headers), the list's paging parameters, the record's fields as the mock bank writes them, and
 * the errors in the rule book's dialect (core's `ErrorBody.StandardErrors`). The customer's token comes from the
 * authorization-code flow at `/oauth2/auth` and `/oauth2/token`.
 */
export const profileDocument = (
  profile: Profile.Profile,
  environment: Bank.Environment,
  serverUrl = "http://127.0.0.1:8080"
): Record<string, unknown> => {
  const components: Record<string, unknown> = {}
  const errors = errorResponses(cobsStatuses, {
    "application/json": { schema: jsonSchema(ErrorBody.StandardErrors, components) }
  })
  const parameters = (withToken: boolean) =>
    profile.headers
      .filter((h) => withToken || h.from !== "authorization")
      .map((h) =>
        header(
          h.name,
          `${h.standardSpelling === undefined ? "" : `Spelt ${h.standardSpelling} in the standard. `}From ${h.from}${h.when === undefined ? "" : `, ${h.when} only`}`,
          h.required
        )
      )
  const path = (operation: Profile.Operation) => Profile.path(profile, operation, environment) ?? `/${operation}`
  const amount = { type: "object", properties: { value: { type: "number" }, currency: { type: "string" } } }
  const account = {
    type: "object",
    properties: {
      id: { type: "string" },
      identification: { type: "object", properties: { iban: { type: "string" }, other: { type: "object" } } },
      currency: { type: "string" },
      name: { type: "string" }
    }
  }
  components.StandingOrder = {
    type: "object",
    required: ["standingOrderIdentification", "amount", "standingOrder", "debtorAccount"],
    properties: {
      standingOrderIdentification: {
        type: "object",
        properties: { instructionIdentification: { type: "string" }, transactionIdentification: { type: "string" } }
      },
      amount: { type: "object", properties: { instructedAmount: amount } },
      standingOrder: { type: "object", required: ["execution"], properties: { execution: { type: "object" } } },
      debtorAccount: account,
      requestedExecutionDate: { type: "string", format: "date", description: "On the detail only" },
      creditorAccount: { ...account, description: "On the detail only" }
    }
  }
  const ok = (schema: unknown) => ({
    "200": { description: "OK", content: { "application/json": { schema } } },
    ...errors
  })
  return {
    openapi: "3.1.0",
    info: {
      title: `tppkit mock bank playing ${profile.name}`,
      version: "1.0.0",
      description: `${profile.title}: the customer's token (authorization code), the standing-order list and detail, and the balance check, as served by @tppkit/sandbox.`,
      license: { name: "MIT", identifier: "MIT" }
    },
    servers: [{ url: serverUrl, description: "The running mock bank" }],
    paths: {
      [path("token")]: {
        post: {
          operationId: "token",
          summary: "The customer's tokens: an authorization code or a refresh token exchanged (RFC 6749 4.1.3, 6)",
          security: [],
          requestBody: {
            required: true,
            content: { "application/x-www-form-urlencoded": { schema: { type: "object" } } }
          },
          responses: {
            "200": {
              description: "access_token, refresh_token, expires_in, token_type",
              content: { "application/json": { schema: jsonSchema(AccessToken.TokenResponse, components) } }
            },
            ...errorResponses(tokenStatuses, {
              "application/json": { schema: jsonSchema(ErrorBody.OAuthError, components) }
            })
          }
        }
      },
      [path("standingOrders")]: {
        get: {
          operationId: "standingOrders",
          summary: "The customer's standing orders, one page (counted from 0); an item has no creditor and no start",
          security: [],
          parameters: [
            { name: profile.paging.size, in: "query", required: false, schema: { type: "integer", minimum: 1 } },
            { name: profile.paging.page, in: "query", required: false, schema: { type: "integer", minimum: 0 } },
            ...parameters(true)
          ],
          responses: ok({
            type: "object",
            required: ["pageNumber", "pageCount", "pageSize", "standingOrders"],
            properties: {
              pageNumber: { type: "integer" },
              pageCount: { type: "integer" },
              pageSize: { type: "integer" },
              nextPage: { type: ["integer", "null"] },
              totalCount: { type: "integer" },
              standingOrders: { type: "array", items: { $ref: "#/components/schemas/StandingOrder" } }
            }
          })
        }
      },
      [path("standingOrder").replace(Profile.idPlaceholder, "{transactionIdentification}")]: {
        get: {
          operationId: "standingOrder",
          summary: "One standing order with its creditor and requestedExecutionDate",
          security: [],
          parameters: [
            { name: "transactionIdentification", in: "path", required: true, schema: { type: "string" } },
            ...parameters(true)
          ],
          responses: ok({ $ref: "#/components/schemas/StandingOrder" })
        }
      },
      [path("balanceCheck")]: {
        post: {
          operationId: "balanceCheck",
          summary: "Whether the account holds the amount (APPR or DECL); the API key and the certificate, no token",
          security: [],
          parameters: parameters(false),
          requestBody: {
            required: true,
            content: {
              "application/json": {
                schema: {
                  type: "object",
                  required: ["exchangeIdentification", "debtorAccount", "transactionDetails"],
                  properties: {
                    exchangeIdentification: { type: "string", maxLength: 18 },
                    debtorAccount: account,
                    transactionDetails: {
                      type: "object",
                      required: ["currency", "totalAmount"],
                      properties: { currency: { type: "string" }, totalAmount: { type: "number" } }
                    }
                  }
                }
              }
            }
          },
          responses: ok({
            type: "object",
            required: ["responseIdentification", "exchangeIdentification", "response"],
            properties: {
              responseIdentification: { type: "number" },
              exchangeIdentification: {},
              response: { enum: ["APPR", "DECL"] }
            }
          })
        }
      }
    },
    components: { schemas: components }
  }
}
