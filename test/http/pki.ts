/** A test PKI made with selfsigned: a CA, a server certificate for 127.0.0.1, a client certificate whose key is
 * encrypted with `passphrase`, and a stranger's client certificate that the CA did not sign (all PEM). */
import { generate } from "selfsigned"

const ec = { keyType: "ec", algorithm: "sha256" } as const

/** The PEM material of the test PKI. */
export interface Pki {
  readonly ca: { key: string; cert: string }
  readonly server: { key: string; cert: string }
  readonly client: { key: string; cert: string }
  readonly stranger: { key: string; cert: string }
}

export const makePki = async (passphrase = "key-passphrase"): Promise<Pki> => {
  const ca = await generate([{ name: "commonName", value: "tppkit test CA" }], {
    ...ec,
    extensions: [
      { name: "basicConstraints", cA: true, critical: true },
      { name: "keyUsage", keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true }
    ]
  })
  const caPair = { key: ca.private, cert: ca.cert }
  const server = await generate([{ name: "commonName", value: "127.0.0.1" }], {
    ...ec,
    ca: caPair,
    extensions: [
      { name: "basicConstraints", cA: false },
      { name: "extKeyUsage", serverAuth: true },
      { name: "subjectAltName", altNames: [{ type: 7, ip: "127.0.0.1" }] }
    ]
  })
  const client = await generate([{ name: "commonName", value: "tpp-client" }], {
    ...ec,
    ca: caPair,
    passphrase,
    extensions: [
      { name: "basicConstraints", cA: false },
      { name: "extKeyUsage", clientAuth: true }
    ]
  })
  const stranger = await generate([{ name: "commonName", value: "stranger" }], {
    ...ec,
    extensions: [{ name: "extKeyUsage", clientAuth: true }]
  })
  return {
    ca: caPair,
    server: { key: server.private, cert: server.cert },
    client: { key: client.private, cert: client.cert },
    stranger: { key: stranger.private, cert: stranger.cert }
  }
}
