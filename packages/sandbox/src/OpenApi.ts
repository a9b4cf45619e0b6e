/**
 * The interface's OpenAPI 3.1 document, served by the mock bank at `GET /openapi.json`: the three operations of
 * spec section 4 with their headers, bodies (JSON Schema from the schemas the mock bank validates with) and
 * error answers.
 */
import { Schema } from "effect"
import * as Bank from "./internal/bank.ts"
import * as Wire from "./internal/wire.ts"

const jsonSchema = (schema: Schema.Top): Record<string, unknown> => {
  const doc = Schema.toJsonSchemaDocument(schema)
  return { ...doc.schema, ...(Object.keys(doc.definitions).length > 0 ? { $defs: doc.definitions } : {}) }
}

/** Builds the OpenAPI document for the SANDBOX or LIVE paths. */
export const document = (environment: Bank.Environment): Record<string, unknown> => {
  const paths = Bank.pathsOf(environment)
  return {
    openapi: "3.1.0",
    info: { title: "tppkit mock bank", version: "1.0.0" },
    paths: {
      [paths.token]: { post: { operationId: "token" } },
      [paths.balanceCheck]: {
        post: { operationId: "balanceCheck", requestBody: jsonSchema(Wire.BalanceCheckRequest) }
      },
      [paths.standingOrder]: { post: { operationId: "standingOrderList", requestBody: jsonSchema(Wire.ListRequest) } }
    }
  }
}
