/**
 * The `tppkit` command line: commands built with `effect/cli` and the pure renderers they print with.
 *
 * @since 0.1.0
 */

/** `tppkit token`, `tppkit balance-check` and `tppkit standing-orders`. */
export * as BankCommands from "./BankCommands.ts"
/** The root command, `run` for programmatic use and `main` with one-line failures and exit codes. */
export * as Cli from "./Cli.ts"
/** Connection and PSU flags of the bank commands, with `TPPKIT_*` fallbacks. */
export * as Connection from "./Connection.ts"
/** The demo's program and layer (its steps are internal, one file each). */
export * as Demo from "./Demo.ts"
/** The `tppkit demo` command. */
export * as DemoCommand from "./DemoCommand.ts"
/** The demo report's tables: funds check per account, cash flow per month, the orders of a group at risk. */
export * as DemoReport from "./DemoReport.ts"
/** The pure core of `tppkit explain`: why a payment falls on its date, as sentences or one JSON object. */
export * as Explain from "./Explain.ts"
/** The `tppkit explain` command. */
export * as ExplainCommand from "./ExplainCommand.ts"
/** One-line failure messages and exit codes. */
export * as Failure from "./Failure.ts"
/** The `tppkit forecast` command. */
export * as ForecastCommand from "./ForecastCommand.ts"
/** `tppkit forecast`'s report as CSV: each account's ladder, one line per row. */
export * as ForecastCsv from "./ForecastCsv.ts"
/** The fleet's funds checks beside a balance forecast: `tppkit worker status --balances FILE --orders FILE`. */
export * as ForecastEvidence from "./ForecastEvidence.ts"
/** `tppkit forecast`'s report as a self-contained HTML page with a chart per account. */
export * as ForecastHtml from "./ForecastHtml.ts"
/** `tppkit forecast`'s report as one JSON document, amounts exact. */
export * as ForecastJson from "./ForecastJson.ts"
/** What `tppkit forecast` prints, in the words every format uses: the report, its findings, its parts. */
export * as ForecastReport from "./ForecastReport.ts"
/** `tppkit forecast`'s report as a text table. */
export * as ForecastTable from "./ForecastTable.ts"
/** Help texts at 80 columns: own flags first, required ones marked, examples last. */
export * as Help from "./Help.ts"
/** The self-contained HTML cash-flow picture (SVG chart and table) of `project --format html`. */
export * as Html from "./Html.ts"
/** The tables of `tppkit standing-orders`: the orders by debtor account, one payment of each per frequency. */
export * as OrderTables from "./OrderTables.ts"
/** Writing results to stdout and diagnostics to stderr. */
export * as Output from "./Output.ts"
/** The pure core of `tppkit project`: settings, lenient decoding, projection report. */
export * as Project from "./Project.ts"
/** The `tppkit project` command. */
export * as ProjectCommand from "./ProjectCommand.ts"
/** The output formats of `tppkit project`: the table and the HTML picture, JSON, CSV and iCalendar by schedule. */
export * as ProjectionFormats from "./ProjectionFormats.ts"
/** The pure core of `tppkit reconcile`: settings, the summary table and the JSON document. */
export * as Reconcile from "./Reconcile.ts"
/** The `tppkit reconcile` command. */
export * as ReconcileCommand from "./ReconcileCommand.ts"
/** Pure text rendering: aligned tables, wrapped words, key/value lists, skipped records, safe terminal text. */
export * as Render from "./Render.ts"
/** The `tppkit sandbox` command (mock bank on loopback). */
export * as SandboxCommand from "./SandboxCommand.ts"
/** Colour for terminals, honouring NO_COLOR and FORCE_COLOR. */
export * as Style from "./Style.ts"
/** The `tppkit translate` command: schedules to RRULE or the bank's codes, every loss named. */
export * as TranslateCommand from "./TranslateCommand.ts"
/** The command's version. */
export * as Version from "./Version.ts"
/** What `tppkit worker status` prints: the JSON document and the table of the fleet's checks and budget. */
export * as WorkerStatus from "./WorkerStatus.ts"
