/**
 * Where the `tppkit` command writes: results to stdout, diagnostics and progress to stderr (a live progress line
 * only when stderr is a terminal, so that pipes and logs stay clean), and the colour styles of each stream.
 *
 * @since 0.1.0
 */
import { Text } from "@tppkit/core"
import { Clock, Effect, Stdio, Stream } from "effect"
import * as Failure from "./Failure.ts"
import { writeProblem } from "./internal/stdout.ts"
import * as Style from "./Style.ts"

/**
 * A failed write to stdout: a closed stdout (a reader such as `head` that has seen enough) is not an error of
 * the command and the rest of the output is dropped silently; any other failure (a full disk) fails the command
 * with `cannot write output: <why>` (exit code 1).
 */
const whenWriteFails = (error: unknown): Effect.Effect<void, Failure.CliFailure> => {
  const problem = writeProblem(error)
  return problem === undefined ? Effect.void : Effect.fail(Failure.failure(problem, error))
}

/**
 * Writes text to stdout as is (add the final newline yourself). A closed stdout (a reader such as `head` that
 * has seen enough) is not an error of the command: the rest of the output is dropped silently; any other
 * failed write (a full disk) fails with `cannot write output: …`.
 */
export const write = (text: string): Effect.Effect<void, Failure.CliFailure, Stdio.Stdio> =>
  Effect.gen(function* () {
    const stdio = yield* Stdio.Stdio
    yield* Stream.run(Stream.succeed(text), stdio.stdout())
  }).pipe(Effect.catch(whenWriteFails))

/**
 * Writes pieces of text (gathered into batches of about 64 KiB) and of UTF-8 bytes (each written as it is) to
 * stdout in order, consuming the pieces only as fast as stdout drains; `beforeBatch` runs when a batch is ready,
 * before it is written (e.g. to update or erase a progress line). A closed stdout stops the writing quietly (the
 * rest of the pieces are never made); any other failed write fails with `cannot write output: …`.
 */
export const writeAll = (
  pieces: Iterable<string | Uint8Array>,
  beforeBatch: Effect.Effect<void, never, Stdio.Stdio> = Effect.void
): Effect.Effect<void, Failure.CliFailure, Stdio.Stdio> =>
  Effect.gen(function* () {
    const stdio = yield* Stdio.Stdio
    const batches = function* (): Generator<string | Uint8Array> {
      let buffer = ""
      for (const piece of pieces) {
        if (typeof piece !== "string") {
          if (buffer.length > 0) yield buffer
          buffer = ""
          if (piece.length > 0) yield piece
          continue
        }
        buffer += piece
        if (buffer.length >= 65_536) {
          yield buffer
          buffer = ""
        }
      }
      if (buffer.length > 0) yield buffer
    }
    yield* Stream.run(
      Stream.fromIterable(batches(), { chunkSize: 1 }).pipe(Stream.tap(() => beforeBatch)),
      stdio.stdout()
    )
  }).pipe(Effect.catch(whenWriteFails))

/** Writes one line (a newline is appended) to stdout (see {@link write} for a failed write). */
export const line = (text: string): Effect.Effect<void, Failure.CliFailure, Stdio.Stdio> => write(`${text}\n`)

/**
 * Text from a bank or a file (a creditor's name, an orderId, a reason quoting them) made safe to show on a
 * terminal: every control character and escape sequence is shown escaped (`ESC ]0;x BEL` as `\x1b]0;x\x07`, a
 * bidirectional override as `\u{202e}`, a newline as `\x0a`), so that it can neither rename the window nor erase a
 * row, and a message quoting it stays one line; printable text is returned as it is. Every error line and table
 * uses it (core's `Text.printable`, which every output format uses too).
 */
export const printable: (text: string) => string = Text.printable

/** Writes one line (a newline is appended) to stderr. */
export const errorLine = (text: string): Effect.Effect<void, never, Stdio.Stdio> =>
  Effect.gen(function* () {
    const stdio = yield* Stdio.Stdio
    yield* Stream.run(Stream.succeed(`${text}\n`), stdio.stderr())
  }).pipe(Effect.ignore)

