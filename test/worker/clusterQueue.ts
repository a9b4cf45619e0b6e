/**
 * effect's cluster queue in a test's PostgreSQL, written as effect's SQL storages write it: the tables (its own
 * migrations), a request sent at a given time (its snowflake id says when), and a runner registered healthy.
 */
import { Effect, Layer } from "effect"
import * as MachineId from "effect/cluster/MachineId"
import * as Snowflake from "effect/cluster/Snowflake"
import * as SqlMessageStorage from "effect/cluster/SqlMessageStorage"
import * as SqlRunnerStorage from "effect/cluster/SqlRunnerStorage"
import { SqlClient } from "effect/sql"

/** effect's own cluster tables, as a runner's start creates them. */
export const clusterTables = Layer.mergeAll(SqlMessageStorage.layerMigrations({}), SqlRunnerStorage.layerMigrations({}))

/** A request of the cluster's queue sent at `sent`, as effect's message storage writes one. */
export const request = (
  sent: number,
  sequence: number,
  over: { processed?: boolean; lastRead?: boolean; deliverAt?: number } = {}
) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const id = String(Snowflake.make({ machineId: MachineId.make(1), sequence, timestamp: sent }))
    yield* sql`INSERT INTO cluster_messages (id, message_id, shard_id, entity_type, entity_id, kind, tag, payload,
        headers, processed, request_id, last_read, deliver_at)
      VALUES (${id}, ${`m-${sequence}`}, 'stuck:1', 'FundsCheck', ${`e-${sequence}`}, 0, 'Run', '{}', '{}',
        ${over.processed ?? false}, ${id}, ${over.lastRead === true ? new Date() : null}, ${over.deliverAt ?? null})`
  })

/** A runner registered healthy with a heartbeat now. */
export const healthyRunner = (address: string) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => sql`INSERT INTO cluster_runners (address, runner, healthy, last_heartbeat)
      VALUES (${address}, '{}', TRUE, NOW())`
  )
