/**
 * @tppkit/sandbox: a mock bank serving the interface on loopback, for development, tests, demos and benchmarks.
 *
 * @since 0.1.0
 */

/** Faults injected per request (`X-Sandbox-Fault`) or at a seeded global rate. */
export * as Faults from "./Faults.ts"
/** The fixture format (clients, accounts, consents, standing orders) and the built-in default set. */
export * as Fixtures from "./Fixtures.ts"
/** The in-memory request journal. */
export * as Journal from "./Journal.ts"
/** The OpenAPI document of the interface. */
export * as OpenApi from "./OpenApi.ts"
/** The bank's date rule for its listed nextDates (convention, calendar or every day, nominal dates, anomalies). */
export * as Personality from "./Personality.ts"
/** The mock bank as a scoped Layer, and `SandboxInfo`. */
export * as Sandbox from "./Sandbox.ts"
/** The replaceable clock the mock bank reads. */
export * as SandboxClock from "./SandboxClock.ts"
