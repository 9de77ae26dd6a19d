// A cluster of SWIM members in one process: the real protocol code (src/cluster/swim.ts) over a
// simulated network that loses a share of the messages and knows which members are dead, on a
// virtual clock. A period is one tick of every live member, all of their messages answered within
// it (a lost message or a dead member is an answer that never comes: a timeout).
import { type SwimMessage, type SwimNet, SwimCore, type SwimOptions } from '../../src/cluster/swim';

export class SimCluster {
  now = 0;
  readonly nodes: SwimCore[] = [];
  readonly dead = new Set<string>();
  loss = 0;
  #seed: number;

  constructor(n: number, opts: Partial<SwimOptions> = {}, seed = 1) {
    this.#seed = seed;
    const net: SwimNet = {
      send: async (addr: string, msg: SwimMessage): Promise<SwimMessage> => {
        await Promise.resolve();
        const to = this.byAddr.get(addr);
        if (!to || this.dead.has(addr) || this.random() < this.loss) throw new Error('timeout');
        const reply = await to.handle(msg);
        if (this.random() < this.loss) throw new Error('timeout');
        return reply;
      },
    };
    for (let i = 0; i < n; i++) {
      const addr = `10.0.${i >> 8}.${i & 255}:8787`;
      const node = new SwimCore({ addr, actor: `a${i}` }, net, {
        ...opts,
        now: () => this.now,
        random: () => this.random(),
      });
      this.nodes.push(node);
      this.byAddr.set(addr, node);
    }
  }

  readonly byAddr = new Map<string, SwimCore>();

  /** A deterministic generator (mulberry32), so a run can be repeated. */
  random(): number {
    this.#seed = (this.#seed + 0x6d2b79f5) | 0;
    let t = this.#seed;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  live(): SwimCore[] {
    return this.nodes.filter((n) => !this.dead.has(n.self.addr));
  }

  /** One protocol period of every live member. */
  async period(): Promise<void> {
    await Promise.all(this.live().map((n) => n.tick()));
    this.now += this.nodes[0].opts.periodMs;
  }

  /** Runs periods until `done` holds (or `max` periods): how many it took, or -1. */
  async until(done: () => boolean, max: number): Promise<number> {
    for (let p = 1; p <= max; p++) {
      await this.period();
      if (done()) return p;
    }
    return -1;
  }

  /** Messages and bytes sent by the live members so far. */
  traffic(): { sent: number; bytes: number } {
    let sent = 0;
    let bytes = 0;
    for (const n of this.live()) {
      sent += n.stats.sent;
      bytes += n.stats.bytes;
    }
    return { sent, bytes };
  }
}
