import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createInterface } from "node:readline"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makePki } from "../http/pki.ts"
import { root, tppkit } from "./harness.ts"

const EUR_BRANCH = "SK2411000000002612345678"
const PASSPHRASE = "e2e-key-passphrase"

let dir: string
let sandbox: ChildProcess | undefined
let baseUrl: string
const file = (name: string) => join(dir, name)

/** The test PKI as PEM files. */
const writePki = async () => {
  const pki = await makePki(PASSPHRASE)
  writeFileSync(file("ca.pem"), pki.ca.cert)
  writeFileSync(file("server.pem"), pki.server.cert)
  writeFileSync(file("server-key.pem"), pki.server.key)
  writeFileSync(file("client.pem"), pki.client.cert)
  writeFileSync(file("client-key.pem"), pki.client.key)
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "tppkit-e2e-tls-"))
  await writePki()
  const child = spawn(
    process.execPath,
    [
      "--conditions=@tppkit/source",
      "packages/cli/src/bin.ts",
      "sandbox",
      "--format",
      "json",
      "--tls-cert",
      file("server.pem"),
      "--tls-key",
      file("server-key.pem"),
      "--tls-ca",
      file("ca.pem"),
      "--require-client-cert"
    ],
    { cwd: root, stdio: ["ignore", "pipe", "pipe"] }
  )
  sandbox = child
  const line = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).once("line", resolve)
    child.once("exit", (code) => reject(new Error(`tppkit sandbox exited with ${code}`)))
  })
  baseUrl = JSON.parse(line).baseUrl
}, 60_000)

afterAll(() => {
  sandbox?.kill("SIGTERM")
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true })
})

const env = () => ({
  TPPKIT_BASE_URL: baseUrl,
  TPPKIT_CLIENT_ID: "tppkit-sandbox",
  TPPKIT_CLIENT_SECRET: "sandbox-secret",
  TPPKIT_RETRY_MAX_ATTEMPTS: "1"
})

describe("bank commands over mutual TLS (tppkit sandbox --tls-* --require-client-cert)", { timeout: 90_000 }, () => {
  it("serves HTTPS", () => {
    expect(baseUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/)
  })

  it("balance-check with --tls-cert/--tls-key/--tls-ca and the passphrase from the environment", async () => {
    const run = await tppkit(
      [
        "balance-check",
        "--iban",
        EUR_BRANCH,
        "--amount",
        "10.00",
        "--currency",
        "EUR",
        "--format",
        "json",
        "--tls-cert",
        file("client.pem"),
        "--tls-key",
        file("client-key.pem"),
        "--tls-ca",
        file("ca.pem")
      ],
      { env: { ...env(), TPPKIT_TLS_KEY_PASSPHRASE: PASSPHRASE } }
    )
    expect(run.stderr).toBe("")
    expect(run.code).toBe(0)
    expect(JSON.parse(run.stdout)).toMatchObject({ response: "APPR" })
    expect(run.stdout + run.stderr).not.toContain(PASSPHRASE)
  })

  it("token with TPPKIT_TLS_* variables only", async () => {
    const run = await tppkit(["token", "--format", "json"], {
      env: {
        ...env(),
        TPPKIT_TLS_CERT: file("client.pem"),
        TPPKIT_TLS_KEY: file("client-key.pem"),
        TPPKIT_TLS_CA: file("ca.pem"),
        TPPKIT_TLS_KEY_PASSPHRASE: PASSPHRASE
      }
    })
    expect(run.stderr).toBe("")
    expect(JSON.parse(run.stdout)).toMatchObject({ tokenType: "Bearer", expiresIn: 1200 })
  })

  it("without a client certificate the bank refuses the connection: one line, exit 6 (transport)", async () => {
    const run = await tppkit(["token", "--tls-ca", file("ca.pem")], { env: env() })
    expect(run.code).toBe(6)
    expect(run.stderr.split("\n")[0]).toMatch(
      /^tppkit: token request POST \/identity-server-test\/connect\/token: https:\/\/127\.0\.0\.1:\d+ closed the TLS connection without answering: it requires a client certificate and none is configured/
    )
    expect(run.stderr).not.toMatch(/\n\s+at /)
  })

  it("the daily budget knows the mock bank over mutual TLS by the instance it announces", async () => {
    const budgetFile = file("budget.sqlite")
    const tls = {
      TPPKIT_TLS_CERT: file("client.pem"),
      TPPKIT_TLS_KEY: file("client-key.pem"),
      TPPKIT_TLS_CA: file("ca.pem"),
      TPPKIT_TLS_KEY_PASSPHRASE: PASSPHRASE
    }
    const listed = await tppkit(["standing-orders", "--page-size", "10", "--budget-file", budgetFile], {
      env: { ...env(), ...tls }
    })
    expect(listed.stderr).toBe("")
    expect(listed.code).toBe(0)
    const shown = await tppkit(["budget", "--budget-file", budgetFile, "--format", "json"])
    expect(shown.code).toBe(0)
    const consents = JSON.parse(shown.stdout).consents as Array<{ baseUrl: string; used: number }>
    // the base URL with the instance the bank announced over mTLS, not the bare base URL
    expect(consents).toEqual([expect.objectContaining({ baseUrl: expect.stringMatching(/#instance=[0-9a-f-]{36}$/) })])
    expect(consents[0]!.baseUrl.startsWith(`${baseUrl}#instance=`)).toBe(true)
    expect(consents[0]!.used).toBe(1)
  })

  it("a wrong passphrase is named without echoing it", async () => {
    const run = await tppkit(
      ["token", "--tls-cert", file("client.pem"), "--tls-key", file("client-key.pem"), "--tls-ca", file("ca.pem")],
      { env: { ...env(), TPPKIT_TLS_KEY_PASSPHRASE: "not-the-passphrase" } }
    )
    expect(run.code).not.toBe(0)
    expect(run.stderr.split("\n")[0]).toMatch(/^tppkit: /)
    expect(run.stderr).not.toContain("not-the-passphrase")
  })
})
