/**
 * @tppkit/worker: a fleet of funds-check workers on effect's cluster and workflow engine with PostgreSQL.
 *
 * @since 0.1.0
 */

/** The record of funds checks shared by the fleet. */
export * as Checks from "./Checks.ts"
/** An embedded PostgreSQL from npm, on loopback. */
export * as EmbeddedDb from "./EmbeddedDb.ts"
/** The durable funds check of one payment. */
export * as FundsCheckWorkflow from "./FundsCheckWorkflow.ts"
/** http's budget store on PostgreSQL. */
export * as PgBudgetStore from "./PgBudgetStore.ts"
