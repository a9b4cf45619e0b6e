/** Step 1: the three client-credentials tokens the demo uses, and the SCA-style one it passes per call. */

import { TokenService } from "@tppkit/http"
import type { Sandbox } from "@tppkit/sandbox"
import { Effect } from "effect"
import * as Output from "../../Output.ts"
import * as Render from "../../Render.ts"
import { scaToken } from "./bank.ts"
import { heading, INNER, indent, say } from "./text.ts"

const uses: ReadonlyArray<readonly [ReadonlyArray<string>, string]> = [
  [["PIISP"], "balance checks, branch consent"],
  [["AISP"], "listing standing orders"],
  [["AISP", "PIISP"], "SCA stand-in: electronic consent"]
]

/** Obtains and lists the tokens (never their values); returns the SCA-style token for electronic consents. */
export const step = (info: Sandbox.SandboxInfo["Service"]) =>
  Effect.gen(function* () {
    const tokens = yield* TokenService.TokenService
    yield* heading(1, "Tokens (client credentials; the values stay secret)")
    const issued: Array<TokenService.Token> = []
    for (const [scopes] of uses) issued.push(yield* tokens.get(scopes))
    yield* Output.line(
      indent(
        Render.table(
          [{ header: "Scope" }, { header: "Type" }, { header: "Expires in", align: "right" }, { header: "Used for" }],
          issued.map((t, i) => [
            t.scopes.join(" "),
            t.tokenType,
            t.expiresIn === undefined ? "?" : `${t.expiresIn} s`,
            uses[i]?.[1] ?? ""
          ]),
          INNER
        )
      )
    )
    yield* say(
      "The bank's SCA flow is not specified; this mock issues the SCA-style token by client credentials, bound " +
        "to the client's accounts, and the demo passes it per call like a token from the customer's login."
    )
    return scaToken(info, issued[2]!)
  })
