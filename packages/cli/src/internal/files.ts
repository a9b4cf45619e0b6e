/**
 * Reading the text files the commands are given (orders, fixtures, TLS material), each failure one line that names
 * the file and says why in a few words.
 */
import { createReadStream } from "node:fs"
import { Effect, FileSystem, Option, Path, type PlatformError, Stream } from "effect"

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
 * Checks, without writing anything, that a file can be written: an existing file must be writable (and no folder),
 * a new one needs a writable folder to go into; otherwise `fail("cannot write <what> "<file>": <reason>")`.
 * Commands that write at the end of a long run call it first.
 */
export const checkWritable = <E>(what: string, file: string, fail: (message: string) => E) =>
  Effect.gen(function* () {
    const fs = yield* FileSystem.FileSystem
    const path = yield* Path.Path
    const refuse = (reason: string) => Effect.fail(fail(`cannot write ${what} ${JSON.stringify(file)}: ${reason}`))
    const info = yield* Effect.option(fs.stat(file))
    if (Option.isSome(info)) {
      if (info.value.type === "Directory") return yield* refuse("it is a folder")
      return yield* fs.access(file, { writable: true }).pipe(Effect.catch(() => refuse("permission denied")))
    }
    const folder = path.dirname(path.resolve(file))
    const parent = yield* Effect.option(fs.stat(folder))
    if (Option.isNone(parent)) return yield* refuse(`no folder ${JSON.stringify(folder)}`)
    if (parent.value.type !== "Directory") return yield* refuse(`${JSON.stringify(folder)} is no folder`)
    return yield* fs
      .access(folder, { writable: true })
      .pipe(Effect.catch(() => refuse(`the folder ${JSON.stringify(folder)} is not writable`)))
  })
/** A few words on why a file could not be opened or read, from the system's error code. */
const reasonOfCode = (e: unknown): string => {
  const code = typeof e === "object" && e !== null ? (e as { code?: unknown }).code : undefined
  switch (code) {
    case "ENOENT":
      return "no such file"
    case "EACCES":
    case "EPERM":
      return "permission denied"
    case "EISDIR":
      return "it is a directory, not a file"
    case "ELOOP":
      return "too many levels of symbolic links (a symbolic link that points back to itself?)"
    case "ENOTDIR":
      return "a part of the path is not a directory"
    case "ENAMETOOLONG":
      return "the name is too long"
    default: {
      const message = e instanceof Error ? e.message : String(e)
      return typeof code === "string" ? `${code}: ${message}` : message
    }
  }
}

/**
 * A file's bytes as a stream of pieces (1 MiB at most each), read in order from its start, so that a named pipe,
 * a process substitution (`<(cat f)`) or a device reads as well as a regular file; a failure to open or read
 * becomes `fail("cannot read <what> "<file>": <reason>")` in the user's words (no such file, a directory, a
 * symbolic link loop, permission denied).
 */
export const streamBytes = <E>(
  what: string,
  file: string,
  fail: (message: string) => E
): Stream.Stream<Uint8Array, E> =>
  Stream.fromAsyncIterable(
    { [Symbol.asyncIterator]: () => createReadStream(file, { highWaterMark: 1 << 20 })[Symbol.asyncIterator]() },
    (e) => fail(`cannot read ${what} ${JSON.stringify(file)}: ${reasonOfCode(e)}`)
  ) as Stream.Stream<Uint8Array, E>
