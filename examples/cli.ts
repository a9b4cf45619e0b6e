// The pure core of `tppkit project`: validate settings, decode orders leniently, project, render.
import { Project, ProjectionFormats, Render } from "@tppkit/cli"
import { Export } from "@tppkit/schedule"
import { Result } from "effect"

const body = JSON.stringify({
  pageCount: "1",
  standingOrders: [
    {
      orderId: "SO-RENT",
      debtor: { name: "Jana Novakova", iban: "SK2411000000002612345678" },
      creditor: { name: "Landlord s.r.o.", iban: "SK6609000000005012345678" },
      instructedAmount: { value: 1250.5, currency: "EUR" },
      startDate: "2024-01-31",
      frequency: "MNTH"
    },
    {
      orderId: "SO-BAD",
      debtor: { name: "Jana Novakova", iban: "SK2411000000002612345678" },
      creditor: { iban: "SK6609000000005012345678" },
      instructedAmount: { value: 20, currency: "EUR" },
      startDate: "2024-01-15",
      frequency: "FOO"
    }
  ]
})

const settings = Result.getOrThrow(
  Project.settings({ from: "2024-01-01", to: "2024-06-30", calendar: "target", convention: "following" })
)
const report = Project.report(Result.getOrThrow(Project.decodeOrders(body)), settings)

// 31 March 2024 is a Sunday and 1 April Easter Monday: the March rent is paid on 2 April
const json = JSON.parse(Render.text(Export.json(report))) // the bytes of `--format json`
const dates = json.payments.map((p: { executionDate: string }) => p.executionDate).join(" ")
if (dates !== "2024-01-31 2024-02-29 2024-04-02 2024-04-30 2024-05-31" || json.skipped[0]?.orderId !== "SO-BAD") {
  throw new Error(`unexpected projection: ${dates}`)
}

// a report can be read again by every writer: the table and the CSV show the same five payments
const table = ProjectionFormats.projectionTable(report) // the table `tppkit project` prints
const csv = Render.text(Export.csv(report)) // and its `--format csv`
if (!table.includes("Totals (5 payments)") || csv.trimEnd().split("\r\n").length !== 6) {
  throw new Error("the report was not read whole again")
}
console.log(table)
console.log(csv)
