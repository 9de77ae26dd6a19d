/**
 * A small HTTP client of the agent's API for the CLI commands. `addr` is HOST:PORT (plain HTTP) or
 * a URL (`https://host:port`; a private CA is trusted through NODE_EXTRA_CA_CERTS). The token goes
 * in `Authorization: Bearer`.
 */
export class ApiClient {
  readonly base: string;
  readonly #auth: Record<string, string>;

  constructor(addr: string, token: string | undefined = undefined) {
    this.base = /^https?:\/\//.test(addr) ? addr.replace(/\/+$/, '') : `http://${addr}`;
    this.#auth = token ? { authorization: `Bearer ${token}` } : {};
  }

  async post(path: string, body: unknown): Promise<Response> {
    try {
      return await fetch(this.base + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...this.#auth },
        body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      });
    } catch (err) {
      throw new Error(`cannot reach the agent at ${this.base}: ${(err as Error & { cause?: Error }).cause?.message ?? (err as Error).message}`);
    }
  }

  async get(path: string): Promise<Response> {
    try {
      return await fetch(this.base + path, { headers: this.#auth });
    } catch (err) {
      throw new Error(`cannot reach the agent at ${this.base}: ${(err as Error & { cause?: Error }).cause?.message ?? (err as Error).message}`);
    }
  }

  /** Yields the lines of an NDJSON response as they arrive. */
  async *lines(res: Response): AsyncGenerator<string> {
    const decoder = new TextDecoder();
    let buf = '';
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
      buf += decoder.decode(chunk, { stream: true });
      let nl;
      while ((nl = buf.indexOf('\n')) >= 0) {
        yield buf.slice(0, nl);
        buf = buf.slice(nl + 1);
      }
    }
    if (buf.trim() !== '') yield buf;
  }
}
