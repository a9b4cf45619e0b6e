/**
 * The mock bank's clock: token expiry, electronic-consent validity and the daily listing limit all read it.
 * It is a service so that tests replace or move it (`adjust`, `set`) instead of waiting in real time.
 */
import { Context, Duration, Effect, Layer } from "effect"

/** The clock the mock bank reads: wall-clock time plus an adjustable offset, or a frozen instant. */
export class SandboxClock extends Context.Service<
  SandboxClock,
  {
    /** The current time in epoch milliseconds, synchronously (the server reads it on every request). */
    readonly nowUnsafe: () => number
    /** The current time in epoch milliseconds. */
    readonly now: Effect.Effect<number>
    /** Moves the clock forward (or backward, with a negative duration). */
    readonly adjust: (by: Duration.Input) => Effect.Effect<void>
    /** Sets the clock to an instant (epoch milliseconds). */
    readonly set: (epochMillis: number) => Effect.Effect<void>
    /** Moves the clock by `millis`, synchronously (for the server's `POST /__clock`). */
    readonly adjustUnsafe: (millis: number) => void
    /** Sets the clock to an instant, synchronously (for the server's `POST /__clock`). */
    readonly setUnsafe: (epochMillis: number) => void
  }
>()("@tppkit/sandbox/SandboxClock") {
  /** Wall-clock time (`Date.now`) plus an offset that `adjust` and `set` move. */
  static readonly layer: Layer.Layer<SandboxClock> = Layer.sync(SandboxClock, () => make(() => Date.now()))

  /** A clock frozen at `epochMillis`: it moves only through `adjust` and `set`. */
  static readonly layerFixed = (epochMillis: number): Layer.Layer<SandboxClock> =>
    Layer.sync(SandboxClock, () => make(() => epochMillis))
}

/** Builds a clock from a base time source plus an adjustable offset. */
export const make = (base: () => number): SandboxClock["Service"] => {
  let offset = 0
  const nowUnsafe = () => base() + offset
  const adjustUnsafe = (millis: number) => {
    offset += millis
  }
  const setUnsafe = (epochMillis: number) => {
    offset = epochMillis - base()
  }
  return {
    nowUnsafe,
    now: Effect.sync(nowUnsafe),
    adjust: (by) => Effect.sync(() => adjustUnsafe(Duration.toMillis(by))),
    set: (epochMillis) => Effect.sync(() => setUnsafe(epochMillis)),
    adjustUnsafe,
    setUnsafe
  }
}
