/**
 * Certificates for a fleet's runners, made with `openssl` in a temporary folder: the fleet's own authority and one
 * runner certificate it signed (every runner of the tests presents the same one), and an outsider's authority and
 * certificate (signed by another authority: a process that is not in the fleet).
 */
import { execFileSync } from "node:child_process"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

/** The files of a fleet's TLS material and of an outsider's. */
export interface FleetCerts {
  readonly dir: string
  readonly ca: string
  readonly cert: string
  readonly key: string
  readonly outsiderCert: string
  readonly outsiderKey: string
  /** The `--runner-tls-*` flags of a fleet worker. */
  readonly flags: ReadonlyArray<string>
}

const openssl = (dir: string, args: ReadonlyArray<string>) =>
  execFileSync("openssl", args, { cwd: dir, stdio: "ignore" })

/** An authority (`NAME.crt`, `NAME.key`) and a certificate it signs (`SIGNED.crt`, `SIGNED.key`), EC P-256. */
const authorityAndCert = (dir: string, name: string, signed: string) => {
  const ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
  openssl(dir, [
    "req",
    "-x509",
    ...ec,
    "-keyout",
    `${name}.key`,
    "-out",
    `${name}.crt`,
    "-days",
    "2",
    "-subj",
    `/CN=${name}`
  ])
  openssl(dir, ["req", ...ec, "-keyout", `${signed}.key`, "-out", `${signed}.csr`, "-subj", `/CN=${signed}`])
  openssl(dir, [
    "x509",
    "-req",
    "-in",
    `${signed}.csr`,
    "-CA",
    `${name}.crt`,
    "-CAkey",
    `${name}.key`,
    "-CAcreateserial",
    "-out",
    `${signed}.crt`,
    "-days",
    "2"
  ])
}

/** Makes the fleet's and an outsider's TLS material in a new temporary folder. */
export const fleetCerts = (): FleetCerts => {
  const dir = mkdtempSync(join(tmpdir(), "tppkit-certs-"))
  authorityAndCert(dir, "fleet-ca", "runner")
  authorityAndCert(dir, "outsider-ca", "outsider")
  const at = (f: string) => join(dir, f)
  return {
    dir,
    ca: at("fleet-ca.crt"),
    cert: at("runner.crt"),
    key: at("runner.key"),
    outsiderCert: at("outsider.crt"),
    outsiderKey: at("outsider.key"),
    flags: [
      "--runner-tls-cert",
      at("runner.crt"),
      "--runner-tls-key",
      at("runner.key"),
      "--runner-tls-ca",
      at("fleet-ca.crt")
    ]
  }
}
