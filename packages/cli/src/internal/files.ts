/**
 * Reading the text files the commands are given (orders, fixtures, TLS material), each failure one line that names
 * the file and says why in a few words.
 */
import { Effect, FileSystem, type PlatformError, Stream } from "effect"

/** A few words on why a file could not be read: "no such file", "permission denied" or the system's message. */
const reasonOf = (e: PlatformError.PlatformError): string =>
  e.reason._tag === "NotFound"
    ? "no such file"
    : e.reason._tag === "PermissionDenied"
      ? "permission denied"
      : e.reason.message

/** Reads a text file; a failure becomes `fail("cannot read <what> "<file>": <reason>")`. */
export const readText = <E>(what: string, file: string, fail: (message: string) => E) =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    return yield* fs
      .readFileString(file)
      .pipe(Effect.mapError((e) => fail(`cannot read ${what} ${JSON.stringify(file)}: ${reasonOf(e)}`)))
  })

/**
 * A text file as a stream of UTF-8 text pieces (1 MiB of bytes each, a character split between two reads kept
 * whole); a failure to open or read becomes `fail("cannot read <what> "<file>": <reason>")`.
 */
export const streamText = <E>(what: string, file: string, fail: (message: string) => E) =>
  Stream.unwrap(
    Effect.gen(function* () {
      const fs = yield* FileSystem.FileSystem
      return fs.stream(file, { chunkSize: 1 << 20 })
    })
  ).pipe(
    Stream.decodeText(),
    Stream.mapError((e) => fail(`cannot read ${what} ${JSON.stringify(file)}: ${reasonOf(e)}`))
  )
