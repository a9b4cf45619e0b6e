/**
 * What a failed exchange means, from the socket, TLS or undici error behind it: a `TransportFailure` of kind
 * connect, reset, timeout, truncated, tls (saying which side refused and why) or other, with one human line.
 * Both transports of `BankTransport` use it.
 */
import { Duration } from "effect"
import { TransportFailure } from "../BankError.ts"

const connectCodes = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "UND_ERR_CONNECT_TIMEOUT"
])
const resetCodes = new Set(["ECONNRESET", "EPIPE", "UND_ERR_SOCKET", "UND_ERR_CLOSED", "ECONNABORTED"])
const timeoutCodes = new Set(["ETIMEDOUT", "UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT"])

/** Certificate checks of the bank's certificate that failed on our side (Node's `X509_V_ERR` names). */
const bankCertificate: Record<string, string> = {
  SELF_SIGNED_CERT_IN_CHAIN: "is not trusted (a self-signed certificate in its chain; is the CA configured?)",
  DEPTH_ZERO_SELF_SIGNED_CERT: "is not trusted (self-signed; is the CA configured?)",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "is not trusted (its issuer is unknown; is the CA configured?)",
  UNABLE_TO_GET_ISSUER_CERT: "is not trusted (its issuer is unknown; is the CA configured?)",
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: "is not trusted (its issuer is unknown; is the CA configured?)",
  CERT_UNTRUSTED: "is not trusted",
  CERT_SIGNATURE_FAILURE: "has a bad signature",
  CERT_HAS_EXPIRED: "has expired",
  CERT_NOT_YET_VALID: "is not valid yet",
  CERT_REVOKED: "is revoked",
  ERR_TLS_CERT_ALTNAME_INVALID: "is for another host"
}

/** The bank's TLS alert about our client certificate, by the alert in Node's OpenSSL error code. */
const clientCertificateAlert = (code: string): string | undefined => {
  if (!code.startsWith("ERR_SSL_")) return undefined
  if (code.endsWith("_ALERT_CERTIFICATE_REQUIRED")) return "the bank requires a client certificate and none was sent"
  if (
    code.endsWith("_ALERT_BAD_CERTIFICATE") ||
    code.endsWith("_ALERT_UNKNOWN_CA") ||
    code.endsWith("_ALERT_CERTIFICATE_UNKNOWN") ||
    code.endsWith("_ALERT_UNSUPPORTED_CERTIFICATE") ||
    code.endsWith("_ALERT_ACCESS_DENIED")
  ) {
    return "the bank refused our client certificate"
  }
  if (code.endsWith("_ALERT_CERTIFICATE_EXPIRED")) return "the bank refused our client certificate as expired"
  if (code.endsWith("_ALERT_CERTIFICATE_REVOKED")) return "the bank refused our client certificate as revoked"
  if (code.endsWith("_ALERT_HANDSHAKE_FAILURE")) {
    return "the bank ended the TLS handshake (client certificate missing or refused, or no common cipher)"
  }
  return undefined
}

const codesOf = (cause: unknown): Array<string> => {
  const codes: Array<string> = []
  let current: unknown = cause
  for (let depth = 0; depth < 5 && typeof current === "object" && current !== null; depth++) {
    const code = (current as { code?: unknown }).code
    if (typeof code === "string") codes.push(code)
    current = (current as { cause?: unknown }).cause
  }
  return codes
}

/** The first error code in a cause chain (`code` of the error, then of its causes). */
export const errorCode = (cause: unknown): string | undefined => codesOf(cause)[0]

/**
 * Classifies a socket, TLS or undici failure: connect, reset, timeout, tls (saying which side refused and why)
 * or other. `where` names the server (origin) for the message.
 */
export const classify = (cause: unknown, fallback: string, where = "the bank"): TransportFailure => {
  const codes = codesOf(cause)
  for (const code of codes) {
    const bank = bankCertificate[code]
    if (bank !== undefined) {
      return new TransportFailure({ kind: "tls", detail: `the certificate of ${where} ${bank} (${code})` })
    }
    const ours = clientCertificateAlert(code)
    if (ours !== undefined) return new TransportFailure({ kind: "tls", detail: `${ours} (${code})` })
    if (code.startsWith("ERR_SSL_") || code.startsWith("ERR_TLS_")) {
      return new TransportFailure({ kind: "tls", detail: `the TLS handshake with ${where} failed (${code})` })
    }
  }
  const code = codes[0]
  if (code === undefined) return new TransportFailure({ kind: "other", detail: `${fallback} (${where})` })
  if (connectCodes.has(code))
    return new TransportFailure({ kind: "connect", detail: `cannot connect to ${where} (${code})` })
  if (resetCodes.has(code)) {
    return new TransportFailure({ kind: "reset", detail: `${where} closed the connection before answering (${code})` })
  }
  if (timeoutCodes.has(code))
    return new TransportFailure({ kind: "timeout", detail: `no answer from ${where} (${code})` })
  return new TransportFailure({ kind: "other", detail: `request to ${where} failed (${code})` })
}

/** "10 s", "1.5 s" or "150 ms": a timeout as messages print it. */
export const formatTimeout = (timeout: Duration.Duration): string => {
  const ms = Duration.toMillis(timeout)
  return ms >= 1000 ? `${Number((ms / 1000).toFixed(3))} s` : `${ms} ms`
}

/** No (complete) answer within `timeout`; `received` body bytes came, or -1 when not even the headers did. */
export const timedOut = (timeout: Duration.Duration, received: number) =>
  new TransportFailure({
    kind: "timeout",
    detail:
      received < 0
        ? `no answer within ${formatTimeout(timeout)}`
        : `the answer was not complete within ${formatTimeout(timeout)} (${received} body bytes received)`
  })

/**
 * A TLS connection the bank closed before sending a byte of an answer. With TLS 1.3 the client certificate is
 * checked after the client's side of the handshake is done, so a refusal arrives as a plain close ("other side
 * closed", nothing read): name the likely cause by whether a client certificate was sent.
 */
export const closedAfterHandshake = (
  cause: unknown,
  where: string,
  clientCertificate: boolean
): TransportFailure | undefined => {
  if (errorCode(cause) !== "UND_ERR_SOCKET") return undefined
  const socket = (cause as { socket?: { bytesRead?: unknown } }).socket
  if (socket?.bytesRead !== 0) return undefined
  return new TransportFailure({
    kind: "tls",
    detail: clientCertificate
      ? `${where} closed the TLS connection without answering: it refused our client certificate (not issued by a CA it trusts, expired or revoked) (UND_ERR_SOCKET)`
      : `${where} closed the TLS connection without answering: it requires a client certificate and none is configured (UND_ERR_SOCKET)`
  })
}

/** The body ended before its end, after `received` bytes. */
export const truncated = (received: number, cause: unknown) =>
  new TransportFailure({
    kind: "truncated",
    detail: `the answer ended before its body was complete (${received} bytes received${
      errorCode(cause) === undefined ? "" : `, ${errorCode(cause)}`
    })`
  })
