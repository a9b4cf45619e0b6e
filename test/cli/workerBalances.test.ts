/**
 * `tppkit worker --balances FILE` is checked before the worker joins or any database is asked (issue 24), as
 * `tppkit forecast` reads a balances file: a file that cannot be read exits 1, a text that is no balances file 2, a
 * record that cannot be read 7 (the fleet stores a balances file whole or not at all). The database here is not
 * there: a good file goes on to it and fails there instead.
 */
import { join } from "node:path"
import { assert, describe, it } from "@effect/vitest"
import { run, workerWithoutDatabase } from "./inProcess.ts"
import { tempFolder } from "./tempFiles.ts"

const { dir, file } = tempFolder("tppkit-worker-balances")

const worker = (balances: string) => workerWithoutDatabase("--balances", balances)

const good = { iban: "SK2411000000002612345678", currency: "EUR", amount: "300.00", date: "2026-11-01" }

describe("tppkit worker --balances", () => {
  it("refuses a file that cannot be read (1), no balances file (2) or a record that cannot be read (7)", async () => {
    const missing = await run(worker(join(dir, "missing.json")))
    assert.strictEqual(missing.code, 1, missing.stderr)
    assert.match(missing.stderr, /cannot read balances file ".*missing\.json": no such file/)

    const notBalances = await run(worker(file("object.json", '{"accounts": []}')))
    assert.strictEqual(notBalances.code, 2, notBalances.stderr)
    assert.include(notBalances.stderr, 'expected a JSON array of records or an object with "balances"')

    const empty = await run(worker(file("empty.json", "[]")))
    assert.strictEqual(empty.code, 2, empty.stderr)
    assert.include(empty.stderr, "no balance in it")

    const bad = await run(
      worker(file("bad.json", JSON.stringify([good, { ...good, iban: "SK3112000000198742637541", amount: "1,5" }])))
    )
    assert.strictEqual(bad.code, 7, bad.stderr)
    assert.match(
      bad.stderr,
      /--balances \S+bad\.json: 1 record could not be read \(record 2: amount: .*\); .*none was stored/
    )

    // a good file goes on to the database (not there: exit 6, never a balances message)
    const fine = await run(worker(file("good.json", JSON.stringify([good]))))
    assert.notInclude([1, 2, 7], fine.code, fine.stderr)
    assert.notInclude(fine.stderr, "--balances")
  })
})
