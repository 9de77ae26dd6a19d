import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Config, formatAddr } from './config/config';
import { Engine } from './engine/engine';
import { createHttpApp, listenHttp } from '../protocols/http/app';

/**
 * The composition root: builds every part from a Config and starts and stops them in order.
 *
 *   HTTP (Koa) ──> engine.transaction ──commit──> (change capture, bus: later issues)
 *   reads ───────> engine.read (worker threads)
 */
export class Agent {
  readonly config: Config;
  readonly engine: Engine;
  #http: http.Server | null = null;
  readonly #started = Date.now();
  #stopping: Promise<void> | null = null;

  private constructor(config: Config, engine: Engine) {
    this.config = config;
    this.engine = engine;
  }

  static async start(config: Config): Promise<Agent> {
    const engine = await Engine.open({
      path: config.db.path,
      schemaPaths: config.db.schemaPaths,
      readWorkers: { min: config.db.readWorkersMin, max: config.db.readWorkersMax },
    });
    const agent = new Agent(config, engine);
    try {
      const app = createHttpApp(
        {
          queries: engine,
          transactions: engine,
          health: () => agent.health(),
          reloadSchema: () => agent.reloadSchema(),
        },
        { bodyLimit: config.api.bodyLimit, queryTimeoutSeconds: config.api.queryTimeoutSeconds },
      );
      agent.#http = await listenHttp(app, config.api.addr.host, config.api.addr.port);
    } catch (err) {
      await agent.stop();
      throw err;
    }
    return agent;
  }

  /** Where the HTTP API listens (the real port when 0 was asked for). */
  get apiAddr(): string {
    const a = this.#http?.address() as AddressInfo | null;
    return a ? formatAddr({ host: a.address, port: a.port }) : formatAddr(this.config.api.addr);
  }

  health(): Record<string, unknown> {
    return {
      status: 'ok',
      uptime_seconds: Math.round((Date.now() - this.#started) / 1000),
      tables: [...this.engine.schema.tables.keys()],
      reads: this.engine.readStats(),
    };
  }

  async reloadSchema(): Promise<Record<string, unknown>> {
    const plan = await this.engine.reloadSchema();
    return {
      created_tables: plan.createdTables,
      added_columns: plan.addedColumns.map((c) => `${c.table}.${c.column}`),
      created_indexes: plan.createdIndexes,
      dropped_indexes: plan.droppedIndexes,
    };
  }

  /** Stops accepting, lets in-flight writes finish, closes the database. */
  stop(): Promise<void> {
    this.#stopping ??= (async () => {
      const server = this.#http;
      if (server) {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeIdleConnections();
          // Streams (queries, subscriptions) would hold the server open; end them after a grace period.
          setTimeout(() => server.closeAllConnections(), 2000).unref();
        });
      }
      await this.engine.close();
    })();
    return this.#stopping;
  }
}
