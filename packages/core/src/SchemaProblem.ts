/**
 * Schema failures in words: the problems of a `SchemaIssue` as a field path and a message, the form every package
 * reports them in (the client's `MalformedResponse`/`InvalidRequest`, the mock bank's 400 answers).
 *
 * @since 0.1.0
 */
import { SchemaIssue } from "effect"

/** One problem of a schema failure: the dotted path of the field (absent at the root) and its message. */
export interface Problem {
  readonly path: string | undefined
  readonly message: string
}

const formatter = SchemaIssue.makeFormatterStandardSchemaV1()

const dotted = (path: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined): string | undefined =>
  path === undefined || path.length === 0
    ? undefined
    : path.map((p) => String(typeof p === "object" && p !== null ? p.key : p)).join(".")

/** Every problem of a schema failure, in the order the schema found them. */
export const all = (issue: SchemaIssue.Issue): ReadonlyArray<Problem> =>
  formatter(issue).issues.map((i) => ({ path: dotted(i.path), message: i.message }))

/** The first problem of a schema failure (a failure always has one; `"invalid"` at the root otherwise). */
export const first = (issue: SchemaIssue.Issue): Problem => {
  const top = formatter(issue).issues[0]
  return { path: dotted(top?.path), message: top?.message ?? "invalid" }
}
