#!/usr/bin/env node
// The `tppkit` executable as installed by npm. Deliberately old-fashioned JavaScript, so that any Node can parse
// it: it checks the Node version first and only then loads the command, which needs Node >= 22.19: the bundled
// build (dist/bundle/bin.js, made by the repository's build) when it is there, else dist/bin.js. Node's module
// compile cache is switched on for it (in Node's default place, or NODE_COMPILE_CACHE; NODE_DISABLE_COMPILE_CACHE=1
// turns it off).
// A failure here is one line on stderr (one JSON line with `--format json`, as the command's own) and exit code 1.
"use strict"
var required = "22.19"
var version = String(process.versions.node)
var have = version.split(".").map(Number)
var need = required.split(".").map(Number)
var fail = (message) => {
  var args = process.argv.slice(2)
  var json = args.indexOf("--format=json") >= 0 || args.join(" ").indexOf("--format json") >= 0
  process.stderr.write(
    json
      ? JSON.stringify({ error: { kind: "failure", message: message, exitCode: 1 } }) + "\n"
      : "tppkit: " + message + "\n"
  )
  process.exit(1)
}
if (have[0] < need[0] || (have[0] === need[0] && have[1] < need[1])) {
  fail("needs Node.js " + required + " or newer; " + process.execPath + " is " + version)
}
var path = require("node:path")
var bundle = path.join(__dirname, "..", "dist", "bundle", "bin.js")
var entry = require("node:fs").existsSync(bundle) ? "../dist/bundle/bin.js" : "../dist/bin.js"
var module_ = require("node:module")
if (typeof module_.enableCompileCache === "function") module_.enableCompileCache()
import(entry).catch((error) => {
  fail("could not start: " + String(error instanceof Error ? error.message : error))
})
