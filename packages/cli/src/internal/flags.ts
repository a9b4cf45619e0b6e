/**
 * Flag shapes more than one command uses.
 */
import { Flag } from "effect/cli"

/** A flag naming a file (metavar `FILE`) with its help text. */
export const file = (name: string, description: string): Flag.Flag<string> =>
  Flag.String(name).pipe(Flag.withMetavar("FILE"), Flag.withDescription(description))
