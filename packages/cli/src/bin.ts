#!/usr/bin/env node
/**
 * The `tppkit` executable: runs the command line with Node's services and exits with the command's code.
 * `--version` alone is answered before effect or any command is loaded, and so is a command's help in the
 * bundled build (from the table the build renders, `internal/quickHelp.ts`); everything else loads the command
 * line (and each subcommand loads its own implementation only when it runs).
 *
 * @since 0.1.0
 */
import * as QuickHelp from "./internal/quickHelp.ts"
import { VERSION } from "./Version.ts"

const args = process.argv.slice(2)
const version = args.length === 1 && (args[0] === "--version" || args[0] === "-v")
const help = version
  ? undefined
  : QuickHelp.lookup(args, new URL(QuickHelp.FILE, import.meta.url), process.env, process.stdout.isTTY === true)
if (version || help !== undefined) {
  const { watch } = await import("./internal/stdout.ts")
  const settle = watch()
  process.stdout.write(help ?? `tppkit v${VERSION}\n`)
  settle(0, (code) => process.exit(code))
} else {
  // a worker keeps its heap small from the start (internal/heap.ts); no other command needs it
  if (args[0] === "worker" && args[1] !== "status") {
    const Heap = await import("./internal/heap.ts")
    Heap.bound(Heap.fromEnv(process.env))
  }
  const { start } = await import("./internal/start.ts")
  start(args)
}
