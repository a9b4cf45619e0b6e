/**
 * Reading an orders file (or standard input) for the commands that take `--orders`: `tppkit project` and
 * `tppkit reconcile`.
 */
import { Effect, type FileSystem, type Stdio, Stream } from "effect"
import * as Failure from "../Failure.ts"
import * as Output from "../Output.ts"
import * as Project from "../Project.ts"
import * as Files from "./files.ts"

/**
 * The orders file (or stdin) decoded while it is read, piece by piece (`Project.ordersDecoder`): memory holds the
 * decoded orders, never the whole text or its parsed JSON; reading stops at the first piece that is not JSON.
 */
export const readOrders = (file: string) =>
  Effect.suspend(() => {
    const decoder = Project.ordersDecoder()
    const pieces: Stream.Stream<string, Failure.CliFailure, FileSystem.FileSystem | Stdio.Stdio> =
      file === "-"
        ? Output.stdinText.pipe(Stream.mapError(Failure.failure))
        : Files.streamText("orders file", file, Failure.failure)
    return Stream.runForEachWhile(pieces, (piece) => Effect.sync(() => decoder.push(piece))).pipe(
      Effect.map(() => decoder.end())
    )
  })
