/**
 * Error answers of the mock bank in the dialects a client must understand (decisions: Errors): RFC 9457 problem
 * details (default), Berlin Group `tppMessages`, the Czech/Slovak standards' `errors[]`, and RFC 6749 5.2 on the
 * token endpoint.
 */

/** Which error body shape the API paths answer with. */
export type Dialect = "problem" | "berlin-group" | "cz-sk"

/** An error condition, independent of its rendering. */
export interface Failure {
  readonly status: number
  /** Stable upper-case code, e.g. `FORMAT_ERROR`, `TOKEN_EXPIRED`. */
  readonly code: string
  readonly title: string
  readonly detail: string
  /** The request field or header the error is about, when there is one. */
  readonly field?: string
  readonly headers?: Readonly<Record<string, string>>
}

/** A rendered body with its content type. */
export interface Rendered {
  readonly contentType: string
  readonly body: string
}

/** Renders a failure of an API path in the chosen dialect. */
export const render = (failure: Failure, dialect: Dialect): Rendered => {
  switch (dialect) {
    case "problem":
      return {
        contentType: "application/problem+json",
        body: JSON.stringify({
          type: `https://tppkit.dev/sandbox/problems/${failure.code.toLowerCase().replaceAll("_", "-")}`,
          title: failure.title,
          status: failure.status,
          detail: failure.detail,
          code: failure.code
        })
      }
    case "berlin-group":
      return {
        contentType: "application/json",
        body: JSON.stringify({
          tppMessages: [
            {
              category: "ERROR",
              code: failure.code,
              ...(failure.field !== undefined ? { path: failure.field } : {}),
              text: failure.detail
            }
          ]
        })
      }
    case "cz-sk":
      return {
        contentType: "application/json",
        body: JSON.stringify({
          errors: [
            {
              error: failure.code,
              scope: failure.field ?? null,
              parameters: failure.field !== undefined ? [failure.field] : [],
              message: failure.detail
            }
          ]
        })
      }
  }
}

/** Renders an RFC 6749 section 5.2 error body. */
export const renderOAuth = (error: string, description: string): Rendered => ({
  contentType: "application/json",
  body: JSON.stringify({ error, error_description: description })
})

/** Parses a dialect name (for the `X-Sandbox-Error-Dialect` header and the CLI flag). */
export const parseDialect = (s: string | undefined): Dialect | undefined =>
  s === "problem" || s === "berlin-group" || s === "cz-sk" ? s : undefined
