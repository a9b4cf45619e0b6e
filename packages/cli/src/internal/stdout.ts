/**
 * What a failed write to stdout means for the command, in the user's words, without loading effect (the
 * executable's `--version` path uses it too). A reader that went away (`| head -n 3`: the pipe is closed) is
 * not a failure: the command ends quietly, as Unix tools do. Any other failure (a full disk, an I/O error) is
 * one: `cannot write output: no space left on device`, and the command exits non-zero.
 */

/** Error codes of a stdout whose reader has gone away: the rest of the output is dropped quietly. */
const closedReader: ReadonlySet<string> = new Set(["EPIPE", "ERR_STREAM_DESTROYED", "ERR_STREAM_WRITE_AFTER_END"])

const codeOf = (error: unknown): string | undefined => {
  for (let e = error, depth = 0; typeof e === "object" && e !== null && depth < 5; depth++) {
    const code = (e as { readonly code?: unknown }).code
    if (typeof code === "string") return code
    e = (e as { readonly cause?: unknown }).cause
  }
  return undefined
}

const messageOf = (error: unknown): string => {
  for (let e = error, depth = 0; typeof e === "object" && e !== null && depth < 5; depth++) {
    if (typeof (e as { readonly code?: unknown }).code === "string") {
      const message = String((e as { readonly message?: unknown }).message ?? "")
      // Node says "ENOSPC: no space left on device, write": the words between the code and the call
      return message.replace(/^[A-Z0-9_]+: /, "").replace(/, \w+$/, "") || "unknown error"
    }
    e = (e as { readonly cause?: unknown }).cause
  }
  return error instanceof Error ? error.message : String(error)
}

/**
 * The one line that explains a failed write to stdout (`cannot write output: no space left on device`), or
 * `undefined` when the reader has gone away (a closed pipe), which is no failure of the command.
 */
export const writeProblem = (error: unknown): string | undefined =>
  closedReader.has(codeOf(error) ?? "") ? undefined : `cannot write output: ${messageOf(error)}`

/**
 * Watches the process's stdout for the whole run: an `error` event never crashes the process (a closed pipe is
 * expected), and the first failure is remembered. `settle` waits until what was written has reached stdout (or
 * failed), then exits with `code`, or, when the command succeeded but its output could not be written, says so
 * on stderr and exits 1; a command that failed or was interrupted exits once its output reached stdout too (at
 * most 5 s later), so that a file or pipe ends with the last whole line written.
 */
export const watch = (): ((code: number, exit: (code: number) => void) => void) => {
  let problem: string | undefined
  process.stdout.on("error", (error) => {
    problem ??= writeProblem(error)
  })
  return (code, exit) => {
    if (code !== 0) {
      // what was handed to stdout is whole lines (an interrupted command too): it reaches the reader before the
      // exit, unless the reader takes none of it for 5 s (it may have stopped reading)
      if (process.stdout.writableLength === 0) return exit(code)
      let exited = false
      const once = () => {
        if (exited) return
        exited = true
        exit(code)
      }
      setTimeout(once, 5000)
      process.stdout.write("", once)
      return
    }
    process.stdout.write("", (error) => {
      if (error !== undefined && error !== null) problem ??= writeProblem(error)
      if (problem === undefined) return exit(0)
      process.stderr.write(`tppkit: ${problem}\n`, () => exit(1))
    })
  }
}
