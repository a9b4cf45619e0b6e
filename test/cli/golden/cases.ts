/**
 * The cases of the golden test: a name (its reference file), the arguments, and stdin as a file path relative
 * to the repository root. Local cases need nothing; bank cases run against the mock bank (the customer present
 * for listings, so that no case spends the daily budget).
 */

/** One pinned run of the command. */
export interface Case {
  readonly name: string
  readonly args: ReadonlyArray<string>
  readonly stdin?: string
  /** The output has the time it was made (iCalendar DTSTAMP): compared with a placeholder for it. */
  readonly stamped?: true
}

const examples = "examples/orders.json"
const fixture = "test/cli/fixtures/orders.json"
const generated = "test/cli/golden/inputs/generated-100.json"
const listing = "test/cli/golden/inputs/sandbox-listing.json"
const formats = ["table", "json", "csv", "ics", "html"] as const

const project = (
  name: string,
  orders: string,
  from: string,
  to: string,
  more: ReadonlyArray<string> = []
): ReadonlyArray<Case> =>
  formats.map((format) => ({
    name: `project-${name}-${format}`,
    args: ["project", "--orders", orders, "--from", from, "--to", to, ...more, "--format", format]
  }))

const help = (command: ReadonlyArray<string>): Case => ({
  name: `help-${command.length === 0 ? "root" : command.join("-")}`,
  args: [...command, "--help"]
})

/** Cases that need no bank. */
export const localCases: ReadonlyArray<Case> = [
  { name: "version", args: ["--version"] },
  help([]),
  ...[
    ["project"],
    ["explain"],
    ["token"],
    ["balance-check"],
    ["standing-orders"],
    ["budget"],
    ["sandbox"],
    ["demo"],
    ["db"],
    ["db", "start"],
    ["worker"],
    ["worker", "status"]
  ].map(help),
  ...project("examples", examples, "2027-01-01", "2027-03-31"),
  {
    name: "explain-easter-table",
    args: ["explain", "--orders", examples, "--order", "SO-SAVINGS", "--date", "2027-03-29"]
  },
  {
    name: "explain-month-end-json",
    args: ["explain", "--orders", examples, "--order", "SO-RENT", "--date", "2027-01-01"].concat([
      "--convention",
      "modified-following",
      "--format",
      "json"
    ])
  },
  // translate: lossy by the default convention (exit 8), exact without it (exit 0), the generated orders' mix
  help(["translate"]),
  { name: "translate-rrule-text", args: ["translate", "--orders", examples, "--to", "rrule"] },
  {
    name: "translate-rrule-json",
    args: ["translate", "--orders", examples, "--to", "rrule", "--convention", "none", "--format", "json"]
  },
  {
    name: "translate-generated-json",
    args: ["translate", "--orders", generated, "--to", "rrule", "--calendar", "weekends", "--format", "json"]
  },
  { name: "translate-sbas", args: ["translate", "--orders", examples, "--to", "sbas"] },
  // the other standards (issue 23): each record as JSON, verdict and losses as for rrule
  { name: "translate-uk-v3", args: ["translate", "--orders", examples, "--to", "uk-v3"] },
  {
    name: "translate-berlin-group-json",
    args: ["translate", "--orders", examples, "--to", "berlin-group", "--convention", "none", "--format", "json"]
  },
  { name: "translate-ynab", args: ["translate", "--orders", examples, "--to", "ynab"] },
  // orders given as RRULEs beside the bank's codes; one rule the model cannot say (exit 7)
  {
    name: "project-rrule-csv",
    args: ["project", "--orders", "test/cli/golden/inputs/rrule-orders.json", "--from", "2027-01-01"].concat([
      "--to",
      "2027-03-31",
      "--format",
      "csv"
    ])
  },
  // --ics-rrule (issue 22): one recurring event per order, DTSTAMP the time of the run (a placeholder here); the
  // listing's nextDates as events of their own, and orders with no other payment written per payment, with why
  ...[
    ["examples", examples, "2027-01-01", "2027-03-31"],
    ["listing-nextdates", listing, "2026-11-01", "2026-11-16"]
  ].map(([name, orders, from, to]) => ({
    name: `project-${name}-ics-rrule`,
    args: ["project", "--orders", orders!, "--from", from!, "--to", to!, "--format", "ics", "--ics-rrule"],
    stamped: true as const
  })),
  // orders in six standards in one file (issue 23): each record's own convention where its standard carries one,
  // tolerances warned per record, one unrepresentable record unread (exit 7)
  {
    name: "project-mixed-csv",
    args: ["project", "--orders", "test/cli/golden/inputs/mixed-orders.json", "--from", "2027-01-01"].concat([
      "--to",
      "2027-06-30",
      "--format",
      "csv"
    ])
  },
  ...project("fixture", fixture, "2026-12-01", "2027-02-28"),
  ...project("generated", generated, "2027-01-01", "2027-01-21"),
  ...project("generated-auto", generated, "2027-01-01", "2027-01-21", ["--calendar", "auto"]).filter(
    (c) => !c.name.endsWith("-ics") && !c.name.endsWith("-html")
  ),
  ...project("listing-auto", listing, "2026-11-25", "2026-12-20", ["--calendar", "auto"]),
  // the weeks of the listing's nextDates: the payments on them are bank-confirmed
  ...project("listing-nextdates", listing, "2026-11-01", "2026-11-16").filter((c) =>
    ["json", "csv", "html"].some((f) => c.name.endsWith(`-${f}`))
  ),
  ...["weekends", "target", "SK", "CZ", "US"].map((calendar) => ({
    name: `project-generated-calendar-${calendar}`,
    args: ["project", "--orders", generated, "--from", "2027-03-20", "--to", "2027-04-10", "--calendar", calendar]
  })),
  ...["following", "preceding", "modified-following", "modified-preceding", "none"].map((convention) => ({
    name: `project-generated-convention-${convention}`,
    args: [
      "project",
      "--orders",
      generated,
      "--from",
      "2027-04-20",
      "--to",
      "2027-05-10",
      "--calendar",
      "SK",
      "--convention",
      convention,
      "--format",
      "csv"
    ]
  })),
  {
    name: "project-generated-holidays-json",
    args: [
      "project",
      "--orders",
      generated,
      "--from",
      "2027-06-01",
      "--to",
      "2027-06-15",
      "--holidays",
      "2027-06-07,2027-06-08",
      "--format",
      "json"
    ]
  },
  {
    name: "project-stdin-json",
    args: ["project", "--orders", "-", "--from", "2027-01-01", "--to", "2027-12-31", "--format", "json"],
    stdin: examples
  },
  {
    name: "project-year-table",
    args: ["project", "--orders", examples, "--from", "2026-01-01", "--to", "2028-12-31", "--calendar", "SK"]
  },
  // failures: one line on stderr and the exit code of their class
  ...["malformed.json", "not-a-list.json", "bare-array.json"].flatMap((file) =>
    ["table", "json"].map((format) => ({
      name: `project-${file.replace(".json", "")}-${format}`,
      args: [
        "project",
        "--orders",
        `test/cli/fixtures/${file}`,
        "--from",
        "2027-01-01",
        "--to",
        "2027-01-31",
        "--format",
        format
      ]
    }))
  ),
  {
    name: "project-missing-file",
    args: ["project", "--orders", "test/cli/golden/inputs/none.json", "--from", "2027-01-01", "--to", "2027-01-31"]
  },
  {
    name: "project-from-after-to",
    args: ["project", "--orders", examples, "--from", "2027-02-01", "--to", "2027-01-31"]
  },
  {
    name: "project-unknown-calendar",
    args: ["project", "--orders", examples, "--from", "2027-01-01", "--to", "2027-01-31", "--calendar", "XX"]
  },
  {
    name: "project-unknown-convention",
    args: ["project", "--orders", examples, "--from", "2027-01-01", "--to", "2027-01-31", "--convention", "sideways"]
  },
  { name: "project-missing-flag", args: ["project", "--from", "2027-01-01", "--to", "2027-01-31"] },
  { name: "project-bad-date", args: ["project", "--orders", examples, "--from", "2027-02-30", "--to", "2027-03-31"] },
  {
    name: "project-error-json",
    args: [
      "project",
      "--orders",
      "test/cli/fixtures/malformed.json",
      "--from",
      "2027-01-01",
      "--to",
      "2027-01-31",
      "--format",
      "json"
    ]
  },
  { name: "token-no-config", args: ["token"] }
]

