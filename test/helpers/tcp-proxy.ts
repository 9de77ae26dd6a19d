import net from 'node:net';

interface Pair {
  client: net.Socket;
  upstream: net.Socket;
  /** The client's address (the connecting agent's own address). */
  source: string;
  /** It dropped traffic at some point: it is closed when the cut heals. */
  tainted: boolean;
  /** Silenced for good by freezeOpen(): bytes dropped both ways, the sockets left open. */
  frozen?: boolean;
}

/**
 * A TCP proxy the test controls, in front of one agent's peer port. `cut()` drops every byte in both
 * directions (connections stay open, as on a network that loses packets); `dropFrom(ip)` drops only
 * connections coming from that address; `heal()` and `allowFrom(ip)` end the drop and close the
 * connections that lost traffic, as their peers would after a timeout.
 */
export class TcpProxy {
  readonly server: net.Server;
  target: { host: string; port: number } | null = null;
  #cut = false;
  readonly #blocked = new Set<string>();
  readonly #pairs = new Set<Pair>();

  private constructor(server: net.Server) {
    this.server = server;
  }

  static listen(host = '127.0.0.1'): Promise<TcpProxy> {
    const server = net.createServer();
    const proxy = new TcpProxy(server);
    server.on('connection', (c) => proxy.#accept(c));
    return new Promise((resolve) => server.listen(0, host, () => resolve(proxy)));
  }

  get addr(): string {
    const a = this.server.address() as net.AddressInfo;
    return `${a.address}:${a.port}`;
  }

  setTarget(addr: string): void {
    const i = addr.lastIndexOf(':');
    this.target = { host: addr.slice(0, i), port: Number(addr.slice(i + 1)) };
  }

  cut(): void {
    this.#cut = true;
  }

  /**
   * Silences the connections open now for good: bytes are dropped both ways and the sockets stay
   * open, as with a peer that vanished without a FIN; new connections pass as before.
   */
  freezeOpen(): void {
    for (const p of this.#pairs) p.frozen = true;
  }

  heal(): void {
    this.#cut = false;
    this.#closeTainted();
  }

  dropFrom(ip: string): void {
    this.#blocked.add(ip);
  }

  allowFrom(ip: string): void {
    this.#blocked.delete(ip);
    this.#closeTainted();
  }

  #dropping(p: Pair): boolean {
    if (p.frozen) return true;
    const d = this.#cut || this.#blocked.has(p.source);
    if (d) p.tainted = true;
    return d;
  }

  #accept(client: net.Socket): void {
    if (!this.target) return void client.destroy();
    const upstream = net.connect(this.target.port, this.target.host);
    const pair: Pair = {
      client,
      upstream,
      source: (client.remoteAddress ?? '').replace(/^::ffff:/, ''),
      tainted: false,
    };
    this.#pairs.add(pair);
    const close = () => {
      client.destroy();
      upstream.destroy();
      this.#pairs.delete(pair);
    };
    client.on('data', (d) => {
      if (!this.#dropping(pair)) upstream.write(d);
    });
    upstream.on('data', (d) => {
      if (!this.#dropping(pair)) client.write(d);
    });
    client.on('error', close).on('close', close);
    upstream.on('error', close).on('close', close);
  }

  #closeTainted(): void {
    for (const p of this.#pairs) {
      if (p.tainted && !this.#dropping({ ...p })) {
        p.client.destroy();
        p.upstream.destroy();
        this.#pairs.delete(p);
      }
    }
  }

  close(): Promise<void> {
    for (const p of this.#pairs) {
      p.client.destroy();
      p.upstream.destroy();
    }
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
