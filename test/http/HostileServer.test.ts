import { request } from "undici"
import { describe, expect, it } from "vitest"
import { endlessJson, start } from "./hostile.ts"

const post = (url: string) =>
  request(url, { method: "POST", body: "{}", headers: { "content-type": "application/json" } })

describe("the hostile test server", () => {
  it("answers as scripted, records requests, and closes itself", async () => {
    const server = await start([
      { _tag: "respond", status: 201, headers: { "x-a": "1" }, body: '{"ok":true}' },
      { _tag: "stream", status: 200, chunk: "ab", count: 3 },
      { _tag: "reset" }
    ])
    try {
      const first = await post(`${server.baseUrl}/one`)
      expect(first.statusCode).toBe(201)
      expect(first.headers["x-a"]).toBe("1")
      expect(await first.body.text()).toBe('{"ok":true}')
      const second = await post(`${server.baseUrl}/two`)
      expect(await second.body.text()).toBe("ababab")
      await expect(post(`${server.baseUrl}/three`)).rejects.toThrow()
      expect(server.received.map((r) => r.path)).toEqual(["/one", "/two", "/three"])
      expect(server.received[0]?.body).toBe("{}")
      expect(server.written.slice(0, 2)).toEqual([11, 6])
    } finally {
      await server.close()
    }
  })

  it("cuts a body short against its Content-Length, and an endless stream stops when the client goes", async () => {
    const server = await start([{ _tag: "respond", status: 200, body: "abc", contentLength: 10 }, endlessJson])
    try {
      const cut = await post(server.baseUrl)
      await expect(cut.body.text()).rejects.toThrow()
      const endless = await post(server.baseUrl)
      let seen = 0
      for await (const chunk of endless.body) {
        seen += (chunk as Buffer).length
        if (seen > 1 << 20) break
      }
      expect(seen).toBeGreaterThan(1 << 20)
    } finally {
      await server.close()
    }
  })

  it("resets requests past its count, and a hanging answer ends with close()", async () => {
    const server = await start(() => ({ _tag: "hang" }), { maxRequests: 1 })
    const hanging = post(server.baseUrl)
    while (server.received.length === 0) await new Promise((r) => setTimeout(r, 5))
    await expect(post(server.baseUrl)).rejects.toThrow()
    await server.close()
    await expect(hanging).rejects.toThrow()
  })
})
