/**
 * Thin adapters over core's wire schemas (BalanceCheck, StandingOrder): schema issues as a dotted path and a
 * message, and the lenient page decoding with the failure shape the client reports.
 */
import { StandingOrder } from "@tppkit/core"
import { Result, SchemaIssue } from "effect"

const formatter = SchemaIssue.makeFormatterStandardSchemaV1()

/** The first issue of a schema failure as a dotted path and a message. */
export const firstIssue = (issue: SchemaIssue.Issue): { path: string; message: string } => {
  const first = formatter(issue).issues[0]
  const segments = (first?.path ?? []).map((p) => (typeof p === "object" && p !== null ? p.key : p))
  const path = segments.length === 0 ? "$" : segments.map(String).join(".")
  return { path, message: first?.message ?? "invalid" }
}

/** Decodes a list response leniently (core's rules): malformed records come back as errors beside the good ones. */
export const decodePage = (
  u: unknown
): Result.Result<StandingOrder.LenientList, { readonly path: string; readonly message: string }> =>
  Result.mapError(StandingOrder.decodeListLenient(u), (message) => ({ path: "$", message }))
