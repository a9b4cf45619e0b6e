import { request } from "node:https"
import { assert, describe, it } from "@effect/vitest"
import { Sandbox } from "@tppkit/sandbox"
import { Context, Effect, Layer } from "effect"
import { generate } from "selfsigned"

/** One self-signed certificate that serves as the server's and as the CA of a client certificate. */
const pems = Effect.promise(() =>
  generate([{ name: "commonName", value: "tppkit-sandbox-test" }], {
    keyType: "ec",
    algorithm: "sha256",
    extensions: [
      { name: "basicConstraints", cA: true },
      { name: "keyUsage", keyCertSign: true, digitalSignature: true, keyEncipherment: true },
      { name: "subjectAltName", altNames: [{ type: 7, ip: "127.0.0.1" }] }
    ],
    clientCertificate: { cn: "tpp-client", keyType: "ec" }
  })
)

const get = (url: string, options: { ca: string; cert?: string; key?: string }) =>
  Effect.promise(
    () =>
      new Promise<number | string>((resolve) => {
        const req = request(`${url}/openapi.json`, { method: "GET", ...options }, (res) => {
          res.resume()
          res.on("end", () => resolve(res.statusCode ?? 0))
        })
        req.on("error", (e) => resolve(e.message))
        req.end()
      })
  )

describe("Sandbox over TLS", () => {
  it.live("serves HTTPS and, when required, accepts only clients with a certificate from the CA", () =>
    Effect.gen(function* () {
      const p = yield* pems
      const clientCert = p.clientcert ?? ""
      const clientKey = p.clientprivate ?? ""
      yield* Effect.scoped(
        Effect.gen(function* () {
          const context = yield* Layer.build(
            Sandbox.layer({ tls: { cert: p.cert, key: p.private, ca: p.cert, requireClientCert: true } })
          )
          const info = Context.get(context, Sandbox.SandboxInfo)
          assert.match(info.baseUrl, /^https:\/\/127\.0\.0\.1:\d+$/)
          assert.strictEqual(yield* get(info.baseUrl, { ca: p.cert, cert: clientCert, key: clientKey }), 200)
          const refused = yield* get(info.baseUrl, { ca: p.cert })
          assert.isString(refused)
        })
      )
    })
  )
})
