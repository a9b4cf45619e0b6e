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

/** A batch that writes nothing: the command lets other work (a signal, a timer) run before it goes on. */
const PAUSE = new Uint8Array(0)

const NEWLINE = 10
const encoder = new TextEncoder()

const concat = (a: Uint8Array, b: Uint8Array): Uint8Array => {
  const out = new Uint8Array(a.length + b.length)
  out.set(a, 0)
  out.set(b, a.length)
  return out
}

/**
 * The batches {@link writeAll} writes: text gathered to about 64 KiB, bytes as they come, each batch ending at the end
 * of a line (the part of a line not yet ended waits for the rest of it), so that output cut short (an interrupted
 * command) ends with a whole line; an empty piece becomes {@link PAUSE}. The last batch is what is left.
 */
export function* lineBatches(pieces: Iterable<string | Uint8Array>): Generator<string | Uint8Array> {
  const decoder = new TextDecoder("utf-8", { ignoreBOM: true })
  // what waits for the end of its line: text, or bytes (never both)
  let text = ""
  // where the text's last line ends (the index after its last newline), 0 when none does: found in each piece as it
  // is added, never by searching the gathered text again (a long line of many pieces, such as a chart, made that
  // search, and the flattening of the text it forces, quadratic)
  let cut = 0
  let bytes: Uint8Array = PAUSE
  for (const piece of pieces) {
    if (piece.length === 0) {
      // a pause: the whole lines gathered so far are written first (the renderer is about to compute a while)
      if (cut > 0) {
        const batch = text.slice(0, cut)
        text = text.slice(cut)
        cut = 0
        yield batch
      }
      yield PAUSE
      continue
    }
    if (typeof piece === "string") {
      // bytes left waiting are the end of a line not yet ended: no newline in them
      if (bytes.length > 0) text = decoder.decode(bytes)
      bytes = PAUSE
      const last = piece.lastIndexOf("\n")
      if (last !== -1) cut = text.length + last + 1
      text += piece
      if (text.length >= 65_536 && cut > 0) {
        const batch = text.slice(0, cut)
        text = text.slice(cut)
        cut = 0
        yield batch
      }
      continue
    }
    // bytes: what waits goes before the piece's first line; the rest of the piece up to its last line end follows
    const waiting = text.length > 0 ? encoder.encode(text) : bytes
    text = ""
    cut = 0
    const first = piece.indexOf(NEWLINE)
    if (first === -1) {
      bytes = concat(waiting, piece)
      continue
    }
    const last = piece.lastIndexOf(NEWLINE)
    // copied before a batch is handed on: the piece's buffer may be reused once the next piece is asked for
    const rest = piece.slice(last + 1)
    yield waiting.length > 0 ? concat(waiting, piece.subarray(0, first + 1)) : piece.subarray(0, first + 1)
    if (last > first) yield piece.subarray(first + 1, last + 1)
    bytes = rest
    // a writer's chunk is large (schedule's Export: about a megabyte): a signal is seen after each
    yield PAUSE
  }
  if (bytes.length > 0) yield bytes
  else if (text.length > 0) yield text
}

/**
 * Writes pieces of text (gathered into batches of about 64 KiB) and of UTF-8 bytes to stdout in order, each batch
 * ending at the end of a line ({@link lineBatches}), consuming the pieces only as fast as stdout drains;
 * `beforeBatch` runs when a batch is ready, before it is written (e.g. to update or erase a progress line). An empty
 * piece writes nothing but lets other work run (a renderer that computes long before its next line yields one now
 * and then), so that SIGINT or SIGTERM interrupts the command promptly and the output ends with a whole line. A
 * closed stdout stops the writing quietly (the rest of the pieces are never made); any other failed write fails
 * with `cannot write output: …`.
 */
export const writeAll = (
  pieces: Iterable<string | Uint8Array>,
  beforeBatch: Effect.Effect<void, never, Stdio.Stdio> = Effect.void
): Effect.Effect<void, Failure.CliFailure, Stdio.Stdio> =>
  Effect.gen(function* () {
    const stdio = yield* Stdio.Stdio
    yield* Stream.run(
      Stream.fromIterable(lineBatches(pieces), { chunkSize: 1 }).pipe(
        Stream.tap((batch) => (batch === PAUSE ? Effect.yieldNow : beforeBatch)),
        Stream.filter((batch) => batch !== PAUSE)
      ),
      stdio.stdout()
    )
  }).pipe(Effect.catch(whenWriteFails))

/**
 * A text already made as the pieces {@link writeAll} writes: about 64 KiB each, cut at line ends, an empty piece
 * after each, so that SIGINT or SIGTERM during a long write ends the command promptly on a whole line.
 */
export function* textPieces(text: string): Generator<string> {
  let at = 0
  while (text.length - at > 65_536) {
    const end = text.lastIndexOf("\n", at + 65_535)
    // a line longer than a piece: up to its end
    const cut = end >= at ? end + 1 : text.indexOf("\n", at + 65_536) + 1
    if (cut <= 0) break
    yield text.slice(at, cut)
    yield ""
    at = cut
  }
  if (at < text.length) yield text.slice(at)
}

/**
 * Writes a text made in one go as {@link textPieces} (a newline is appended), after a pause that lets SIGINT or SIGTERM
 * received while it was made end the command with nothing written.
 */
export const lines = (text: string): Effect.Effect<void, Failure.CliFailure, Stdio.Stdio> =>
  Effect.andThen(Effect.yieldNow, writeAll(textPieces(`${text}\n`)))

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
