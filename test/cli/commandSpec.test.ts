import { Effect } from "effect"
import { type Command, Flag } from "effect/cli"
import { describe, expect, it } from "vitest"
import * as CommandSpec from "../../packages/cli/src/internal/commandSpec.ts"

describe("CommandSpec", () => {
  it("loads a handler's module only when the command runs, and runs the named function with the input", async () => {
    const loads: Array<string> = []
    const work = {
      run: (input: { readonly name: string }) => Effect.sync(() => loads.push(`run ${input.name}`)),
      other: (_: { readonly name: string }) => Effect.die("not this one")
    }
    const handlers = CommandSpec.lazy(async () => {
      loads.push("load")
      return work
    })
    const command = CommandSpec.make({
      name: "greet",
      flags: { name: Flag.String("name") },
      run: handlers("run"),
      description: "Say a name",
      examples: [{ command: "greet --name x", description: "x" }]
    })
    expect(loads).toEqual([])
    expect(command.name).toBe("greet")
    await Effect.runPromise(handlers("run")({ name: "a" }))
    expect(loads).toEqual(["load", "run a"])
  })

  it("groups subcommands under a command of their own", () => {
    const sub = CommandSpec.make({
      name: "start",
      flags: {},
      run: () => Effect.void,
      description: "Start",
      examples: []
    })
    const group = CommandSpec.group({ name: "db", description: "The database", subcommands: [sub], examples: [] })
    expect(group.subcommands.flatMap((g) => g.commands).map((c: Command.Command.Any) => c.name)).toEqual(["start"])
  })
})
