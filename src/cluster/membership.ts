import fs from 'node:fs';
import { log } from '../observability/log';
import { ClusterMismatch, type PeerFrom, type PeerTransport } from './transport';

export type MemberState = 'alive' | 'suspect' | 'down' | 'joining';

/** One peer agent as this agent sees it. */
export interface Member {
  addr: string;
  /** Its site id (hex); '' until it first answered. */
  actor: string;
  state: MemberState;
  /** Round-trip time of the last answered ping, milliseconds. */
  rttMs: number | null;
  /** When it last answered (ms since epoch); 0 never. */
  lastSeen: number;
  failures: number;
  /** When to probe it next (ms since epoch). */
  nextProbe: number;
}

/** What a ping carries both ways: the sender's view of the members, so membership spreads. */
interface PingBody {
  actor?: string;
  members: { addr: string; actor: string; state: MemberState }[];
}

export interface MembershipOptions {
  /** How often the probe loop runs, ms. */
  intervalMs: number;
  /** A probe without an answer in this long fails, ms. */
  timeoutMs: number;
  /** Failed probes in a row before a peer is taken for down. */
  downAfter: number;
  /** How often a down peer is probed, ms. */
  downProbeMs: number;
}

/**
 * Who is in the cluster and who answers. Each agent pings every known peer about once a second
 * (a down one every few seconds); each ping and its answer carry the sender's member list, so A
 * that knows B learns C from B. A peer failing `downAfter` probes in a row is down: nothing is
 * sent to it until a probe succeeds again. Members are saved to a file beside the database, so a
 * restarted agent rejoins by itself.
 */
export class Membership {
  readonly #t: PeerTransport;
  readonly #opts: MembershipOptions;
  readonly #file: string | null;
  readonly #members = new Map<string, Member>();
  readonly #self: string;
  #timer: NodeJS.Timeout | null = null;
  #saveTimer: NodeJS.Timeout | null = null;
  /** Called when a peer comes up (new, or back from down): sync with it soon. */
  onUp: (m: Member) => void = () => {};
  /** Called when a peer that answered stops answering (`downAfter` failed probes). */
  onDown: (m: Member) => void = () => {};

