/**
 * The version of the `tppkit` command.
 *
 * @since 0.1.0
 */

/** The version the command reports with `--version` and in its PSU user agent. */
export const VERSION = "0.1.0"
