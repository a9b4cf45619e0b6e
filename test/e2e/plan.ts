/**
 * What a fleet should check for the mock bank's consent on a day: the bank's listing (read with the customer present,
 * so no budget is spent) planned by `Sweep.plan` with the fleet's defaults (2 working days, TARGET, 08:00
 * Europe/Bratislava), as the text a store keeps. The fleet tests compare the checks a fleet made with it.
 */
import { Calendar, LocalDate } from "@tppkit/core"
import { BankClient } from "@tppkit/http"
import { Checks, Sweep } from "@tppkit/worker"
import { Effect, type Redacted, Stream } from "effect"

/** The payments due for checks on `day` of the seed bank's consent (its client id) at the mock bank `info`. */
export const expectedChecks = (
  info: { readonly baseUrl: string; readonly clientId: string; readonly clientSecret: Redacted.Redacted<string> },
  day: string
): Promise<Array<Checks.DueText>> =>
  Effect.runPromise(
    Effect.flatMap(Effect.service(BankClient.BankClient), (client) =>
      Stream.runCollect(client.standingOrders({ psu: { ipAddress: "127.0.0.1", deviceOs: "test", userAgent: "test" } }))
    ).pipe(
      Effect.provide(
        BankClient.layerNodeFromOptions(
          { environment: "sandbox", baseUrl: info.baseUrl, clientId: info.clientId, clientSecret: info.clientSecret },
          { budgetFile: "memory" }
        )
      ),
      Effect.map((pages) =>
        Sweep.plan(
          pages.flatMap((p) => p.body.orders),
          info.clientId,
          LocalDate.parseUnsafe(day),
          { daysBefore: 2, calendar: Calendar.target, timeZone: "Europe/Bratislava", hour: 8 }
        ).map(Checks.text)
      )
    )
  )
