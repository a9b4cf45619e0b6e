/**
 * A checker of Prometheus text exposition format (version 0.0.4) with the lint rules `promtool check metrics`
 * applies, for tests on a machine without promtool: every family has one HELP and one TYPE before its samples and
 * its samples together; names and label names are valid; counters end in `_total` and nothing else ends in a
 * histogram's suffixes; durations are in seconds; each histogram series has cumulative buckets ending in `+Inf`
 * equal to its `_count`, and a `_sum`; no series twice; values are numbers. Returns the problems found (none: valid).
 */
const metricName = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/
const labelName = /^[a-zA-Z_][a-zA-Z0-9_]*$/
const types = new Set(["counter", "gauge", "histogram", "summary", "untyped"])

interface Family {
  help: number
  type: string | undefined
  samples: number
  closed: boolean
}

const parseValue = (text: string): number | undefined => {
  if (text === "NaN") return Number.NaN
  if (text === "+Inf") return Number.POSITIVE_INFINITY
  if (text === "-Inf") return Number.NEGATIVE_INFINITY
  return /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text) ? Number(text) : undefined
}

/** `{a="x",b="y"}` into pairs, or a problem. */
const parseLabels = (text: string): Array<[string, string]> | string => {
  const pairs: Array<[string, string]> = []
  let i = 0
  while (i < text.length) {
    const eq = text.indexOf("=", i)
    if (eq < 0) return `label without value in {${text}}`
    const name = text.slice(i, eq)
    if (!labelName.test(name) || name.startsWith("__")) return `invalid label name ${JSON.stringify(name)}`
    if (text[eq + 1] !== '"') return `label ${name} not quoted`
    let value = ""
    let j = eq + 2
    for (; j < text.length && text[j] !== '"'; j++) {
      if (text[j] === "\\") {
        const next = text[++j]
        if (next !== "\\" && next !== '"' && next !== "n") return `bad escape in label ${name}`
        value += next === "n" ? "\n" : next
      } else value += text[j]
    }
    if (j >= text.length) return `unterminated label ${name}`
    pairs.push([name, value])
    i = j + 1
    if (i < text.length) {
      if (text[i] !== ",") return `expected , after label ${name}`
      i++
    }
  }
  return pairs
}

