/**
 * `tppkit demo --html FILE` writes the picture whole or not at all (issue 40): it is written beside the file and
 * renamed, so an interrupted or failed write leaves no half-written file and no part behind.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { LocalDate } from "@tppkit/core"
import { Effect, Exit, Fiber, FileSystem, Layer, Stdio } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import * as Picture from "../../../packages/cli/src/internal/demo/picture.ts"

const dir = mkdtempSync(join(tmpdir(), "tppkit-picture-"))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const d = LocalDate.parseUnsafe
const input: Picture.Input = {
  from: d("2027-01-01"),
  to: d("2027-01-31"),
  payments: [],
  skipped: [],
  atRisk: [],
  horizon: d("2027-01-10"),
  atRiskCount: 0
}
const quiet = Stdio.layerTest({})

describe("demo --html FILE", () => {
  it("writes the whole picture and leaves no part file", async () => {
    const file = join(dir, "cashflow.html")
    await Effect.runPromise(Picture.write(file, input).pipe(Effect.provide(Layer.merge(NodeServices.layer, quiet))))
    expect(readFileSync(file, "utf8").trimEnd().endsWith("</html>")).toBe(true)
    expect(readdirSync(dir)).toEqual(["cashflow.html"])
  })

  it("interrupted while writing: no file and no part file", async () => {
    const file = join(dir, "interrupted.html")
    // a file system whose write never finishes: the write is interrupted as Ctrl-C interrupts the demo
    const stuck = Layer.effect(
      FileSystem.FileSystem,
      Effect.map(
        FileSystem.FileSystem,
        (fs): FileSystem.FileSystem => ({
          ...fs,
          writeFileString: (path, data, options) =>
            Effect.andThen(fs.writeFileString(path, data.slice(0, 10), options), Effect.never)
        })
      )
    ).pipe(Layer.provide(NodeServices.layer))
    const exit = await Effect.runPromise(
      Effect.gen(function* () {
        const fiber = yield* Effect.forkChild(Picture.write(file, input))
        yield* Effect.sleep(200)
        yield* Fiber.interrupt(fiber)
        return yield* Fiber.await(fiber)
      }).pipe(Effect.provide(Layer.merge(stuck, quiet)))
    )
    expect(Exit.hasInterrupts(exit)).toBe(true)
    expect(readdirSync(dir).filter((f) => f.startsWith("interrupted"))).toEqual([])
  })
})
