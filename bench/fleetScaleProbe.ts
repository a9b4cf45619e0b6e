/**
 * Loaded into each worker of bench/fleetScale.ts (`node --import`): counts the requests this worker sends to the bank,
 * from undici's diagnostics channel (every request the bank client dispatches is created there): standing-order list
 * pages by the account filtered on (the consent's IBAN), balance checks, token requests. Written as JSON to
 * `BENCH_PROBE_FILE` when the worker exits. Bench only: nothing of tppkit reads it.
 */
import { subscribe } from "node:diagnostics_channel"
import { writeFileSync } from "node:fs"

const file = process.env.BENCH_PROBE_FILE
const pages = new Map<string, number>()
const counts = { listings: 0, checks: 0, tokens: 0, other: 0 }

const text = (body: unknown): string =>
  typeof body === "string" ? body : body instanceof Uint8Array ? Buffer.from(body).toString("utf8") : ""

subscribe("undici:request:create", (message) => {
  const request = (message as { request: { path: string; body: unknown } }).request
  if (/standing/i.test(request.path)) {
    counts.listings++
    const iban = /"iban"\s*:\s*"([A-Z0-9]+)"/.exec(text(request.body))?.[1] ?? "(none)"
    pages.set(iban, (pages.get(iban) ?? 0) + 1)
  } else if (/token/i.test(request.path)) counts.tokens++
  else if (/balance|funds/i.test(request.path)) counts.checks++
  else counts.other++
})

process.on("exit", () => {
  if (file !== undefined) writeFileSync(file, JSON.stringify({ ...counts, pages: [...pages] }))
})
