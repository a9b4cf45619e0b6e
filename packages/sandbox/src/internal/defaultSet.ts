/**
 * The mock bank's built-in default set and the generated sets of the fleet's runs (`Fixtures` re-exports them): the
 * data, generated deterministically around the fixed base date 2026-11-01, and the generator that makes it.
 */
import { Frequency, Iban, LocalDate } from "@tppkit/core"
import type { Account, Fixtures, StandingOrder } from "./fixtureModel.ts"

/** The date the default set is built around: `nextDate` values are the first nominal date on or after it. */
export const baseDate: LocalDate.LocalDate = LocalDate.parseUnsafe("2026-11-01")

/** IBANs of the default accounts (valid mod-97 checksums). */
export const ibans = {
  /** EUR, branch consent, comfortable balance. */
  eurBranch: "SK2411000000002612345678",
  /** CZK, electronic consent granted on the day the sandbox starts. */
  czkElectronic: "CZ0708000000001234567890",
  /** EUR, no consent (balance checks are refused), small balance. */
  eurNoConsent: "SK1709000000005012348888",
  /** EUR, electronic consent granted 2020-01-15 (long expired). */
  eurExpired: "AT611904300234573201"
} as const

/** The default client with every right (PISP, PIISP, AISP), bound to the first three default accounts. */
export const defaultClient = { clientId: "tppkit-sandbox", clientSecret: "sandbox-secret" } as const

