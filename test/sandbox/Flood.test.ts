/**
 * The journal stays bounded under a flood of large bodies to an unknown path, and concurrent journal reads all
 * answer with at most the journal's capacity, bodies cut and marked. (Memory and time figures: bench/sandboxFlood.ts
 * and BENCHMARKS.md; tests assert behaviour only.)
 */
import { request } from "node:http"
import { assert, layer } from "@effect/vitest"
import { Journal, Sandbox, SandboxClock } from "@tppkit/sandbox"
import { Effect, Layer } from "effect"

const send = (url: string, method: string, body?: Buffer) =>
  new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = request(url, { method, agent: false }, (res) => {
      const chunks: Array<Buffer> = []
      res.on("data", (c: Buffer) => chunks.push(c))
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") }))
      res.on("error", reject)
    })
    req.on("error", reject)
    req.end(body)
  })

const capacity = 300

layer(
  Sandbox.layerServer().pipe(
    Layer.provideMerge(Layer.mergeAll(SandboxClock.SandboxClock.layer, Journal.Journal.layerLimit(capacity)))
  )
)("Sandbox under a flood", (it) => {
  it.effect("1,200 bodies of 65 KB leave at most the capacity in the journal, each body cut to 4 KiB and marked", () =>
    Effect.gen(function* () {
      const info = yield* Sandbox.SandboxInfo
      const body = Buffer.alloc(65_000, "x")
      let sent = 0
      yield* Effect.promise(() =>
        Promise.all(
          Array.from({ length: 20 }, async () => {
            while (sent < 1200) {
              sent += 1
              const a = await send(`${info.baseUrl}/flood/${sent}`, "POST", body)
              if (a.status !== 404) throw new Error(`expected 404, got ${a.status}`)
            }
          })
        )
      )
      const reads = yield* Effect.promise(() =>
        Promise.all(Array.from({ length: 20 }, () => send(`${info.baseUrl}/__journal`, "GET")))
      )
      for (const r of reads) {
        assert.strictEqual(r.status, 200)
        const entries = JSON.parse(r.text) as Array<Journal.Entry>
        assert.strictEqual(entries.length, capacity)
        assert.isTrue(entries.every((e) => e.bodyTruncated && e.body.length <= 4096 && e.status === 404))
      }
      const journal = yield* Journal.Journal
      const last = (yield* journal.entries).at(-1)
      assert.strictEqual(last?.seq, 1200)
    })
  )
})
