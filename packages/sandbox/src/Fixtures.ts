/**
 * The mock bank's data: clients with their secrets and rights, accounts with balances and consents, the accounts
 * each client's AISP tokens are bound to, and standing orders. A documented JSON format checked with core's schemas
 * (IBAN, currency, the standing order of docs/bank-interface.md, "Standing-order list"), plus a built-in default set
 * generated deterministically (dates relative to the fixed base date 2026-11-01). {@link decode} reads a set once into
 * its {@link Loaded} form, which the mock bank serves from. The format is `internal/fixtureModel.ts`, the built-in
 * and generated sets `internal/defaultSet.ts`; this module checks a set and re-exports both.
 */
import { StandingOrder as CoreStandingOrder, SchemaProblem } from "@tppkit/core"
import { Result, SchemaParser } from "effect"
import { Fixtures, type Loaded } from "./internal/fixtureModel.ts"

/**
 * The built-in default set and the generated sets (`internal/defaultSet.ts` documents each): `baseDate`, `ibans`,
 * `defaultClient`, `defaults`, `ordersPerConsent`, `Generated` and `generate`.
 */
export * from "./internal/defaultSet.ts"
/**
 * The fixture format (`internal/fixtureModel.ts` documents each): `Right`, `Client`, `ConsentKind`, `Consent`,
 * `Decimal`, `Account`, `StandingOrder`, the whole file `Fixtures`, a set as `Loaded` and `isLoaded`.
 */
export * from "./internal/fixtureModel.ts"

// ---------------------------------------------------------------------------
// decoding
// ---------------------------------------------------------------------------

const decodeSchema = SchemaParser.decodeUnknownResult(Fixtures)
const encodeOrder = SchemaParser.encodeResult(CoreStandingOrder.StandingOrder)

/**
 * Decodes and cross-checks a fixture set (unknown JSON value), once, with core's schemas: then unique client ids,
 * IBANs and order ids, every bound account and debtor IBAN naming a known account, and every standing order one the
 * bank may send (core encodes it: a positive `[9.2]` amount; no text beyond the document's lengths). Failure lists
 * every problem found.
 */
export const decode = (input: unknown): Result.Result<Loaded, Array<string>> => {
  const decoded = decodeSchema(input)
  if (Result.isFailure(decoded)) {
    return Result.fail(SchemaProblem.all(decoded.failure).map((p) => `${p.path ?? "(root)"}: ${p.message}`))
  }
  const f = decoded.success
  const problems: Array<string> = []
  const ibans = new Set<string>()
  for (const a of f.accounts) {
    if (ibans.has(a.iban)) problems.push(`accounts: duplicate IBAN ${a.iban}`)
    ibans.add(a.iban)
  }
  const ids = new Set<string>()
  for (const c of f.clients) {
    if (ids.has(c.clientId)) problems.push(`clients: duplicate clientId ${c.clientId}`)
    ids.add(c.clientId)
    for (const iban of c.aispAccounts) {
      if (!ibans.has(iban)) problems.push(`clients.${c.clientId}.aispAccounts: unknown account ${iban}`)
    }
  }
  const orderIds = new Set<string>()
  for (const o of f.standingOrders) {
    if (o.orderId === "") problems.push("standingOrders: empty orderId")
    if (orderIds.has(o.orderId)) problems.push(`standingOrders: duplicate orderId ${o.orderId}`)
    orderIds.add(o.orderId)
    if (!ibans.has(o.debtor.iban)) problems.push(`standingOrders.${o.orderId}.debtor.iban: unknown account`)
    const sendable = encodeOrder(o)
    if (Result.isFailure(sendable)) {
      const top = SchemaProblem.first(sendable.failure)
      problems.push(`standingOrders.${o.orderId}.${top.path ?? ""}: ${top.message}`)
    }
    for (const field of CoreStandingOrder.overlongFields(o)) {
      problems.push(`standingOrders.${o.orderId}.${field}: longer than the document allows`)
    }
  }
  return problems.length === 0 ? Result.succeed({ ...f, _tag: "Loaded" }) : Result.fail(problems)
}

/** Decodes a fixture set from JSON text (see {@link decode}). */
export const decodeJson = (text: string): Result.Result<Loaded, Array<string>> => {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (e) {
    return Result.fail([`not JSON: ${e instanceof Error ? e.message : String(e)}`])
  }
  return decode(json)
}
