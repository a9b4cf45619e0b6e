/** Input files for the suites that run the command on files of their own, in a folder removed after the suite. */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll } from "vitest"

/**
 * A new folder under the system's temporary one, named from `prefix` and removed after the calling file's tests;
 * `file(name, content)` writes a file in it (text as it is, any other value as JSON) and gives its path.
 */
export const tempFolder = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), `${prefix}-`))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  const file = (name: string, content: unknown): string => {
    const path = join(dir, name)
    writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content))
    return path
  }
  return { dir, file }
}
