/**
 * How bank commands connect: the connection and PSU flags (each with a `TPPKIT_*` fallback from the
 * environment), sensible PSU defaults for a command line, and the Node layer of the bank client they build.
 *
 * @since 0.1.0
 */
import { arch, type as osType, release } from "node:os"
import { BankClient, type PsuContext } from "@tppkit/http"
import type { Redacted } from "effect"
import * as Version from "./Version.ts"

/** The PSU headers the command line sends unless told otherwise (loopback address, this OS, this tool). */
export const defaultPsu: PsuContext.PsuContext = {
  ipAddress: "127.0.0.1",
  deviceOs: `${osType()} ${release()} ${arch()}`,
  userAgent: `tppkit/${Version.VERSION} (command line)`
}

/** What the command line knows about the bank it talks to. */
export interface Target {
  readonly environment: "sandbox" | "live"
  readonly baseUrl: string
  readonly clientId: string
  readonly clientSecret: Redacted.Redacted<string>
  /** The daily-budget store: an SQLite file, or `"memory"`; default `~/.tppkit/budget.sqlite`. */
  readonly budgetFile?: string | undefined
}

/** The bank client (with `BankConfig`, `TokenService` and `Budget`) on Node for a target. */
export const clientLayer = (target: Target) =>
  BankClient.layerNodeFromOptions(
    {
      environment: target.environment,
      baseUrl: target.baseUrl,
      clientId: target.clientId,
      clientSecret: target.clientSecret
    },
    target.budgetFile === undefined ? undefined : { budgetFile: target.budgetFile }
  )
