/**
 * The output formats of the commands whose reports are loaded only when they run, the default first: a command's
 * definition reads its list from here, so that `--help` and start-up do not load the report, the projection and
 * the calendars behind it (BENCHMARKS.md, "Start-up of the command").
 */

/** `tppkit project`: the names of `ProjectionFormats.projectionRenderers` (a test checks that they agree). */
export const project = ["table", "json", "csv", "ics", "html"] as const
/** `tppkit reconcile`. */
export const reconcile = ["table", "json"] as const
/** `tppkit explain`. */
export const explain = ["table", "json"] as const
/** `tppkit forecast`. */
export const forecast = ["table", "json", "csv", "html"] as const