/** The problems of a Prometheus text (empty: valid, no lint warnings). */
export const check = (text: string): Array<string> => {
  const problems: Array<string> = []
  if (text.length > 0 && !text.endsWith("\n")) problems.push("no trailing newline")
  const families = new Map<string, Family>()
  const series = new Set<string>()
  const histograms = new Map<string, { buckets: Array<[number, number]>; sum?: number; count?: number }>()
  let current: string | undefined
  const family = (name: string): Family => {
    let f = families.get(name)
    if (f === undefined) {
      f = { help: 0, type: undefined, samples: 0, closed: false }
      families.set(name, f)
    }
    if (current !== name) {
      if (current !== undefined) {
        const previous = families.get(current)
        if (previous !== undefined) previous.closed = true
      }
      if (f.closed) problems.push(`${name}: family not contiguous`)
      current = name
    }
    return f
  }
  const lines = text.split("\n")
  if (lines[lines.length - 1] === "") lines.pop()
  for (const line of lines) {
    if (line.trim() === "") {
      problems.push("empty line")
      continue
    }
    const meta = /^# (HELP|TYPE) (\S+)(?: (.*))?$/.exec(line)
    if (meta !== null) {
      const [, kind, name = "", rest = ""] = meta
      if (!metricName.test(name)) problems.push(`invalid metric name ${name}`)
      const f = family(name)
      if (f.samples > 0) problems.push(`${name}: ${kind} after samples`)
      if (kind === "HELP") {
        f.help++
        if (rest.trim() === "") problems.push(`${name}: empty HELP`)
      } else {
        if (f.type !== undefined) problems.push(`${name}: second TYPE`)
        if (!types.has(rest)) problems.push(`${name}: unknown type ${rest}`)
        f.type = rest
      }
      continue
    }
    if (line.startsWith("#")) {
      problems.push(`stray comment: ${line}`)
      continue
    }
    const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)(?: (-?\d+))?$/.exec(line)
    if (sample === null) {
      problems.push(`unparsable sample: ${line}`)
      continue
    }
    const [, name = "", labelText = "", valueText = ""] = sample
    const suffix = /_(bucket|sum|count)$/.exec(name)
    const base =
      suffix !== null && families.get(name.slice(0, suffix.index))?.type === "histogram"
        ? name.slice(0, suffix.index)
        : name
    const f = families.get(base)
    if (f === undefined || f.type === undefined) {
      problems.push(`${name}: sample without TYPE`)
      continue
    }
    family(base).samples++
    const labels = parseLabels(labelText)
    if (typeof labels === "string") {
      problems.push(`${name}: ${labels}`)
      continue
    }
    const value = parseValue(valueText)
    if (value === undefined) problems.push(`${name}: value ${valueText} is not a number`)
    const key = `${name}{${[...labels].sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => `${k}=${JSON.stringify(v)}`)}}`
    if (series.has(key)) problems.push(`duplicate series ${key}`)
    series.add(key)
    if (f.type === "counter" && value !== undefined && value < 0) problems.push(`${name}: negative counter`)
    if (f.type === "histogram") {
      const own = labels.filter(([k]) => k !== "le")
      const id = `${base}{${own.map(([k, v]) => `${k}=${v}`).join(",")}}`
      const h = histograms.get(id) ?? { buckets: [] }
      histograms.set(id, h)
      if (suffix?.[1] === "bucket") {
        const le = labels.find(([k]) => k === "le")?.[1]
        const bound = le === undefined ? undefined : parseValue(le)
        if (bound === undefined) problems.push(`${name}: bucket without a numeric le`)
        else h.buckets.push([bound, value ?? 0])
      } else if (suffix?.[1] === "sum") h.sum = value ?? 0
      else if (suffix?.[1] === "count") h.count = value ?? 0
      else problems.push(`${name}: histogram sample without _bucket/_sum/_count`)
    }
  }
  for (const [name, f] of families) {
    if (f.help !== 1) problems.push(`${name}: ${f.help === 0 ? "no HELP" : "HELP twice"}`)
    if (f.type === undefined) problems.push(`${name}: no TYPE`)
    if (f.type === "untyped") problems.push(`${name}: untyped`)
    if (f.type === "counter" && !name.endsWith("_total")) problems.push(`${name}: counter without _total`)
    if (f.type !== "counter" && name.endsWith("_total")) problems.push(`${name}: _total on a ${f.type}`)
    if (f.type !== "histogram" && f.type !== "summary" && /_(bucket|sum|count)$/.test(name)) {
      problems.push(`${name}: reserved suffix on a ${f.type}`)
    }
    if (/(latency|duration|time)(_|$)/.test(name) && !/_seconds(_total)?$/.test(name)) {
      problems.push(`${name}: a duration not in seconds`)
    }
    if (/_(milliseconds|millis|ms|microseconds|minutes|hours)(_|$)/.test(name))
      problems.push(`${name}: not a base unit`)
  }
  for (const [id, h] of histograms) {
    const sorted = [...h.buckets].sort((a, b) => a[0] - b[0])
    if (sorted[sorted.length - 1]?.[0] !== Number.POSITIVE_INFINITY) problems.push(`${id}: no +Inf bucket`)
    for (let i = 1; i < sorted.length; i++) {
      if ((sorted[i]?.[1] ?? 0) < (sorted[i - 1]?.[1] ?? 0)) problems.push(`${id}: buckets not cumulative`)
    }
    if (h.count === undefined || h.sum === undefined) problems.push(`${id}: no _count or _sum`)
    else if (sorted[sorted.length - 1]?.[1] !== h.count) problems.push(`${id}: +Inf bucket differs from _count`)
  }
  return problems
}
