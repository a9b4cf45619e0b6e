/** The engine of `Orders.repeated`, `keys` and `pick`: orderIds that several records give, and the names of each. */
import type { Repeated } from "./orderTypes.ts"

/** `Orders.repeated`. */
export const repeated = (
  orders: Iterable<{ readonly orderId: string; readonly position?: number | undefined }>
): Array<Repeated> => {
  const seen = new Map<string, Array<number | undefined>>()
  let any = false
  for (const o of orders) {
    const positions = seen.get(o.orderId)
    if (positions === undefined) seen.set(o.orderId, [o.position])
    else if (o.position === undefined || !positions.includes(o.position)) {
      positions.push(o.position)
      any = true
    }
  }
  const out: Array<Repeated> = []
  if (!any) return out
  for (const [orderId, positions] of seen) {
    if (positions.length > 1) out.push({ orderId, positions: positions.map((p) => p ?? 0) })
  }
  return out
}

/**
 * `Orders.keys`: each repeated orderId's records numbered on their own from 1, as `pick` counts them — an order
 * whose position an earlier order of its orderId has is that record again, one without a position a record of its own.
 */
export const keys = <A extends { readonly orderId: string; readonly position?: number | undefined }>(
  orders: ReadonlyArray<A>
): Array<string> => {
  const repeats = repeated(orders)
  if (repeats.length === 0) return orders.map((o) => o.orderId)
  const numbered = new Map<string, Array<number | undefined>>()
  for (const r of repeats) numbered.set(r.orderId, [])
  return orders.map((o) => {
    const seen = numbered.get(o.orderId)
    if (seen === undefined) return o.orderId
    const again = o.position === undefined ? -1 : seen.indexOf(o.position)
    if (again >= 0) return `${o.orderId}#${again + 1}`
    seen.push(o.position)
    return `${o.orderId}#${seen.length}`
  })
}

/** `Orders.pick`. */
export const pick = <A extends { readonly orderId: string; readonly position?: number | undefined }>(
  orders: ReadonlyArray<A>,
  name: string
):
  | { readonly _tag: "Found"; readonly order: A }
  | { readonly _tag: "Ambiguous"; readonly positions: ReadonlyArray<number> }
  | { readonly _tag: "None" } => {
  const records = (id: string): Array<A> => {
    const out: Array<A> = []
    for (const o of orders) {
      if (o.orderId !== id) continue
      if (o.position !== undefined && out.some((x) => x.position === o.position)) continue
      out.push(o)
    }
    return out
  }
  const exact = records(name)
  if (exact.length === 1) return { _tag: "Found", order: exact[0]! }
  if (exact.length > 1) return { _tag: "Ambiguous", positions: exact.map((o) => o.position ?? 0) }
  const hash = name.lastIndexOf("#")
  const n = hash < 0 ? Number.NaN : Number(name.slice(hash + 1))
  if (Number.isSafeInteger(n) && n >= 1 && String(n) === name.slice(hash + 1)) {
    const numbered = records(name.slice(0, hash))
    if (numbered.length >= n) return { _tag: "Found", order: numbered[n - 1]! }
  }
  return { _tag: "None" }
}
