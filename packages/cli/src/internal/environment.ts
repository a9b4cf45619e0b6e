/**
 * One line for a `TPPKIT_*` variable that could not be read: the variable and its value, the form it needs and an
 * example to copy, e.g. `TPPKIT_REQUEST_TIMEOUT="banana" is not valid: it needs a duration with its unit, e.g.
 * TPPKIT_REQUEST_TIMEOUT="10 seconds"`.
 */

const duration = (example: string) => ({ form: "a duration with its unit", example: `"${example}"` })
const whole = (example: string) => ({ form: "a whole number", example })

/** The form each variable needs and an example value of it. */
const forms: Record<string, { readonly form: string; readonly example: string }> = {
  TPPKIT_REQUEST_TIMEOUT: duration("10 seconds"),
  TPPKIT_TOKEN_SAFETY_MARGIN: duration("60 seconds"),
  TPPKIT_RETRY_BASE_DELAY: duration("200 millis"),
  TPPKIT_RETRY_MAX_DELAY: duration("5 seconds"),
  TPPKIT_RETRY_MAX_ELAPSED: duration("30 seconds"),
  TPPKIT_RETRY_MAX_ATTEMPTS: whole("3"),
  TPPKIT_MAX_BODY_BYTES: whole("4194304"),
  TPPKIT_MAX_HEADER_BYTES: whole("32768"),
  TPPKIT_MAX_JSON_DEPTH: whole("32"),
  TPPKIT_WORKER_POLL_MS: whole("500"),
  TPPKIT_WORKER_LOCK_EXPIRATION_MS: whole("30000"),
  TPPKIT_SCOPE_BALANCE_CHECK: { form: "scopes separated by spaces", example: '"PIISP"' },
  TPPKIT_SCOPE_STANDING_ORDERS: { form: "scopes separated by spaces", example: '"AISP"' },
  TPPKIT_BUDGET_TIME_ZONE: { form: "an IANA time zone", example: "Europe/Bratislava" }
}

/** Describes a failed read of the environment (effect's `ConfigError`) in one line; see the module comment. */
export const describe = (error: { readonly message: string }, env: NodeJS.ProcessEnv = process.env): string => {
  const name = /\["(TPPKIT_[A-Z0-9_]+)"\]/.exec(error.message)?.[1]
  if (name === undefined) return `invalid environment: ${error.message.replace(/\s*\n\s*/g, " ")}`
  const value = env[name]
  const shown = value === undefined ? `${name} is missing` : `${name}=${JSON.stringify(value)} is not valid`
  const form = forms[name]
  return form === undefined
    ? `${shown}: ${error.message.split("\n")[0]}`
    : `${shown}: it needs ${form.form}, e.g. ${name}=${form.example}`
}
