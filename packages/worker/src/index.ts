/**
 * @tppkit/worker: a fleet of funds-check workers on effect's cluster and workflow engine with PostgreSQL.
 *
 * @since 0.1.0
 */

/** Payments at risk ahead: the forecast of each sweep from the stored balances. */
export * as AtRisk from "./AtRisk.ts"
/** Whether balance checks may be sent now: the fleet's circuit breaker over the bank's availability. */
export * as BankGate from "./BankGate.ts"
/** A fleet-wide rate for a bank: every request takes the next of its slots, shared through the database. */
export * as BankRate from "./BankRate.ts"
/** The worker's bank operations (balance check, unattended listing) over http's bank client. */
export * as BankSources from "./BankSources.ts"
/** The fleet's funds checks as evidence beside a balance forecast: the checks, their window, the plan, the stored balances. */
export * as CheckEvidence from "./CheckEvidence.ts"
/** Why a funds check got no answer, as data: the bank client's typed failure, or a payment that could not be sent. */
export * as CheckFailure from "./CheckFailure.ts"
/** The record of funds checks shared by the fleet. */
export * as Checks from "./Checks.ts"
/** A consent's life: its notices before its end, and the bank's answers that say it is no longer valid. */
export * as ConsentLifecycle from "./ConsentLifecycle.ts"
/** The fleet's consents as data: a table the sweep reads at each run. */
export * as Consents from "./Consents.ts"
/** The fleet's PostgreSQL connection and tables. */
export * as Database from "./Database.ts"
/** What a worker run once says of its day: the consents not listed or listed in part, the records not read, the checks. */
export * as DayReport from "./DayReport.ts"
/** An embedded PostgreSQL from npm, on loopback. */
export * as EmbeddedDb from "./EmbeddedDb.ts"
/** One worker of the fleet: cluster runner, workflow engine, workflows. */
export * as Fleet from "./Fleet.ts"
/** The fleet's status read from its database: checks, budget, sweeps, webhooks, liveness, listings, warnings. */
export * as FleetStatus from "./FleetStatus.ts"
/** The durable funds check of one payment. */
export * as FundsCheckWorkflow from "./FundsCheckWorkflow.ts"
/** A worker's lifecycle events and their one-line form (logfmt or JSON lines). */
export * as Lifecycle from "./Lifecycle.ts"
/**
 * Each listing of the daily sweep reconciled against the fleet's rule: counts and the inferred rule, kept in the
 * fleet's database.
 */
export * as ListingReconciliation from "./ListingReconciliation.ts"
/** The pages of each consent's listing as read, kept the moment each is read, and its latest complete listing. */
export * as Listings from "./Listings.ts"
/** Whether the fleet still advances: the cluster reads its queue and the sweeps go on. */
export * as Liveness from "./Liveness.ts"
/** Prometheus metrics of a worker. */
export * as Metrics from "./Metrics.ts"
/** The change feed of standing orders: what changed between two complete listings of a consent. */
export * as OrderChanges from "./OrderChanges.ts"
/** http's budget store on PostgreSQL. */
export * as PgBudgetStore from "./PgBudgetStore.ts"
/** One plan per day: the fleet's plan settings, stored with it. */
export * as PlanSettings from "./PlanSettings.ts"
/** One worker of the fleet as a layer from its settings: runner, workflows, bank clients, stores, cron, metrics, webhooks. */
export * as Runner from "./Runner.ts"
/** The daily sweep: workflow, plan and cron. */
export * as Sweep from "./Sweep.ts"
/** The record of each day's sweep per consent. */
export * as SweepLog from "./SweepLog.ts"
/** The fleet's warnings ahead (payments at risk, the change feed, the consent lifecycle), kept as events. */
export * as Warnings from "./Warnings.ts"
/** Signed webhooks from a durable outbox: events, signature, verify. */
export * as Webhook from "./Webhook.ts"