/** A deterministic pseudo-random sequence (mulberry32), so the default set is the same on every run. */
const prng = (seed: number) => {
  let a = seed >>> 0
  return (): number => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/**
 * What each frequency plausibly pays: purposes with their creditor, and the range of whole units of an amount in
 * EUR and in CZK (a daily savings sweep of a few euros, a monthly rent of several hundred, a yearly insurance).
 */
const profiles: Record<
  Frequency.Frequency,
  {
    readonly payees: ReadonlyArray<readonly [purpose: string, creditor: string]>
    readonly eur: readonly [number, number]
    readonly czk: readonly [number, number]
  }
> = {
  DAIL: {
    payees: [
      ["Savings", "Spořitelna savings account"],
      ["Pocket money", "Tomáš Novák"]
    ],
    eur: [2, 12],
    czk: [50, 300]
  },
  DAI7: {
    payees: [
      ["Round-up savings", "Spořitelna savings account"],
      ["Parking", "Bratislava parking"]
    ],
    eur: [1, 6],
    czk: [20, 150]
  },
  WEEK: {
    payees: [
      ["Pocket money", "Tomáš Novák"],
      ["Cleaning", "Čistý domov s.r.o."],
      ["Groceries box", "Farmárska bedňa s.r.o."]
    ],
    eur: [10, 60],
    czk: [250, 1500]
  },
  MNTH: {
    payees: [
      ["Rent", "Landlord Jan Kral"],
      ["Electricity", "ZSE Energia a.s."],
      ["Phone", "Slovak Telekom a.s."],
      ["Gym", "Prague Fitness s.r.o."],
      ["Housing fund", "Bytové družstvo Ružinov"],
      ["Donation", "UNICEF Slovensko"]
    ],
    eur: [15, 750],
    czk: [400, 18000]
  },
  QUTR: {
    payees: [
      ["Water", "Vodárenská spoločnosť"],
      ["Insurance", "Allianz poistovňa"]
    ],
    eur: [40, 300],
    czk: [900, 7000]
  },
  SEMI: {
    payees: [
      ["Home insurance", "Wiener Städtische"],
      ["Property tax", "Magistrát mesta Bratislavy"]
    ],
    eur: [80, 600],
    czk: [2000, 15000]
  },
  YEAR: {
    payees: [
      ["Car insurance", "Allianz poistovňa"],
      ["Library", "Městská knihovna"],
      ["Phone plan", "Orange CZ"]
    ],
    eur: [30, 900],
    czk: [800, 20000]
  }
}

const streets = ["Hlavná 12", "Mlynské nivy 44", "Vodičkova 7", "Kärntner Straße 3", "Palisády 29"] as const
const towns = ["811 02 Bratislava SK", "110 00 Praha CZ", "040 01 Košice SK", "1010 Wien AT", "602 00 Brno CZ"] as const

const digits = (rnd: () => number, n: number): string => {
  let s = ""
  for (let i = 0; i < n; i++) s += String(Math.floor(rnd() * 10))
  return s
}

const fromBban = (country: string, bban: string): string => `${country}${Iban.checkDigits(country, bban)}${bban}`

const creditorIban = (rnd: () => number, i: number): string =>
  i % 3 === 0 ? fromBban("AT", digits(rnd, 16)) : fromBban(i % 3 === 1 ? "SK" : "CZ", digits(rnd, 20))

/**
 * Start dates at month ends and leap days, used for the first orders of the set
 * (packages/core/README.md, "Nominal dates").
 */
const edgeStarts = [
  "2024-01-31",
  "2024-02-29",
  "2025-08-31",
  "2026-01-31",
  "2026-03-31",
  "2026-04-30",
  "2028-02-29",
  "2025-05-31",
  "2024-02-29",
  "2026-12-31",
  "2023-10-31",
  "2026-11-30",
  "2027-01-31",
  "2024-12-31"
] as const

/** First nominal date on or after `from` (no calendar; DAIL and DAI7 step by days). */
const firstNominalOnOrAfter = (
  start: LocalDate.LocalDate,
  frequency: Frequency.Frequency,
  from: LocalDate.LocalDate
): LocalDate.LocalDate => {
  if (start >= from) return start
  const step = Frequency.monthStep(frequency)
  if (step !== undefined) {
    let k = 0
    while (LocalDate.addMonthsClamped(start, k * step) < from) k++
    return LocalDate.addMonthsClamped(start, k * step)
  }
  if (frequency === "WEEK") return LocalDate.addDays(start, Math.ceil((from - start) / 7) * 7)
  let d = from
  if (frequency === "DAIL") while (LocalDate.isWeekend(d)) d = LocalDate.addDays(d, 1)
  return d
}

const makeDefaults = (): Fixtures => {
  const rnd = prng(20261101)
  const accounts: Array<Account> = [
    {
      iban: ibans.eurBranch,
      owner: "Jana Nováková",
      currency: "EUR",
      balance: "12500.00",
      consent: { kind: "branch" }
    },
    {
      iban: ibans.czkElectronic,
      owner: "Petr Svoboda",
      currency: "CZK",
      balance: "250000.00",
      consent: { kind: "electronic" }
    },
    {
      iban: ibans.eurNoConsent,
      owner: "Kovo Trade s.r.o.",
      currency: "EUR",
      balance: "35.20",
      consent: { kind: "none" }
    },
    {
      iban: ibans.eurExpired,
      owner: "Anna Huber",
      currency: "EUR",
      balance: "5000.00",
      consent: { kind: "electronic", grantedOn: "2020-01-15" }
    }
  ]
  const owners = [accounts[0], accounts[0], accounts[1], accounts[0], accounts[1], accounts[2], accounts[3]] as const
  const standingOrders: Array<StandingOrder> = []
  for (let i = 0; i < 133; i++) {
    const frequency = Frequency.codes[i % 7] as Frequency.Frequency
    const debtor = owners[(i * 3 + Math.floor(i / 7)) % owners.length] as Account
    const startText =
      edgeStarts[i] ??
      `${2023 + Math.floor(rnd() * 4)}-${String(1 + Math.floor(rnd() * 12)).padStart(2, "0")}-${String(
        1 + Math.floor(rnd() * 28)
      ).padStart(2, "0")}`
    const start = LocalDate.parseUnsafe(startText)
    // End dates: most orders never end or end in 2027 or later; every 17th ended in 2025 (already finished).
    let end: LocalDate.LocalDate | undefined
    if (i % 17 === 16) end = LocalDate.parseUnsafe(`2025-${String(1 + (i % 12)).padStart(2, "0")}-15`)
    else if (i % 3 === 1) end = LocalDate.addDays(LocalDate.parseUnsafe("2027-01-01"), Math.floor(rnd() * 1800))
    if (end !== undefined && end < start) end = undefined
    const profile = profiles[frequency]
    const [purpose, name] = profile.payees[Math.floor(i / 7) % profile.payees.length]!
    const [low, high] = debtor.currency === "CZK" ? profile.czk : profile.eur
    const whole = low + Math.floor(rnd() * (high - low + 1))
    // CZK amounts are whole crowns, as Czech payments usually are; EUR amounts have cents
    const cents = debtor.currency === "CZK" ? 0 : Math.floor(rnd() * 100)
    const value = Number(`${whole}.${String(cents).padStart(2, "0")}`)
    const order: {
      -readonly [K in keyof StandingOrder]: StandingOrder[K]
    } = {
      orderId: `SO-${String(i + 1).padStart(4, "0")}`,
      debtor: { name: debtor.owner, iban: debtor.iban },
      creditor: {
        ...(i % 11 !== 10 ? { name } : {}),
        ...(i % 2 === 0
          ? { addressLine1: streets[i % streets.length] as string, addressLine2: towns[i % towns.length] as string }
          : {}),
        iban: creditorIban(rnd, i)
      },
      instructedAmount: { value, currency: debtor.currency },
      frequency
    }
    if (i % 5 !== 0) order.endToEndIdentification = `E2E-${2026}${String(i + 1).padStart(5, "0")}`
    if (i % 3 !== 2) order.remittanceInformation = `${purpose} ${frequency} #${i + 1}`
    if (i % 4 !== 3) order.standingOrderName = `${purpose} (${name})`.slice(0, 40)
    if (i % 9 !== 8) order.startDate = startText
    const next = firstNominalOnOrAfter(start, frequency, baseDate)
    if ((i % 4 === 0 || i % 9 === 8) && (end === undefined || next <= end)) order.nextDate = LocalDate.format(next)
    if (order.startDate === undefined && order.nextDate === undefined) order.nextDate = LocalDate.format(next)
    if (end !== undefined) order.endDate = LocalDate.format(end)
    standingOrders.push(order)
  }
  return {
    clients: [
      {
        clientId: defaultClient.clientId,
        clientSecret: defaultClient.clientSecret,
        rights: ["PISP", "PIISP", "AISP"],
        aispAccounts: [ibans.eurBranch, ibans.czkElectronic, ibans.eurNoConsent]
      },
      { clientId: "tppkit-piisp", clientSecret: "piisp-secret", rights: ["PIISP"], aispAccounts: [] },
      {
        clientId: "tppkit-aisp",
        clientSecret: "aisp-secret",
        rights: ["AISP", "PIISP"],
        aispAccounts: [ibans.eurExpired]
      }
    ],
    accounts,
    standingOrders
  }
}

/**
 * The built-in fixture set: 3 clients, 4 accounts (EUR and CZK; branch, electronic, none and expired electronic
 * consent) and 133 standing orders covering every frequency, month-end and leap-day starts, with and without
 * endDate, nextDate, creditor name and address, remittance information and endToEndIdentification.
 */
export const defaults: Fixtures = makeDefaults()

/**
 * The most standing orders one generated consent holds: its unattended listing fits the daily limit of 4 calls of
 * 100 orders (docs/bank-interface.md, "Daily limit").
 */
export const ordersPerConsent = 400

/** A generated fixture set and the consents it spreads its orders over (one debtor account each). */
export interface Generated {
  readonly fixtures: Fixtures
  /** Each consent's key (for `tppkit worker --consents KEY=IBAN,…`), its account and how many orders it holds. */
  readonly consents: ReadonlyArray<{ readonly key: string; readonly iban: string; readonly orders: number }>
}

const generatedFrequencies: ReadonlyArray<Frequency.Frequency> = [
  "MNTH",
  "MNTH",
  "WEEK",
  "QUTR",
  "MNTH",
  "YEAR",
  "SEMI"
]

/**
 * `count` generated standing orders (the same for the same count) and the accounts they need: one EUR account with
 * a branch consent per {@link ordersPerConsent} orders or fewer, each its own consent, all bound to the default
 * client; start dates spread over every day of the month in 2026, so that every day has payments; one account in
 * five holds little money, so that some balance checks answer DECL.
 */
export const generate = (count: number): Generated => {
  const rnd = prng(20261125 + count)
  const n = Math.max(0, Math.floor(count))
  const accountCount = Math.max(1, Math.ceil(n / ordersPerConsent))
  const accounts: Array<Account> = []
  for (let a = 0; a < accountCount; a++) {
    accounts.push({
      iban: fromBban("SK", `1100000000${String(a + 1).padStart(10, "0")}`),
      owner: `Fleet customer ${String(a + 1).padStart(3, "0")}`,
      currency: "EUR",
      balance: a % 5 === 4 ? "150.00" : "50000.00",
      consent: { kind: "branch" }
    })
  }
  const held = accounts.map(() => 0)
  const standingOrders: Array<StandingOrder> = []
  for (let i = 0; i < n; i++) {
    const a = i % accountCount
    held[a] = (held[a] ?? 0) + 1
    const debtor = accounts[a] as Account
    const frequency = generatedFrequencies[i % generatedFrequencies.length] as Frequency.Frequency
    const profile = profiles[frequency]
    const [purpose, name] = profile.payees[Math.floor(i / 7) % profile.payees.length]!
    const [low, high] = profile.eur
    const whole = low + Math.floor(rnd() * (high - low + 1))
    const cents = Math.floor(rnd() * 100)
    const month = 1 + (Math.floor(i / 28) % 12)
    const day = 1 + (i % 28)
    standingOrders.push({
      orderId: `GEN-${String(i + 1).padStart(6, "0")}`,
      debtor: { name: debtor.owner, iban: debtor.iban },
      creditor: { name, iban: creditorIban(rnd, i) },
      instructedAmount: { value: Number(`${whole}.${String(cents).padStart(2, "0")}`), currency: "EUR" },
      frequency,
      remittanceInformation: `${purpose} ${frequency} #${i + 1}`,
      startDate: `2026-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`
    })
  }
  return {
    fixtures: {
      clients: [
        {
          clientId: defaultClient.clientId,
          clientSecret: defaultClient.clientSecret,
          rights: ["PISP", "PIISP", "AISP"],
          aispAccounts: accounts.map((a) => a.iban)
        }
      ],
      accounts,
      standingOrders
    },
    consents: accounts.map((a, i) => ({
      key: `fleet-${String(i + 1).padStart(3, "0")}`,
      iban: a.iban,
      orders: held[i] ?? 0
    }))
  }
}
