// Benchmarks of tppkit: `pnpm bench`. Each suite lives in bench/<name>.ts and is listed here.
const suites: ReadonlyArray<string> = [
  "engine",
  "baseline",
  "recurrence",
  "http",
  "hostile",
  "projection",
  "reconciliation",
  "forecast",
  "mixedRead",
  "sourceCheck",
  "million",
  "cliJson",
  "sandbox",
  "sandboxFlood",
  "json",
  "worker",
  "warningsPure",
  "warnings",
  "startup"
]
for (const suite of suites) {
  await import(`./${suite}.ts`)
}