const present = ["--psu-last-logged-time", "now"]
const EUR = "SK2411000000002612345678"
const CZK = "CZ0708000000001234567890"
const NO_CONSENT = "SK1709000000005012348888"

/** Cases against the mock bank. */
export const bankCases: ReadonlyArray<Case> = [
  { name: "bank-token-table", args: ["token"] },
  { name: "bank-token-json", args: ["token", "--format", "json"] },
  { name: "bank-token-scopes", args: ["token", "--scope", "PIISP AISP"] },
  ...["table", "json"].flatMap((format) => [
    {
      name: `bank-balance-appr-${format}`,
      args: ["balance-check", "--iban", EUR, "--amount", "100.00", "--currency", "EUR", "--format", format]
    },
    {
      name: `bank-balance-decl-${format}`,
      args: ["balance-check", "--iban", EUR, "--amount", "99999.99", "--currency", "EUR", "--format", format]
    },
    {
      name: `bank-balance-no-consent-${format}`,
      args: ["balance-check", "--iban", NO_CONSENT, "--amount", "10.00", "--currency", "EUR", "--format", format]
    },
    {
      name: `bank-balance-bad-amount-${format}`,
      args: ["balance-check", "--iban", EUR, "--amount", "12.345", "--currency", "EUR", "--format", format]
    },
    { name: `bank-orders-page0-${format}`, args: ["standing-orders", ...present, "--format", format] },
    {
      name: `bank-orders-page1-${format}`,
      args: ["standing-orders", ...present, "--page", "1", "--page-size", "10", "--format", format]
    },
    { name: `bank-orders-all-${format}`, args: ["standing-orders", ...present, "--all", "--format", format] },
    {
      name: `bank-orders-iban-${format}`,
      args: ["standing-orders", ...present, "--all", "--iban", CZK, "--format", format]
    },
    // the mock bank lists by tppkit's own rule on its listing day (Fixtures.baseDate): everything reconciles clean
    {
      name: `bank-orders-reconcile-${format}`,
      args: ["standing-orders", ...present, "--all", "--reconcile", "--as-of", "2026-11-01", "--format", format]
    }
  ]),
  // the rule in use as tppkit reconcile takes it (issue 40): on weekends only, the one date a TARGET holiday moved is
  // explained by another rule, not matched
  {
    name: "bank-orders-reconcile-weekends",
    args: [
      "standing-orders",
      ...present,
      "--all",
      "--reconcile",
      "--as-of",
      "2026-11-01",
      "--calendar",
      "weekends",
      "--holidays",
      "2026-12-24"
    ]
  },
  {
    name: "bank-balance-czk",
    args: ["balance-check", "--iban", CZK, "--amount", "100.00", "--currency", "CZK", "--access-token", "none"]
  }
]
