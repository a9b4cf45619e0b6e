/**
 * A consent's life, pure: its notices before its last valid day (`consent.expiring` 14 and 3 days before, from the
 * validity stored per consent: `tppkit consents add KEY --valid-until D`; a consent given at a branch has none and
 * never expires by date), and whether the bank's answer says the consent is no longer valid (the error dialects'
 * consent codes, `CONSENT_EXPIRED`, `CONSENT_INVALID`, `CONSENT_UNKNOWN`, `CONSENT_REVOKED`, on 400, 401 or 403): a
 * 401 without such a code is a token to renew, not a dead consent. After the bank said so the fleet spends no budget
 * on the consent until a new consent id is configured.
 *
 * @since 0.1.0
 */
import { ErrorBody, LocalDate } from "@tppkit/core"
import { Result } from "effect"

/** The days before a consent's last valid day on which `consent.expiring` is raised. */
export const noticeDays: ReadonlyArray<number> = [14, 3]

/** The consent codes of the error dialects that say a consent is no longer valid. */
export const expiryCodes: ReadonlySet<string> = new Set([
  "CONSENT_EXPIRED",
  "CONSENT_INVALID",
  "CONSENT_UNKNOWN",
  "CONSENT_REVOKED"
])

/** A consent's notice: its last valid day, the days left on the sweep day and the notice it falls in (14 or 3). */
export interface Expiring {
  readonly consent: string
  readonly validUntil: string
  readonly daysLeft: number
  readonly notice: number
}

/**
 * The notice a consent is in on `day` (none: no end, further than the first notice, or past its end): the smallest
 * of {@link noticeDays} at or above the days left, so a consent first seen 2 days from its end gets the 3-day notice
 * alone.
 */
export const expiring = (
  consent: { readonly key: string; readonly validUntil?: string | undefined },
  day: string
): Expiring | undefined => {
  if (consent.validUntil === undefined) return undefined
  const end = LocalDate.parse(consent.validUntil)
  const today = LocalDate.parse(day)
  if (Result.isFailure(end) || Result.isFailure(today)) return undefined
  const daysLeft = end.success - today.success
  if (daysLeft < 0) return undefined
  const notice = [...noticeDays].sort((a, b) => a - b).find((n) => daysLeft <= n)
  return notice === undefined ? undefined : { consent: consent.key, validUntil: consent.validUntil, daysLeft, notice }
}

/**
 * The consents to name on `day` (`tppkit worker status`): those the bank said are no longer valid, and those within
 * the first notice ({@link noticeDays}: 14 days) of their last valid day or past it, each with its days left
 * (negative past its end; undefined for an expired one without a readable end), in the order given.
 */
export const toName = <A extends { readonly validUntil?: string | undefined; readonly expired?: unknown }>(
  consents: ReadonlyArray<A>,
  day: string
): Array<A & { readonly daysLeft: number | undefined }> => {
  const first = Math.max(...noticeDays)
  const today = LocalDate.parse(day)
  const out: Array<A & { readonly daysLeft: number | undefined }> = []
  for (const c of consents) {
    const end = c.validUntil === undefined ? undefined : LocalDate.parse(c.validUntil)
    const daysLeft =
      end === undefined || Result.isFailure(end) || Result.isFailure(today) ? undefined : end.success - today.success
    if (c.expired !== undefined || (daysLeft !== undefined && daysLeft <= first)) out.push({ ...c, daysLeft })
  }
  return out
}

/**
 * The consent code of a bank's answer that says the consent is no longer valid (a `BankError` of 400, 401 or 403
 * whose body carries one of {@link expiryCodes}); `undefined` for anything else.
 */
export const expiryCode = (failure: unknown): string | undefined => {
  const f = failure as {
    readonly _tag?: unknown
    readonly reason?: { readonly _tag?: unknown; readonly body?: unknown }
  }
  if (f?._tag !== "BankError" || typeof f.reason !== "object" || f.reason === null) return undefined
  const tag = f.reason._tag
  if (tag !== "Forbidden" && tag !== "Unauthorized" && tag !== "BadRequest") return undefined
  const body = f.reason.body as ErrorBody.ErrorBody | undefined
  if (body === undefined || typeof body !== "object") return undefined
  const code = ErrorBody.code(body)
  return code !== undefined && expiryCodes.has(code.toUpperCase()) ? code : undefined
}
