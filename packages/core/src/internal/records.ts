/**
 * What the readers of records share (`StandingOrder`'s lenient decoders and `Orders`): a schema failure as the path
 * of its first problem and a message, and a record's `orderId` when it has one, even in a record that is no order.
 */
import { SchemaIssue } from "effect"
import * as Json from "../Json.ts"

const formatter = SchemaIssue.makeFormatterStandardSchemaV1()

const formatPath = (path: ReadonlyArray<PropertyKey>): string =>
  path.reduce<string>(
    (acc, key) => (typeof key === "number" ? `${acc}[${key}]` : acc === "" ? String(key) : `${acc}.${String(key)}`),
    ""
  )

/** The path and message of the first problem of an issue, and the paths of any further problems. */
export const describeIssue = (issue: SchemaIssue.Issue): { path: string; message: string } => {
  const issues = formatter(issue).issues
  const first = issues[0]
  if (first === undefined) return { path: "", message: "invalid record" }
  const path = formatPath((first.path ?? []).map((p) => (typeof p === "object" ? p.key : p)))
  const others = issues.slice(1).map((i) => formatPath((i.path ?? []).map((p) => (typeof p === "object" ? p.key : p))))
  const more = others.length === 0 ? "" : ` (also: ${others.join(", ")})`
  return { path, message: `${first.message}${more}` }
}

/** A record's `orderId` as text (a string, or a number as written), or undefined. */
export const orderIdOf = (u: unknown): string | undefined => {
  if (typeof u !== "object" || u === null || Array.isArray(u)) return undefined
  const id = (u as Record<string, unknown>).orderId
  return typeof id === "string" ? id : typeof id === "number" ? String(id) : Json.isNumberText(id) ? id.text : undefined
}
