#!/usr/bin/env bash
# Every check of the project: type-check, lint/format, dependency rules, then all tests.
# The last line is "N passed, M failed": vitest's test counts, plus one per failed check.
# Redirected (a log file, CI), it prints the steps, the failures and the summary without colour codes; on a
# terminal, vitest's usual report. Tests log only when they fail. Every temporary file of the run goes into one
# folder under $TMPDIR that is removed at the end, so a run leaves nothing behind there.
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p test-results
run_tmp=$(mktemp -d "${TMPDIR:-/tmp}/tppkit-test-XXXXXX")
# Passable (not readable) by other users: run as root, the embedded PostgreSQL of the tests runs as its own OS user
# and must reach its data directory inside this folder.
chmod 711 "$run_tmp"
trap 'rm -rf "$run_tmp"' EXIT
export TMPDIR="$run_tmp"
reporter=default
if [ ! -t 1 ]; then
  reporter=minimal
  export NO_COLOR=1
  unset FORCE_COLOR
fi
failed_checks=0
# A check's own output is shown only when it fails.
step() {
  local name=$1 out; shift
  echo "── $name" >&2
  if ! out=$("$@" 2>&1); then
    printf '%s\n' "$out" >&2
    echo "✗ $name failed" >&2
    failed_checks=$((failed_checks + 1))
  fi
}
step "type-check (tsc -b)" pnpm -s exec tsc -b
step "lint and format (biome)" pnpm -s exec biome check --error-on-warnings .
step "dependency rules (dependency-cruiser)" pnpm -s deps:check
rm -f test-results/vitest.json
echo "── tests (vitest)" >&2
pnpm -s exec vitest run --silent=passed-only --reporter="$reporter" --reporter=json \
  --outputFile.json=test-results/vitest.json
vitest_rc=$?
summary=$(pnpm -s exec node -e '
  const fs = require("node:fs")
  let passed = 0, failed = 1
  try {
    const r = JSON.parse(fs.readFileSync("test-results/vitest.json", "utf8"))
    // A failed test counts once; a file that failed with no failed test (import error, hook timeout) counts once too.
    const fileOnly = (r.testResults ?? []).filter(
      (f) => f.status === "failed" && !(f.assertionResults ?? []).some((t) => t.status === "failed")
    ).length
    passed = r.numPassedTests; failed = r.numFailedTests + fileOnly
  } catch {}
  process.stdout.write(`${passed} ${failed}`)
')
read -r passed failed <<<"$summary"
if [ "$vitest_rc" -ne 0 ] && [ "$failed" -eq 0 ]; then failed=1; fi
failed=$((failed + failed_checks))
echo "${passed} passed, ${failed} failed"
[ "$failed" -eq 0 ]
