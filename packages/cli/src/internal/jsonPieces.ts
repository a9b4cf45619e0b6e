/**
 * A JSON document written in pieces, byte for byte what `JSON.stringify(value, null, 2)` writes, so that a long
 * document is neither held as one string nor made in one go: a {@link Lazy} list is written as an array whose items
 * are made as they are read, and an empty piece now and then lets other work run (SIGINT, SIGTERM: `Output.writeAll`
 * yields on it).
 */

/** A list made as it is written: written as a JSON array. */
export class Lazy {
  readonly items: () => Iterable<unknown>
  constructor(items: () => Iterable<unknown>) {
    this.items = items
  }
}

/** A list made as it is written (see {@link Lazy}). */
export const lazy = <A, B>(items: Iterable<A>, f: (a: A) => B): Lazy =>
  new Lazy(function* () {
    for (const item of items) yield f(item)
  })

/** After how many items of a list an empty piece lets other work run. */
const PAUSE_EVERY = 500

const STEP = "  "

const isPlain = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Lazy)

/**
 * Whether a value holds no list made as it is written near its top, so that `JSON.stringify` writes it whole: `true`
 * when it holds none at all, `"deep"` when it was not looked at below three levels (a lazy list there is written whole,
 * made at once), `false` when it holds one near the top.
 */
const isFixed = (v: unknown, depth = 0): boolean | "deep" => {
  if (v instanceof Lazy) return false
  if (typeof v !== "object" || v === null) return true
  // deep documents are written whole once no lazy list is near the top
  if (depth > 2) return "deep"
  let fixed: boolean | "deep" = true
  const values: Iterable<unknown> = Array.isArray(v) ? v : Object.values(v)
  for (const x of values) {
    const f = isFixed(x, depth + 1)
    if (f === false) return false
    if (f === "deep") fixed = "deep"
  }
  return fixed
}

/** A lazy list, wherever `JSON.stringify` meets it, is the array of its items. */
const listsMade = (_key: string, v: unknown): unknown => (v instanceof Lazy ? Array.from(v.items()) : v)

/**
 * A value as `JSON.stringify(value, null, 2)` writes it at `indent`; `deep` when a lazy list may sit below the levels
 * looked at.
 */
const whole = (v: unknown, indent: string, deep = false): string => {
  const text = (deep ? JSON.stringify(v, listsMade, 2) : JSON.stringify(v, null, 2)) ?? "null"
  return indent.length === 0 ? text : text.replaceAll("\n", `\n${indent}`)
}

function* value(v: unknown, indent: string): Generator<string> {
  const fixed = isFixed(v)
  if (fixed !== false) {
    yield whole(v, indent, fixed === "deep")
    return
  }
  const inner = indent + STEP
  if (v instanceof Lazy || Array.isArray(v)) {
    let n = 0
    for (const item of v instanceof Lazy ? v.items() : v) {
      yield n === 0 ? `[\n${inner}` : `,\n${inner}`
      // an item JSON.stringify leaves out of an object is null in an array
      yield* value(item === undefined || typeof item === "function" ? null : item, inner)
      if (++n % PAUSE_EVERY === 0) yield ""
    }
    yield n === 0 ? "[]" : `\n${indent}]`
    return
  }
  const o = v as Record<string, unknown>
  let n = 0
  for (const key of Object.keys(o)) {
    const x = o[key]
    if (x === undefined || typeof x === "function") continue
    yield `${n++ === 0 ? "{\n" : ",\n"}${inner}${JSON.stringify(key)}: `
    yield* isPlain(x) || Array.isArray(x) || x instanceof Lazy ? value(x, inner) : [whole(x, inner)]
  }
  yield n === 0 ? "{}" : `\n${indent}}`
}

/**
 * The document as pieces, ending with a newline; joined, `JSON.stringify(value, null, 2)` with each lazy list as the
 * array of its items, and `\n`.
 */
export function* pieces(document: unknown): Generator<string> {
  yield* value(document, "")
  yield "\n"
}
