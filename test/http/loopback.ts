/** A test's own HTTP(S) server on loopback: started on a free port, and closed with every connection it holds. */
import { once } from "node:events"
import type { Server as HttpServer } from "node:http"
import type { Server as HttpsServer } from "node:https"
import type { AddressInfo } from "node:net"

/** Starts `server` on a free port of 127.0.0.1; the port. */
export const listenLoopback = async (server: HttpServer | HttpsServer): Promise<number> => {
  server.listen(0, "127.0.0.1")
  await once(server, "listening")
  return (server.address() as AddressInfo).port
}

/** Closes `server` and every connection it still holds, once it has closed. */
export const closeServer = async (server: HttpServer | HttpsServer): Promise<void> => {
  server.closeAllConnections()
  server.close()
  await once(server, "close")
}
