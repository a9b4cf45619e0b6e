/**
 * The mock bank's connection cap, fair to the clients it serves: a connection is idle while it waits for a request
 * (before its first one, or kept alive between two) and busy while one is being read or answered. When the cap is
 * full, a new connection closes the connection idle the longest to make room, so that sockets held open without a
 * request never keep a client out; only when every connection is busy is the new one closed at once.
 */
import type { Socket } from "node:net"

/** The TCP connection a socket runs on: the socket itself, or the one under a TLS socket. */
const tcpOf = (socket: Socket): Socket => (socket as Socket & { readonly _parent?: Socket | null })._parent ?? socket

/** Connections held by a server, at most `cap` of them. */
export const make = (cap: number) => {
  /**
   * Each TCP connection with whether it is idle, and the socket to close when it is evicted (its TLS socket once a
   * request came on it). The idle ones are in the order they became idle: an idle connection is moved to the end.
   */
  const held = new Map<Socket, { idle: boolean; top: Socket }>()

  /** Takes a new connection: evicts the longest-idle one when the cap is full, or refuses this one. */
  const accept = (socket: Socket): void => {
    if (held.size >= cap) {
      let victim: Socket | undefined
      for (const [tcp, state] of held) {
        if (state.idle) {
          victim = tcp
          break
        }
      }
      if (victim === undefined) {
        socket.destroy()
        return
      }
      const state = held.get(victim)
      held.delete(victim)
      state?.top.destroy()
      victim.destroy()
    }
    held.set(socket, { idle: true, top: socket })
    socket.once("close", () => held.delete(socket))
  }

  /** A request arrived on the socket. */
  const busy = (socket: Socket): void => {
    const state = held.get(tcpOf(socket))
    if (state === undefined) return
    state.idle = false
    state.top = socket
  }

  /** The socket's request was answered (or abandoned): it waits for the next one, unless it is closed. */
  const idle = (socket: Socket): void => {
    const tcp = tcpOf(socket)
    const state = held.get(tcp)
    if (state === undefined || socket.destroyed) return
    held.delete(tcp)
    state.idle = true
    held.set(tcp, state)
  }

  return { accept, busy, idle, size: () => held.size }
}