/** ANSI "carriage return, then erase to the end of the line": a live line is rewritten in place. */
const REWRITE = "\r\u001b[K"

/**
 * A live progress line on stderr, rewritten in place, when stderr is a terminal (nothing otherwise): `update`
 * shows a new text (at most every 100 ms unless `force`), `done` erases the line so that the next output starts
 * clean.
 */
export interface ProgressLine {
  readonly update: (text: string, force?: boolean) => Effect.Effect<void, never, Stdio.Stdio>
  readonly done: Effect.Effect<void, never, Stdio.Stdio>
}

/** Starts a live progress line (see {@link ProgressLine}). */
export const progressLine: Effect.Effect<ProgressLine, never, Stdio.Stdio> = Effect.gen(function* () {
  const stdio = yield* Stdio.Stdio
  const live = yield* stdio.stderrIsTerminal
  let last = Number.NEGATIVE_INFINITY
  let shown = false
  const raw = (text: string) => Stream.run(Stream.succeed(text), stdio.stderr()).pipe(Effect.ignore)
  return {
    update: (text, force = false) =>
      Effect.gen(function* () {
        if (!live) return
        const now = yield* Clock.currentTimeMillis
        if (!force && now - last < 100) return
        last = now
        shown = true
        yield* raw(`${REWRITE}${text}`)
      }),
    done: Effect.suspend(() => {
      if (!live || !shown) return Effect.void
      shown = false
      return raw(REWRITE)
    })
  }
})

/** The styles for stdout: colour only in a terminal, honouring `NO_COLOR` and `FORCE_COLOR` (see `Style`). */
export const stdoutStyle: Effect.Effect<Style.Style, never, Stdio.Stdio> = Effect.gen(function* () {
  const stdio = yield* Stdio.Stdio
  return Style.of(process.env, yield* stdio.stdoutIsTerminal)
})

/** The styles for stderr: colour only in a terminal, honouring `NO_COLOR` and `FORCE_COLOR` (see `Style`). */
export const stderrStyle: Effect.Effect<Style.Style, never, Stdio.Stdio> = Effect.gen(function* () {
  const stdio = yield* Stdio.Stdio
  return Style.of(process.env, yield* stdio.stderrIsTerminal)
})

/** What the command says on stderr when it reads a terminal's input, so that a waiting command is no mystery. */
export const stdinNotice = "tppkit: reading standard input (type or paste, then Ctrl+D; Ctrl+C cancels)"

/**
 * Stdin as a stream of UTF-8 text pieces, as they arrive. When stdin is a terminal (nothing piped), the
 * command first says on stderr that it is reading it (`stdinNotice`).
 */
export const stdinText: Stream.Stream<string, string, Stdio.Stdio> = Stream.unwrap(
  Effect.gen(function* () {
    const stdio = yield* Stdio.Stdio
    if (yield* stdio.stdinIsTerminal) yield* errorLine(stdinNotice)
    return stdio.stdin.pipe(Stream.decodeText())
  })
).pipe(Stream.mapError((e) => `cannot read standard input: ${e.message}`))

/**
 * Stdin as a stream of byte pieces, as they arrive (for readers that check UTF-8 themselves). When stdin is a
 * terminal (nothing piped), the command first says on stderr that it is reading it (`stdinNotice`).
 */
export const stdinBytes: Stream.Stream<Uint8Array, string, Stdio.Stdio> = Stream.unwrap(
  Effect.gen(function* () {
    const stdio = yield* Stdio.Stdio
    if (yield* stdio.stdinIsTerminal) yield* errorLine(stdinNotice)
    return stdio.stdin
  })
).pipe(Stream.mapError((e) => `cannot read standard input: ${e.message}`))

/** Reads all of stdin as UTF-8 text. */
export const readStdin: Effect.Effect<string, string, Stdio.Stdio> = Effect.gen(function* () {
  const stdio = yield* Stdio.Stdio
  return yield* stdio.stdin.pipe(Stream.decodeText(), Stream.mkString)
}).pipe(Effect.mapError((e) => `cannot read standard input: ${e.message}`))
