/**
 * The deadlines of the exchanges in flight on one undici agent, kept by one native timer (see {@link Deadlines}).
 */

/** An exchange as the deadline list sees it: its deadline, its neighbours in the list, and how to give it up. */
export interface Deadlined<T> {
  /** When the exchange is given up, in `performance.now()` milliseconds. */
  readonly deadline: number
  previous: T | undefined
  next: T | undefined
  /** Gives the exchange up (called once its deadline has passed). */
  expire(): void
}

/**
 * The deadlines of the exchanges in flight on one agent, kept by one native timer armed for the earliest of them:
 * a request adds itself and removes itself when it ends, and the timer is re-armed only when a new deadline is
 * earlier than the armed one, or when it fires (then it gives up every exchange past its deadline and re-arms for
 * the next). Sequential requests with the same timeout thus cost no timer operation each.
 */
export class Deadlines<T extends Deadlined<T>> {
  /** The exchanges in flight, a doubly linked list through their `previous` and `next` (newest first). */
  private first: T | undefined = undefined
  private timer: ReturnType<typeof setTimeout> | undefined = undefined
  private armedFor = Number.POSITIVE_INFINITY

  /** Puts an exchange on the list, re-arming the timer when its deadline is earlier than the armed one. */
  add(entry: T): void {
    const first = this.first
    entry.next = first
    if (first !== undefined) first.previous = entry
    this.first = entry
    if (entry.deadline < this.armedFor) this.arm(entry.deadline)
  }

  /** Takes an exchange off the list; a second call for the same one changes nothing. */
  delete(entry: T): void {
    const { previous, next } = entry
    if (previous !== undefined) previous.next = next
    else if (this.first === entry) this.first = next
    else return
    if (next !== undefined) next.previous = previous
    entry.previous = undefined
    entry.next = undefined
  }

  /** Stops the timer (the agent is closed). */
  clear(): void {
    if (this.timer !== undefined) clearTimeout(this.timer)
    this.timer = undefined
    this.armedFor = Number.POSITIVE_INFINITY
  }

  /** Arms the one timer for `at`, replacing the armed one. */
  private arm(at: number): void {
    if (this.timer !== undefined) clearTimeout(this.timer)
    this.armedFor = at
    this.timer = setTimeout(() => this.fire(), Math.max(1, Math.ceil(at - performance.now())))
    // never what keeps a process alive: a request in flight holds its socket, which does
    this.timer.unref()
  }

  /** Gives up every exchange past its deadline and re-arms for the earliest one left. */
  private fire(): void {
    this.timer = undefined
    this.armedFor = Number.POSITIVE_INFINITY
    const now = performance.now()
    let next = Number.POSITIVE_INFINITY
    const due: Array<T> = []
    for (let entry = this.first; entry !== undefined; entry = entry.next) {
      if (entry.deadline <= now) due.push(entry)
      else if (entry.deadline < next) next = entry.deadline
    }
    // given up after the walk: giving one up takes it off the list, and its abort may end others too
    for (const entry of due) entry.expire()
    if (next !== Number.POSITIVE_INFINITY && next < this.armedFor) this.arm(next)
  }
}
