#!/usr/bin/env node
// The `tppkit` executable as installed by npm. Deliberately old-fashioned JavaScript, so that any Node can parse
// it: it checks the Node version first and only then loads the command (dist/bin.js), which needs Node >= 22.19.
"use strict"
var required = "22.19"
var version = String(process.versions.node)
var have = version.split(".").map(Number)
var need = required.split(".").map(Number)
if (have[0] < need[0] || (have[0] === need[0] && have[1] < need[1])) {
  process.stderr.write("tppkit: needs Node.js " + required + " or newer; " + process.execPath + " is " + version + "\n")
  process.exit(1)
}
import("../dist/bin.js").catch((error) => {
  process.stderr.write("tppkit: could not start: " + String(error instanceof Error ? error.message : error) + "\n")
  process.exit(1)
})
