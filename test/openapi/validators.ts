/**
 * The standards' OpenAPI descriptions as fixtures (test/openapi/*.openapi.json) behind openapi-backend's validator:
 * minimal OpenAPI 3.0 documents written by tppkit from the field tables of the shared standard-records.md (COBS 7/8,
 * UK Open Banking v3.1 and v4, Berlin Group 1.3.9), not the standards' own files, which the test machines cannot
 * fetch; each document says so in `info.description`. The documents themselves are checked against the OpenAPI 3.0
 * schema when loaded (`strict`), and formats (`date`, `date-time`, `uri`, `uuid`) are checked by ajv-formats.
 */
import { readFileSync } from "node:fs"
import addFormats from "ajv-formats"
import { OpenAPIBackend } from "openapi-backend"

/** The fixtures, by the standard they describe. */
export const documents = ["cobs", "uk-v3", "uk-v4", "berlin-group"] as const
export type Document = (typeof documents)[number]

/** A loaded, validated description of one standard. */
export const load = async (name: Document): Promise<OpenAPIBackend> => {
  const definition = JSON.parse(readFileSync(new URL(`./${name}.openapi.json`, import.meta.url), "utf8"))
  const api = new OpenAPIBackend({
    definition,
    strict: true,
    validate: true,
    customizeAjv: (ajv) => {
      addFormats.default(ajv)
      return ajv
    }
  })
  await api.init()
  return api
}

/** A validation's errors as one line (empty when valid). */
export const errorsOf = (result: { readonly valid: boolean; readonly errors?: unknown }): string =>
  result.valid ? "" : JSON.stringify(result.errors)
