/**
 * Where the `tppkit` command writes: results to stdout, diagnostics and progress to stderr (progress only when
 * stderr is a terminal, so that pipes and logs stay clean).
 *
 * @since 0.1.0
 */
import { Effect, Stdio, Stream } from "effect"

/**
 * Writes text to stdout as is (add the final newline yourself). A closed stdout (a reader such as `head` that
 * has seen enough) is not an error of the command: the rest of the output is dropped silently.
 */
export const write = (text: string): Effect.Effect<void, never, Stdio.Stdio> =>
  Effect.gen(function* () {
    const stdio = yield* Stdio.Stdio
    yield* Stream.run(Stream.succeed(text), stdio.stdout())
  }).pipe(Effect.ignore)

/** Writes text pieces to stdout in batches of about 64 KiB, consuming the pieces only as fast as stdout drains. */
export const writeAll = (pieces: Iterable<string>): Effect.Effect<void, never, Stdio.Stdio> =>
  Effect.gen(function* () {
    const stdio = yield* Stdio.Stdio
    const batches = function* () {
      let buffer = ""
      for (const piece of pieces) {
        buffer += piece
        if (buffer.length >= 65_536) {
          yield buffer
          buffer = ""
        }
      }
      if (buffer.length > 0) yield buffer
    }
    yield* Stream.run(Stream.fromIterable(batches(), { chunkSize: 1 }), stdio.stdout())
  }).pipe(Effect.ignore)

/** Writes one line (a newline is appended) to stdout. */
export const line = (text: string): Effect.Effect<void, never, Stdio.Stdio> => write(`${text}\n`)

/** Writes one line (a newline is appended) to stderr. */
export const errorLine = (text: string): Effect.Effect<void, never, Stdio.Stdio> =>
  Effect.gen(function* () {
    const stdio = yield* Stdio.Stdio
    yield* Stream.run(Stream.succeed(`${text}\n`), stdio.stderr())
  }).pipe(Effect.ignore)

/** Writes a progress note to stderr when stderr is a terminal; does nothing otherwise. */
export const progress = (text: string): Effect.Effect<void, never, Stdio.Stdio> =>
  Effect.gen(function* () {
    const stdio = yield* Stdio.Stdio
    if (yield* stdio.stderrIsTerminal) yield* errorLine(text)
  })

/** Reads all of stdin as UTF-8 text. */
export const readStdin: Effect.Effect<string, string, Stdio.Stdio> = Effect.gen(function* () {
  const stdio = yield* Stdio.Stdio
  return yield* stdio.stdin.pipe(Stream.decodeText(), Stream.mkString)
}).pipe(Effect.mapError((e) => `cannot read standard input: ${e.message}`))
