import path from 'node:path';
import type { ChangeFeed, Changeset } from '../bus/changeset';
import { DEFAULT_GOSSIP_TUNING, type GossipConfig, type GossipTuning, formatAddr } from '../config/config';
import type { ChangeCapture } from '../crdt/capture';
import { ChangeMerger, type MergeResult, type RemoteChangeset } from '../crdt/merge';
import type { Engine } from '../engine/engine';
import { VersionBook, gapCount, headsDigest, missingRanges } from './bookkeeping';
import { ChangeReader } from './change-reader';
import { type Member, Membership } from './membership';
import { pushFanout, pushGroups } from './push-tree';
import type { TlsMaterial } from '../auth/tls-material';
import { type LineSink, type PeerFrom, PeerTransport } from './transport';
import { log } from '../observability/log';
import { LagClock } from './lag-clock';
import { type WireChangeset, type WireCleared, type WireHeads, type WireRow, decodeRows } from './wire';

const PUSH_QUEUE = 20_000;
const PUSH_BATCH = 500;
const STREAM_IDLE_MS = 15_000;
/** Every this many sync rounds, one peer is pulled from even when all are known to be level. */
const SYNC_ANYWAY_ROUNDS = 10;

interface PushQueue {
  queue: WireChangeset[];
  inFlight: boolean;
}

/**
 * Replication: membership, push of committed changesets (best effort), anti-entropy sync (what
 * guarantees convergence), and the merge of what peers send. Local changesets come from the feed
 * (origin 'local'); merged ones go back on it as origin 'remote' (the merger publishes them).
 */
