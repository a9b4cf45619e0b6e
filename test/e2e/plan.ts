/**
 * What a fleet should check for the mock bank's consent on a day: the bank's listing (read with the customer present,
 * so no budget is spent) planned by `Sweep.plan` with the fleet's defaults (2 working days, TARGET, 08:00
 * Europe/Bratislava), as the text a store keeps. The fleet tests compare the checks a fleet made with it.
 */
import { Calendar, LocalDate } from "@tppkit/core"
import { BankClient } from "@tppkit/http"
import { Checks, Sweep } from "@tppkit/worker"
import { DateTime, Effect, Stream } from "effect"
import { type BankInfo, clientOf } from "./fleetSupport.ts"

/**
 * The payments due for checks on `day` of the seed bank's consent (its client id) at the mock bank `info`; the
 * customer logged in now, or at `bankTime` for a bank on a clock of the test's.
 */
export const expectedChecks = (info: BankInfo, day: string, bankTime?: number): Promise<Array<Checks.DueText>> =>
  Effect.runPromise(
    Effect.gen(function* () {
      const client = yield* BankClient.BankClient
      const lastLoggedTime = bankTime === undefined ? yield* DateTime.now : DateTime.makeUnsafe(bankTime)
      const psu = { ipAddress: "127.0.0.1", deviceOs: "test", userAgent: "test", lastLoggedTime }
      const pages = yield* Stream.runCollect(client.standingOrders({ psu }))
      return Sweep.plan(
        pages.flatMap((p) => p.body.orders),
        info.clientId,
        LocalDate.parseUnsafe(day),
        { daysBefore: 2, calendar: Calendar.target, timeZone: "Europe/Bratislava", hour: 8 }
      ).map(Checks.text)
    }).pipe(Effect.provide(clientOf(info)))
  )

/** The keys (`orderId/nominalDate`) of checks, sorted: to compare a fleet's checks with the plan. */
export const keysOf = (checks: ReadonlyArray<{ readonly orderId: string; readonly nominalDate: string }>) =>
  checks.map((c) => `${c.orderId}/${c.nominalDate}`).sort()
