/**
 * IBAN check digits (ISO 13616, mod 97), private to the sandbox: used to build the default fixtures and to
 * validate fixture files until core's `Iban` schema is the single source.
 */

const mod97 = (digits: string): number => {
  let rest = 0
  for (let i = 0; i < digits.length; i += 7) {
    rest = Number(`${rest}${digits.slice(i, i + 7)}`) % 97
  }
  return rest
}

const toDigits = (s: string): string => {
  let out = ""
  for (const ch of s) {
    const code = ch.charCodeAt(0)
    out += code >= 65 && code <= 90 ? String(code - 55) : ch
  }
  return out
}

/** Whether `iban` (upper case, no spaces) has a valid shape and mod-97 checksum. */
export const isValid = (iban: string): boolean =>
  /^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban) && mod97(toDigits(iban.slice(4) + iban.slice(0, 4))) === 1

/** Builds an IBAN from a country code and a BBAN, computing its check digits. */
export const fromBban = (country: string, bban: string): string => {
  const check = 98 - mod97(toDigits(`${bban}${country}00`))
  return `${country}${String(check).padStart(2, "0")}${bban}`
}