export class Cluster {
  readonly #capture: ChangeCapture;
  readonly #feed: ChangeFeed;
  readonly #cfg: GossipConfig;
  readonly #tune: GossipTuning;
  readonly #transport: PeerTransport;
  readonly #members: Membership;
  readonly #merger: ChangeMerger;
  #book!: VersionBook;
  #lag!: LagClock;
  #reader!: ChangeReader;
  readonly #push = new Map<string, PushQueue>();
  /** Pushed changesets being merged now (`actor:version`). */
  readonly #arriving = new Set<string>();
  /** Each peer's heads as last heard (its sync request or answer), for the replication lag. */
  readonly #peerHeads = new Map<string, WireHeads>();
  readonly #syncSoon = new Set<string>();
  /**
   * Each peer's heads digest as last heard (on a membership message or answer, or in a sync), so a
   * sync round passes over a peer that holds what this agent holds.
   */
  readonly #peerDigest = new Map<string, string>();
  /** This agent's heads digest, and what it was computed from (the book's stamp, the local head). */
  #digest = { book: -1, local: -1, d: '' };
  #syncing = false;
  #syncTimer: NodeJS.Timeout | null = null;
  #lastSync = 0;
  #window = 256;
  #stopped = false;
  readonly #logged = new Map<string, number>();
  readonly #stats = {
    pushed: 0,
    pushReceived: 0,
    merged: 0,
    syncRounds: 0,
    synced: 0,
    syncSkipped: 0,
    deferred: 0,
  };

  private constructor(
    engine: Engine<Changeset>,
    capture: ChangeCapture,
    feed: ChangeFeed,
    cfg: GossipConfig,
    tune: GossipTuning,
    tls: TlsMaterial | null,
  ) {
    this.#capture = capture;
    this.#feed = feed;
    this.#cfg = cfg;
    this.#tune = tune;
    this.#merger = new ChangeMerger(engine, capture, feed);
    this.#transport = new PeerTransport(
      cfg.clusterId,
      capture.actor,
      {
        json: {
          ping: (body, from) => this.#members.handlePing(body, from),
          changes: (body, from) => this.#onChanges(body as { cs: WireChangeset[] }, from),
        },
        stream: { sync: (body, from, out) => this.#serveSync(body as { heads: WireHeads }, from, out) },
      },
      tls,
      { frames: tune.frames },
    );
    const file =
      engine.path === ':memory:'
        ? null
        : path.join(path.dirname(engine.path), `${path.basename(engine.path)}.members.json`);
    this.#members = new Membership(this.#transport, capture.actor, file, cfg.bootstrap.map(formatAddr), {
      intervalMs: tune.pingIntervalMs,
      timeoutMs: tune.pingTimeoutMs,
      downAfter: tune.downAfter,
      downProbeMs: tune.downPingIntervalMs,
      forgetAfterMs: tune.forgetAfterMs,
    });
    this.#members.onUp = (m) => {
      log.info({ peer: m.addr, actor: m.actor }, 'peer up');
      this.#requestSync(m.addr);
    };
    this.#members.stateDigest = () => this.#headsDigest();
    this.#members.onStateDigest = (addr, h) => this.#peerDigest.set(addr, h);
    this.#members.onDown = (m) =>
      m.state === 'left'
        ? log.info({ peer: m.addr, actor: m.actor }, 'peer left')
        : log.warn({ peer: m.addr, actor: m.actor, failed_probes: m.failures }, 'peer down');
  }

  /** Opens the bookkeeping, listens for peers, joins through the bootstrap peers and starts syncing. */
  static async start(
    engine: Engine<Changeset>,
    capture: ChangeCapture,
    feed: ChangeFeed,
    cfg: GossipConfig,
    tls: TlsMaterial | null = null,
    tune: Partial<GossipTuning> = {},
  ): Promise<Cluster> {
    const c = new Cluster(engine, capture, feed, cfg, { ...DEFAULT_GOSSIP_TUNING, ...tune }, tls);
    const lease = await engine.lease();
    try {
      c.#book = VersionBook.open(lease.db, capture.actor, () => capture.version);
      c.#lag = new LagClock((actor) => c.#book.get(actor));
    } finally {
      lease.release();
    }
    c.#reader = new ChangeReader(engine.path, () => engine.schema);
    await c.#transport.listen(cfg.addr, cfg.advertise ?? null);
    c.#members.start();
    void c.#pushLocal();
    c.#syncTimer = setInterval(() => void c.#syncRound(), c.#tune.syncIntervalMs);
    c.#syncTimer.unref();
    return c;
  }

  /** Takes re-read certificates for new peer connections (after `patina reload`). */
  reloadTls(tls: TlsMaterial): void {
    this.#transport.reloadTls(tls);
  }

  /** The address peers reach this agent on. */
  get addr(): string {
    return this.#transport.addr;
  }

  /** Where this agent listens for peers (differs from `addr` when an advertised address is set). */
  get listening(): string {
    return this.#transport.listening;
  }

  // ---- push: committed changesets go down a tree of the alive peers, one copy each ----

  async #pushLocal(): Promise<void> {
    while (!this.#stopped) {
      const consumer = this.#feed.consume('cluster', 100_000);
      try {
        for await (const cs of consumer) {
          if (this.#stopped) break;
          if (cs.origin !== 'local' || cs.changes.length > this.#tune.pushMaxRows) continue;
          const rows = (await this.#reader.read(cs.actor, cs.version, cs.version)).get(cs.version);
          if (!rows) continue;
          const peers = shuffle(this.#members.alive().map((m) => m.addr));
          this.#spread({ a: cs.actor, v: cs.version, r: rows, part: 0, end: true }, peers);
        }
      } catch {
        // Fell behind the feed: what was dropped reaches the peers through sync.
      } finally {
        consumer.close();
      }
    }
  }

  /**
   * Sends a changeset to `peers`, the part of the push tree this agent covers: they are cut into
   * fanout groups (push-tree.ts); the first of each group gets it with the rest of its group (`to`)
   * to cover in turn.
   * Each agent gets one copy per write (the random rumour it replaces sent about fanout copies to each).
   * The origin shuffles its alive peers per changeset, so the agents that forward change from write to
   * write. A peer this agent knows to be down or gone is skipped, and the rest of its group covered.
   */
  #spread(c: WireChangeset, to: string[]): void {
    const peers = to.filter((a) => a !== this.addr && !this.#members.gone(a));
    for (const { addr, cover } of pushGroups(peers, pushFanout(this.#members.alive().length, this.#tune))) {
      let q = this.#push.get(addr);
      if (!q) this.#push.set(addr, (q = { queue: [], inFlight: false }));
      q.queue.push({ ...c, to: cover });
      if (q.queue.length > PUSH_QUEUE) q.queue.splice(0, q.queue.length - PUSH_QUEUE);
      this.#pump(addr, q);
    }
  }

  #pump(addr: string, q: PushQueue): void {
    if (q.inFlight || q.queue.length === 0 || this.#stopped) return;
    const batch = q.queue.splice(0, PUSH_BATCH);
    q.inFlight = true;
    this.#stats.pushed += batch.length;
    this.#transport
      .call(addr, 'changes', { cs: batch }, 10_000)
      .catch(() => {
        // Best effort: the peer gets it by sync; the part of the tree below it is covered from here.
        const up = this.#members.alive().some((m) => m.addr === addr);
        const failed = up ? batch : [...batch, ...q.queue.splice(0)];
        for (const c of failed) if (c.to && c.to.length > 0) this.#spread({ ...c, to: undefined }, c.to);
      })
      .finally(() => {
        q.inFlight = false;
        this.#pump(addr, q);
      });
  }

  /**
   * The agents a pushed changeset is to be passed on to, as a peer listed them, kept to the members
   * this agent knows, each once: a peer's list cannot make this agent push to other addresses, nor
   * to one address many times. A member this agent has not heard of yet gets it by sync.
   */
  #knownTargets(to: unknown): string[] {
    if (!Array.isArray(to) || to.length === 0) return [];
    const known = new Set(this.#members.alive().map((m) => m.addr));
    return [...new Set(to.filter((a): a is string => typeof a === 'string' && known.has(a)))];
  }

  async #onChanges(body: { cs: WireChangeset[] }, from: PeerFrom): Promise<unknown> {
    this.#members.heardFrom(from.addr, from.actor);
    const all = body.cs ?? [];
    this.#stats.pushReceived += all.length;
    // Passed on at once, while this agent merges it (a hop costs the network, not the merge too),
    // and even when this agent has it already (from sync): the agents below it in the tree have not.
    for (const c of all) {
      const to = this.#knownTargets(c.to);
      if (to.length > 0) this.#spread({ ...c, to: undefined }, to);
    }
    for (const c of all) if (c.a !== this.#capture.actor) this.#lag.heard(c.a, c.v);
    const fresh = all.filter(
      (c) =>
        c.part === 0 &&
        c.end &&
        c.a !== this.#capture.actor &&
        !this.#book.has(c.a, c.v) &&
        !this.#arriving.has(`${c.a}:${c.v}`),
    );
    if (fresh.length === 0) return {};
    // A copy that arrives during the merge (a sender that took over a failed branch) is not merged again.
    const keys = fresh.map((c) => `${c.a}:${c.v}`);
    for (const k of keys) this.#arriving.add(k);
    try {
      await this.#merge(
        fresh.map((c) => ({ actor: c.a, version: c.v, rows: decodeRows(c.r) })),
        [],
        from.addr,
      );
    } finally {
      for (const k of keys) this.#arriving.delete(k);
    }
    return {};
  }

  // ---- anti-entropy: exchange heads and gaps, send what the other lacks ----

  #requestSync(addr: string): void {
    this.#syncSoon.add(addr);
    setImmediate(() => void this.#syncRound());
  }

  async #syncRound(): Promise<void> {
    if (this.#syncing || this.#stopped) return;
    this.#syncing = true;
    this.#stats.syncRounds++;
    try {
      const alive = this.#members.alive();
      const soon = alive.filter((m) => this.#syncSoon.has(m.addr));
      this.#syncSoon.clear();
      // Passed over: peers whose heads, as last heard, are this agent's (they have nothing more, or
      // had not when last heard: what they got since shows in their next digest, or reaches this
      // agent through another peer). Peers heard to differ go first, then those never heard.
      const mine = this.#headsDigest();
      const rest = alive.filter((m) => !soon.includes(m));
      const wanted = Math.max(0, this.#tune.syncPeers - soon.length);
      const differ = shuffle(rest.filter((m) => this.#peerDigest.has(m.addr) && this.#peerDigest.get(m.addr) !== mine));
      const unheard = shuffle(rest.filter((m) => !this.#peerDigest.has(m.addr)));
      let others = [...differ, ...unheard].slice(0, wanted);
      if (others.length === 0 && soon.length === 0 && this.#stats.syncRounds % SYNC_ANYWAY_ROUNDS === 0)
        others = shuffle(rest).slice(0, 1); // now and then one anyway, whatever was heard
      this.#stats.syncSkipped += Math.min(wanted, rest.length) - others.length;
      for (const m of [...soon, ...others]) {
        if (this.#stopped) break;
        try {
          for (let rounds = 0; rounds < 100 && !this.#stopped; rounds++) {
            if (!(await this.#syncWith(m))) break;
          }
          this.#lastSync = Date.now();
        } catch (err) {
          this.#log(`sync:${m.addr}`, `sync with ${m.addr} failed: ${(err as Error).message}`);
        }
      }
    } finally {
      this.#syncing = false;
    }
  }

  /** Pulls from one peer what this agent lacks; true when the peer has more to send. */
  async #syncWith(m: Member): Promise<boolean> {
    const batch: RemoteChangeset[] = [];
    const cleared: { actor: string; from: number; to: number }[] = [];
    let rows = 0;
    let partial: { a: string; v: number; rows: WireRow[] } | null = null;
    let more = false;
    let progress = false;
    const flush = async () => {
      if (batch.length === 0 && cleared.length === 0) return;
      const r = await this.#merge(batch.splice(0), cleared.splice(0), m.addr);
      if (r.applied > 0) progress = true;
      rows = 0;
    };
    try {
      await this.#transport.stream(m.addr, 'sync', { heads: this.#book.heads() }, STREAM_IDLE_MS, async (line) => {
        const l = line as WireChangeset & WireCleared & { done?: boolean; more?: boolean; heads?: WireHeads };
        if (l.done) {
          more = !!l.more;
          if (l.heads) {
            this.#peerHeads.set(m.addr, l.heads);
            this.#peerDigest.set(m.addr, headsDigest(l.heads));
            this.#heardHeads(l.heads);
          }
          return;
        }
        if (l.cleared) {
          cleared.push({ actor: l.a, from: l.cleared[0], to: l.cleared[1] });
          progress = true;
          return;
        }
        if (l.part === 0) partial = { a: l.a, v: l.v, rows: [] };
        if (!partial || partial.a !== l.a || partial.v !== l.v) return void (partial = null);
        for (const r of l.r) partial.rows.push(r);
        if (!l.end) return;
        batch.push({ actor: partial.a, version: partial.v, rows: decodeRows(partial.rows) });
        rows += partial.rows.length;
        partial = null;
        if (rows >= this.#tune.mergeBatchRows || batch.length >= 1000) await flush();
      });
    } finally {
      await flush();
    }
    this.#stats.synced++;
    this.#members.heardFrom(m.addr, m.actor);
    return more && progress;
  }

  async #serveSync(body: { heads: WireHeads }, from: PeerFrom, out: LineSink): Promise<void> {
    const want = body.heads ?? {};
    if (from.addr) {
      this.#peerHeads.set(from.addr, want);
      this.#peerDigest.set(from.addr, headsDigest(want));
    }
    this.#heardHeads(want);
    const mine = this.#book.heads();
    // The peer has something this agent lacks: pull from it soon (so the exchange goes both ways).
    if (
      from.addr &&
      Object.entries(want).some(
        ([a, o]) => a !== this.#capture.actor && missingRanges(o, this.#book.get(a), 1).length > 0,
      )
    ) {
      this.#requestSync(from.addr);
    }
    let budget = this.#tune.syncMaxRows;
    let more = false;
    outer: for (const actor of Object.keys(mine)) {
      if (actor === from.actor) continue;
      for (const [s, e] of missingRanges(this.#book.get(actor), want[actor] ?? { head: 0, gaps: [] })) {
        for (let lo = s; lo <= e; ) {
          if (budget <= 0 || !out.open) {
            more = true;
            break outer;
          }
          const hi = Math.min(e, lo + this.#window - 1);
          const versions = await this.#reader.read(actor, lo, hi);
          let n = 0;
          let next = lo;
          for (const [v, rows] of versions) {
            if (v > next) await out.write({ a: actor, cleared: [next, v - 1] } satisfies WireCleared);
            for (let i = 0, part = 0; i < rows.length || part === 0; i += this.#tune.chunkRows, part++) {
              const end = i + this.#tune.chunkRows >= rows.length;
              await out.write({
                a: actor,
                v,
                r: rows.slice(i, i + this.#tune.chunkRows),
                part,
                end,
              } satisfies WireChangeset);
            }
            n += rows.length;
            next = v + 1;
          }
          if (next <= hi) await out.write({ a: actor, cleared: [next, hi] } satisfies WireCleared);
          budget -= n;
          // Keep reads around a few thousand rows each: many small versions or few large ones.
          if (n > 20_000) this.#window = Math.max(1, this.#window >> 1);
          else if (n < 2000) this.#window = Math.min(8192, this.#window << 1);
          lo = hi + 1;
        }
      }
    }
    await out.write({ done: true, more, heads: mine });
  }

  async #merge(
    batch: RemoteChangeset[],
    cleared: { actor: string; from: number; to: number }[],
    peer: string,
  ): Promise<MergeResult> {
    const r = await this.#merger.merge(batch, cleared, () => this.#book.begin());
    this.#stats.merged += r.applied;
    for (const d of r.deferred) {
      this.#stats.deferred++;
      this.#log(
        `deferred:${d.reason}`,
        `changeset ${d.version} of ${d.actor.slice(0, 8)} from ${peer} waits for this agent's schema: ${d.reason}`,
      );
    }
    for (const f of r.failed)
      this.#log(
        `failed:${f.reason}`,
        `changeset ${f.version} of ${f.actor.slice(0, 8)} from ${peer} could not be merged: ${f.reason}`,
      );
    return r;
  }

  /** This agent's heads digest (on every membership message and answer: recomputed only when the heads moved). */
  #headsDigest(): string {
    const c = this.#digest;
    if (c.book !== this.#book.stamp || c.local !== this.#capture.version)
      this.#digest = { book: this.#book.stamp, local: this.#capture.version, d: headsDigest(this.#book.heads()) };
    return this.#digest.d;
  }

  #heardHeads(heads: WireHeads): void {
    for (const [actor, o] of Object.entries(heads))
      if (actor !== this.#capture.actor && o?.head > 0) this.#lag.heard(actor, o.head);
  }

  /** Logs a message at most once a minute per key. */
  #log(key: string, msg: string): void {
    const now = Date.now();
    if ((this.#logged.get(key) ?? 0) > now - 60_000) return;
    this.#logged.set(key, now);
    log.warn({ key }, `cluster: ${msg}`);
  }

  // ---- status ----

  /** Drops a member that will not return (it is told to the others as departed). */
  forget(addr: string): boolean {
    return this.#members.forget(addr);
  }

  members(): Record<string, unknown>[] {
    return this.#members.all().map((m) => ({
      addr: m.addr,
      actor_id: m.actor || null,
      state: m.state,
      rtt_ms: m.rttMs === null ? null : Math.round(m.rttMs * 100) / 100,
      last_seen_ms_ago: m.lastSeen ? Date.now() - m.lastSeen : null,
    }));
  }

  /** Per origin: the highest version merged here and the gaps below it; and how far behind the peers this agent is. */
  syncStatus(): Record<string, unknown> {
    const heads = this.#book.heads();
    const now = Date.now();
    // Origins that peers reported and this agent has nothing of yet count too (head 0).
    for (const ph of this.#peerHeads.values())
      for (const actor of Object.keys(ph)) heads[actor] ??= { head: 0, gaps: [] };
    const origins = Object.entries(heads).map(([actor, o]) => ({
      actor_id: actor,
      self: actor === this.#capture.actor,
      head: o.head,
      gaps: o.gaps,
      missing: gapCount(o),
      behind: Math.max(0, ...[...this.#peerHeads.values()].map((h) => (h[actor]?.head ?? 0) - o.head)),
      lag_seconds: actor === this.#capture.actor ? 0 : round3(this.#lag.seconds(actor, now)),
    }));
    return {
      actor_id: this.#capture.actor,
      cluster_id: this.#cfg.clusterId,
      gossip_addr: this.addr,
      origins,
      gaps: origins.reduce((n, o) => n + o.missing, 0),
      lag_versions: origins.reduce((n, o) => n + o.behind + o.missing, 0),
      lag_seconds: origins.reduce((n, o) => Math.max(n, o.lag_seconds), 0),
      last_sync_ms_ago: this.#lastSync ? Date.now() - this.#lastSync : null,
      peer_connections: this.#transport.channels,
      stats: { ...this.#stats },
      tuning: { ...this.#tune },
    };
  }

  /** The figures GET /metrics exports (read when scraped). */
  metrics() {
    const s = this.syncStatus() as {
      gaps: number;
      lag_versions: number;
      lag_seconds: number;
      last_sync_ms_ago: number | null;
    };
    return {
      members: this.members() as { addr: string; state: string; rtt_ms: number | null }[],
      stats: { ...this.#stats },
      membership: this.#members.traffic,
      peerBytesSent: this.#transport.bytesSent,
      gaps: s.gaps,
      lagVersions: s.lag_versions,
      lagSeconds: s.lag_seconds,
      lastSyncSecondsAgo: s.last_sync_ms_ago === null ? null : s.last_sync_ms_ago / 1000,
    };
  }

  health(): Record<string, unknown> {
    const s = this.syncStatus();
    return {
      members: this.members().map((m) => ({ addr: m.addr, state: m.state, rtt_ms: m.rtt_ms })),
      gaps: s.gaps,
      replication_lag_versions: s.lag_versions,
      replication_lag_seconds: s.lag_seconds,
      last_sync_ms_ago: s.last_sync_ms_ago,
    };
  }

  async stop(): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    if (this.#syncTimer) clearInterval(this.#syncTimer);
    this.#merger.stop();
    await this.#members.stop(); // announces the departure: no one suspects an agent that left
    await this.#transport.close();
    this.#reader.close();
  }
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

function shuffle<T>(xs: T[]): T[] {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [xs[i], xs[j]] = [xs[j], xs[i]];
  }
  return xs;
}
