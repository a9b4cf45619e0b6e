/**
 * Reading an orders file (or standard input) for the commands that take `--orders`: `tppkit project` and
 * `tppkit reconcile`.
 */
import { Effect, type Stdio, Stream } from "effect"
import * as Failure from "../Failure.ts"
import * as Output from "../Output.ts"
import * as Project from "../Project.ts"
import * as Files from "./files.ts"

/**
 * The orders file (or stdin) decoded while it is read, piece by piece (`Project.ordersDecoder`): memory holds the
 * decoded orders, never the whole text or its parsed JSON; the file is read as bytes (UTF-8 checked by the decoder),
 * in order, so that a pipe or `<(…)` works; reading stops at the first piece that is not an orders file.
 */
export const readOrders = (file: string, options?: Project.DecodeOptions) =>
  Effect.suspend(() => {
    const decoder = Project.ordersDecoder(options)
    const pieces: Stream.Stream<Uint8Array, Failure.CliFailure, Stdio.Stdio> =
      file === "-"
        ? Output.stdinBytes.pipe(Stream.mapError(Failure.failure))
        : Files.streamBytes("orders file", file, Failure.failure)
    return Stream.runForEachWhile(pieces, (piece) => Effect.sync(() => decoder.push(piece))).pipe(
      Effect.map(() => decoder.end())
    )
  })

/**
 * The failure of a run that printed every good order but not every record (cli README, "Exit codes": 7): how many
 * records or parts of the list could not be read.
 */
export const unreadMessage = (orders: string, count: number, done = "projected"): string =>
  `${orders === "-" ? "standard input" : orders}: ${count} ${count === 1 ? "record or part of the list" : "records or parts of the list"} could not be read as standing orders (each reported above); every other order was ${done}`
