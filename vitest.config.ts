import { defineConfig } from "vitest/config"

export default defineConfig({
  resolve: { conditions: ["@tppkit/source"] },
  ssr: { resolve: { conditions: ["@tppkit/source"] } },
  test: {
    include: ["test/**/*.test.ts", "packages/*/README.md.test.ts"],
    pool: "forks",
    testTimeout: 30_000,
    hookTimeout: 30_000
  }
})
