// LISTEN/NOTIFY for the PG front end: channels shared by the connections of this agent, and one
// channel per table (`patina_updates_<table>`) fed by the table update streams of the change feed,
// so a PG client hears of every changed row, written through any front end or replicated.
import type { TableUpdate, UpdateSink } from '../../../src/live/table-updates';
import { rowToJson } from '../../../src/engine/values';
import { PatinaError } from '../../../src/errors';
import { pgError } from '../sqlstate';

/** What the PG front end needs of the table update streams (src/live/table-updates.ts). */
export interface TableUpdateSource {
  /** Throws a not-found PatinaError for an unknown table or one without a primary key. */
  watch(table: string, sink: UpdateSink): () => void;
}

/** A LISTEN on `patina_updates_users` hears the changed rows of table `users`. */
export const TABLE_CHANNEL_PREFIX = 'patina_updates_';

/** A connection as the channels see it. */
export interface Listener {
  readonly pid: number;
  /** A NotificationResponse for the client, sent when its session is between transactions. */
  deliver(channel: string, payload: string, fromPid: number): void;
  /** The table channel ended (the client fell too far behind the writes, or the agent stops). */
  channelEnded(channel: string, why: string): void;
}

/** The payload of a table channel's notification: the update stream's event, as `POST /v1/updates/{table}` writes it. */
export function tablePayload(u: TableUpdate): string {
  return `{"notify":[${JSON.stringify(u.kind)},${rowToJson(u.pk)}]}`;
}

export class Channels {
  readonly #updates: TableUpdateSource | null;
  readonly #listeners = new Map<string, Set<Listener>>();
  /** The update stream feeding each table channel that has listeners. */
  readonly #tableStops = new Map<string, () => void>();

  constructor(updates: TableUpdateSource | null) {
    this.#updates = updates;
  }

  /** Adds a listener; a table channel of an unknown table is 42P01 and adds nothing. */
  listen(l: Listener, channel: string): void {
    if (channel.startsWith(TABLE_CHANNEL_PREFIX) && !this.#tableStops.has(channel)) this.#watchTable(channel);
    let set = this.#listeners.get(channel);
    if (!set) this.#listeners.set(channel, (set = new Set()));
    set.add(l);
  }

  unlisten(l: Listener, channel: string): void {
    const set = this.#listeners.get(channel);
    if (!set?.delete(l) || set.size > 0) return;
    this.#listeners.delete(channel);
    this.#tableStops.get(channel)?.();
    this.#tableStops.delete(channel);
  }

  /** The channels `l` listens on, in the order they were first listened on. */
  channelsOf(l: Listener): string[] {
    return [...this.#listeners].filter(([, set]) => set.has(l)).map(([channel]) => channel);
  }

  unlistenAll(l: Listener): void {
    for (const [channel, set] of [...this.#listeners]) if (set.has(l)) this.unlisten(l, channel);
  }

  /** NOTIFY: every listener of the channel on this agent hears it, the sender included (as in PostgreSQL). */
  notify(channel: string, payload: string, fromPid: number): void {
    for (const l of this.#listeners.get(channel) ?? []) l.deliver(channel, payload, fromPid);
  }

  #watchTable(channel: string) {
    const table = channel.slice(TABLE_CHANNEL_PREFIX.length);
    if (!this.#updates) throw pgError('0A000', 'table channels need the change feed, which this agent does not run');
    const ended = (why: string) => {
      this.#tableStops.delete(channel);
      const set = this.#listeners.get(channel);
      this.#listeners.delete(channel);
      for (const l of set ?? []) l.channelEnded(channel, why);
    };
    try {
      const stop = this.#updates.watch(table, {
        update: (u) => {
          const payload = tablePayload(u);
          for (const l of this.#listeners.get(channel) ?? []) l.deliver(channel, payload, 0);
        },
        fail: (message) => ended(message),
        end: () => ended('the agent is stopping'),
      });
      this.#tableStops.set(channel, stop);
    } catch (err) {
      if (err instanceof PatinaError && err.kind === 'not-found') {
        throw pgError(
          '42P01',
          `relation "${table}" does not exist: channel "${channel}" names no table with a primary key (LISTEN ${TABLE_CHANNEL_PREFIX}<table>)`,
        );
      }
      throw err;
    }
  }
}

/**
 * The channel and payload of a NOTIFY or SELECT pg_notify(...) as bound: each a literal, or the
 * parameter whose index `params` names (NULL is ''). 22023 for an empty channel or a payload of
 * 8000 bytes or more, as PostgreSQL.
 */
export function notifyArguments(
  channel: { name: string | null; payload: string; params?: (number | null)[] },
  params: unknown[],
): [string, string] {
  const [name, payload] = [channel.name!, channel.payload].map((v, k) => {
    const p = channel.params?.[k];
    return p === undefined || p === null ? v : params[p] === null ? '' : String(params[p]);
  });
  if (!name) throw pgError('22023', 'channel name cannot be empty');
  if (Buffer.byteLength(payload) >= 8000) throw pgError('22023', 'payload string too long');
  return [name, payload];
}
