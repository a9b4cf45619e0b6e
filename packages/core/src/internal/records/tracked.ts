/**
 * A whole record read through a view that notes each field its reader takes (a `Proxy` over its objects), so that the
 * fields never taken are said (issue 34: a memo or a flag is not read, and a warning names it).
 */
import { isObject } from "./read.ts"

/** A record's view, and the fields of the record its reader never took. */
export interface Tracked {
  /** The record as the reader reads it. */
  readonly value: unknown
  /**
   * The fields given (not `null`, an empty text, list or object) that were never taken, as dotted paths with their values, in the record's order; a
   * field taken whose value is an object is looked into, an array taken counts as read. `also` names fields taken for
   * what an order does not keep (its own text): said as not read too.
   */
  readonly unread: (also: ReadonlyArray<string>) => Array<readonly [string, unknown]>
}

/** A view of `record` noting what is read of it. */
export const make = (record: unknown): Tracked => {
  const taken = new WeakMap<object, Set<string>>()
  const views = new WeakMap<object, object>()
  const view = (u: unknown): unknown => {
    if (!isObject(u)) return u
    let v = views.get(u)
    if (v === undefined) {
      const keys = new Set<string>()
      taken.set(u, keys)
      v = new Proxy(u, {
        get: (target, key, receiver) => {
          if (typeof key === "string") keys.add(key)
          return view(Reflect.get(target, key, receiver))
        }
      })
      views.set(u, v)
    }
    return v
  }
  return {
    value: view(record),
    unread: (also) => {
      const out: Array<readonly [string, unknown]> = []
      const walk = (o: Record<string, unknown>, prefix: string) => {
        const keys = taken.get(o)
        for (const k of Object.keys(o)) {
          const value = o[k]
          // a field without a value says nothing: null, an empty text, list or object
          if (value === null || value === undefined || value === "") continue
          if (Array.isArray(value) ? value.length === 0 : isObject(value) && Object.keys(value).length === 0) continue
          const path = `${prefix}${k}`
          if (keys?.has(k) !== true || also.includes(path)) out.push([path, value])
          else if (isObject(value)) walk(value, `${path}.`)
        }
      }
      if (isObject(record)) walk(record, "")
      return out
    }
  }
}