  constructor(
    transport: PeerTransport,
    selfActor: string,
    file: string | null,
    bootstrap: string[],
    opts: MembershipOptions,
  ) {
    this.#t = transport;
    this.#self = selfActor;
    this.#opts = opts;
    this.#file = file;
    for (const m of this.#load()) this.#add(m.addr, m.actor);
    for (const b of bootstrap) this.#add(b, '');
  }

  start(): void {
    // Drop ourselves in case we were saved under our own address (a restart on the same port).
    this.#members.delete(this.#t.addr);
    this.#timer = setInterval(() => this.#tick(), this.#opts.intervalMs);
    this.#timer.unref();
    this.#tick();
  }

  /** Every peer that answers, for sending to. */
  alive(): Member[] {
    return [...this.#members.values()].filter((m) => m.state === 'alive' || m.state === 'suspect');
  }

  all(): Member[] {
    return [...this.#members.values()].sort((a, b) => a.addr.localeCompare(b.addr));
  }

  /** The ping handler: note the sender as alive, learn its members, answer with ours. */
  handlePing(body: unknown, from: PeerFrom): PingBody {
    if (from.addr) this.#seen(from.addr, from.actor, null);
    this.#learn(body as PingBody);
    return this.#pingBody();
  }

  /** Notes that a peer answered some other request. */
  heardFrom(addr: string, actor: string): void {
    this.#seen(addr, actor, null);
  }

  #pingBody(): PingBody {
    return { actor: this.#self, members: this.all().map((m) => ({ addr: m.addr, actor: m.actor, state: m.state })) };
  }

  #learn(body: PingBody | undefined): void {
    for (const m of body?.members ?? []) {
      if (m.addr === this.#t.addr || m.actor === this.#self) continue;
      // Only learn peers others can reach; a down one we will find by probing if it comes back.
      if (m.state !== 'down') this.#add(m.addr, m.actor);
    }
  }

  #add(addr: string, actor: string): void {
    if (!addr || addr === this.#t.addr || (actor && actor === this.#self)) return;
    if (this.#members.has(addr)) return;
    if (actor) {
      // The same agent at a new address (restarted on another port) replaces the old entry, unless
      // the old one answers (then `addr` is the stale one).
      for (const [a, m] of this.#members) {
        if (m.actor !== actor) continue;
        if (m.state === 'alive' || m.state === 'suspect') return;
        this.#members.delete(a);
      }
    }
    this.#members.set(addr, { addr, actor, state: 'joining', rttMs: null, lastSeen: 0, failures: 0, nextProbe: 0 });
    this.#save();
  }

  #seen(addr: string, actor: string, rtt: number | null): void {
    if (addr === this.#t.addr || (actor && actor === this.#self)) return;
    if (!this.#members.has(addr)) this.#add(addr, actor);
    const m = this.#members.get(addr);
    if (!m) return;
    const wasUp = m.state === 'alive' || m.state === 'suspect';
    if (actor && m.actor !== actor) {
      for (const [a, o] of this.#members) if (o.actor === actor && a !== addr) this.#members.delete(a);
      m.actor = actor;
      this.#save();
    }
    m.state = 'alive';
    m.failures = 0;
    m.lastSeen = Date.now();
    if (rtt !== null) m.rttMs = rtt;
    if (!wasUp) this.onUp(m);
  }

  #tick(): void {
    const now = Date.now();
    for (const m of this.#members.values()) {
      if (m.nextProbe > now) continue;
      m.nextProbe = now + (m.state === 'down' ? this.#opts.downProbeMs : this.#opts.intervalMs * 2);
      void this.#probe(m);
    }
  }

  async #probe(m: Member): Promise<void> {
    const t0 = performance.now();
    try {
      const body = (await this.#t.call(m.addr, 'ping', this.#pingBody(), this.#opts.timeoutMs)) as PingBody & {
        actor?: string;
      };
      this.#seen(m.addr, body.actor ?? m.actor, performance.now() - t0);
      this.#learn(body);
    } catch (err) {
      if (err instanceof ClusterMismatch) {
        // Another cluster's agent: forget it (it refuses our changes and we refuse its).
        if (this.#members.delete(m.addr)) log.warn({ peer: m.addr }, `cluster: ${err.message}; not a member`);
        this.#save();
        return;
      }
      if (!this.#members.has(m.addr)) return;
      m.failures++;
      const was = m.state;
      m.state = m.failures >= this.#opts.downAfter ? 'down' : m.state === 'joining' ? 'joining' : 'suspect';
      if (m.state === 'down') m.rttMs = null;
      if (m.state === 'down' && was !== 'down' && m.lastSeen > 0) this.onDown(m);
    }
  }

  #load(): { addr: string; actor: string }[] {
    if (!this.#file) return [];
    try {
      const saved = JSON.parse(fs.readFileSync(this.#file, 'utf8')) as { members?: { addr: string; actor: string }[] };
      return saved.members ?? [];
    } catch {
      return [];
    }
  }

  /** Saves the member list soon (coalesced), atomically. */
  #save(): void {
    if (!this.#file || this.#saveTimer) return;
    this.#saveTimer = setTimeout(() => {
      this.#saveTimer = null;
      this.saveNow();
    }, 200);
    this.#saveTimer.unref();
  }

  saveNow(): void {
    if (!this.#file) return;
    const tmp = `${this.#file}.tmp`;
    try {
      fs.writeFileSync(
        tmp,
        JSON.stringify({ members: this.all().map((m) => ({ addr: m.addr, actor: m.actor })) }, null, 1),
      );
      fs.renameSync(tmp, this.#file);
    } catch {
      // best effort: the bootstrap list still works
    }
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    if (this.#saveTimer) clearTimeout(this.#saveTimer);
    this.#saveTimer = null;
    this.saveNow();
  }
}
