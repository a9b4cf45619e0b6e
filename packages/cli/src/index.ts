/**
 * The `tppkit` command line: commands built with `effect/cli` and the pure renderers they print with.
 *
 * @since 0.1.0
 */
export * as Render from "./Render.ts"
