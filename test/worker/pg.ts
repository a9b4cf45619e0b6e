/** One embedded PostgreSQL per test file, on 127.0.0.1 with a temporary data directory removed afterwards. */
import { EmbeddedDb } from "@tppkit/worker"
import * as Database from "@tppkit/worker/Database"
import { Context, Effect, Layer, type Redacted } from "effect"

/** The URL of the test file's PostgreSQL. */
export class TestDb extends Context.Service<TestDb, { readonly url: Redacted.Redacted<string> }>()("test/TestDb") {}

/** Starts PostgreSQL for the layer's lifetime. */
export const testDb: Layer.Layer<TestDb, EmbeddedDb.EmbeddedDbError> = Layer.effect(
  TestDb,
  Effect.map(EmbeddedDb.start(), (db) => ({ url: db.url }))
)

/** A SQL client (tables created) on the test file's PostgreSQL. */
export const sqlLayer = Layer.unwrap(Effect.map(Effect.service(TestDb), (db) => Database.layer(db.url))).pipe(
  Layer.provideMerge(testDb)
)
