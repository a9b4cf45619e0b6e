/**
 * Runners that talk mutual TLS (issue 43), on loopback: two workers with the fleet's certificate share the 30 shards
 * 15 and 15; a process without a certificate of the fleet's authority is refused at the handshake (it cannot make a
 * runner act); a worker registered at an address the others cannot reach is named in one line by them; a worker
 * with another shard count, a database on another machine without `--runner-host`, and a runner host beyond
 * loopback without TLS are each refused with one line (exit 3). test/e2e/fleetNamespaces.test.ts runs a fleet
 * across network namespaces.
 */
import { readFileSync, rmSync } from "node:fs"
import { connect } from "node:tls"
import { afterAll, assert, describe, it } from "@effect/vitest"
import { Fixtures, Sandbox } from "@tppkit/sandbox"
import { EmbeddedDb } from "@tppkit/worker"
import { Context, Effect, Exit, Layer, Redacted, Scope } from "effect"
import { embeddedDb } from "../worker/pg.ts"
import { fleetCerts } from "./certs.ts"
import { type Ended, start, tppkit } from "./harness.ts"

const db = embeddedDb()
const certs = fleetCerts()
const bankScope = Scope.makeUnsafe()
afterAll(() => {
  rmSync(certs.dir, { recursive: true, force: true })
  return Effect.runPromise(Scope.close(bankScope, Exit.void))
})

/** Waits until `text()` matches `pattern` (or fails after `ms`). */
const until = async (text: () => string, pattern: RegExp, ms = 30_000): Promise<void> => {
  const deadline = Date.now() + ms
  while (!pattern.test(text())) {
    if (Date.now() > deadline) throw new Error(`not seen within ${ms} ms: ${pattern}\n${text()}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

/** How a TLS client fares against a runner: refused at the handshake, or still connected after a second. */
const handshake = (port: number, client: { readonly cert?: string; readonly key?: string }) =>
  new Promise<string>((resolve) => {
    const socket = connect({
      host: "127.0.0.1",
      port,
      rejectUnauthorized: false,
      ...(client.cert === undefined ? {} : { cert: readFileSync(client.cert), key: readFileSync(client.key ?? "") })
    })
    socket.on("secureConnect", () => socket.write("ping"))
    socket.on("error", () => resolve("refused"))
    socket.on("close", () => resolve("refused"))
    setTimeout(() => {
      socket.destroy()
      resolve("open")
    }, 1500)
  })

describe("runners over mutual TLS", () => {
  it("refuses a database elsewhere without --runner-host, and a runner host beyond loopback without TLS", async () => {
    const base = ["worker", "--base-url", "http://127.0.0.1:9", "--client-id", "c", "--client-secret", "s"]
    const elsewhere = await tppkit([...base, "--database-url", "postgres://u:p@192.0.2.10:5432/fleet"])
    assert.strictEqual(elsewhere.code, 3, elsewhere.stderr)
    assert.match(
      elsewhere.stderr,
      /^tppkit: the database 192\.0\.2\.10 is not on this machine, so other workers may be elsewhere: give --runner-host ADDR \(TPPKIT_RUNNER_HOST\)/
    )
    assert.strictEqual(elsewhere.stderr.trim().split("\n").length, 1)
    const plain = await tppkit([...base, "--database-url", "postgres://u:p@192.0.2.10:5432/fleet"], {
      env: { TPPKIT_RUNNER_HOST: "192.0.2.11" }
    })
    assert.strictEqual(plain.code, 3, plain.stderr)
    assert.match(plain.stderr, /runner host 192\.0\.2\.11 is reachable from other machines: give --runner-tls-cert/)
  })

  it("two workers share the shards 15 and 15; outsiders are refused; an unreachable runner is named", async () => {
    const bank = await Effect.runPromise(
      Layer.buildWithScope(Sandbox.layer({ listingDay: Fixtures.baseDate }), bankScope)
    )
    const info = Context.get(bank, Sandbox.SandboxInfo)
    const url = Redacted.value(await Effect.runPromise(db.freshUrl()))
    const env = {
      TPPKIT_CLIENT_SECRET: Redacted.value(info.clientSecret),
      TPPKIT_WORKER_POLL_MS: "250",
      TPPKIT_WORKER_LOCK_EXPIRATION_MS: "6000"
    }
    const args = ["worker", "--database-url", url, "--base-url", info.baseUrl, "--client-id", info.clientId]
    const [p1, p2, p3] = await Effect.runPromise(
      Effect.all([EmbeddedDb.freePort, EmbeddedDb.freePort, EmbeddedDb.freePort])
    )
    const workers = [
      start([...args, ...certs.flags, "--runner-port", String(p1)], env),
      start([...args, ...certs.flags, "--runner-port", String(p2)], env)
    ]
    const stderr: Array<string> = ["", ""]
    for (const [i, w] of workers.entries()) {
      w.child.stderr?.on("data", (c: string) => {
        stderr[i] += c
      })
    }
    try {
      await until(() => stderr[0] ?? "", /event=shards held=15 of=30/)
      await until(() => stderr[1] ?? "", /event=shards held=15 of=30/)

      assert.strictEqual(await handshake(p1, {}), "refused")
      assert.strictEqual(await handshake(p1, { cert: certs.outsiderCert, key: certs.outsiderKey }), "refused")
      assert.strictEqual(await handshake(p1, { cert: certs.cert, key: certs.key }), "open")

      const other = await tppkit([...args, ...certs.flags, "--shards", "60"], { env })
      assert.strictEqual(other.code, 3, other.stderr)
      assert.match(other.stderr, /^tppkit: this runner has 60 shards but the fleet has 30: start it with --shards 30/)

      // registered at 127.0.0.2, listening on 127.0.0.1: nobody reaches it where it says it is
      const astray = start(
        [
          ...args,
          ...certs.flags,
          "--runner-host",
          "127.0.0.2",
          "--runner-listen",
          "127.0.0.1",
          "--runner-port",
          String(p3)
        ],
        env
      )
      await until(
        () => `${stderr[0]}${stderr[1]}`,
        new RegExp(`level=warn event=log message="cannot reach runner 127\\.0\\.0\\.2:${p3} \\(`)
      )
      astray.child.kill("SIGTERM")
      await astray.done
    } finally {
      for (const w of workers) w.child.kill("SIGTERM")
      const ended: Array<Ended> = await Promise.all(workers.map((w) => w.done))
      for (const e of ended) assert.match(e.stderr, /event=left reason=stopped/)
    }
  }, 90_000)
})
