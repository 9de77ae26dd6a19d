"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.Channels = exports.TABLE_CHANNEL_PREFIX = void 0;
exports.tablePayload = tablePayload;
exports.notifyArguments = notifyArguments;
const values_1 = require("../../../src/engine/values");
const errors_1 = require("../../../src/errors");
const sqlstate_1 = require("../sqlstate");
/** A LISTEN on `patina_updates_users` hears the changed rows of table `users`. */
exports.TABLE_CHANNEL_PREFIX = 'patina_updates_';
/** The payload of a table channel's notification: the update stream's event, as `POST /v1/updates/{table}` writes it. */
function tablePayload(u) {
    return `{"notify":[${JSON.stringify(u.kind)},${(0, values_1.rowToJson)(u.pk)}]}`;
}
class Channels {
    #updates;
    #listeners = new Map();
    /** The update stream feeding each table channel that has listeners. */
    #tableStops = new Map();
    constructor(updates) {
        this.#updates = updates;
    }
    /** Adds a listener; a table channel of an unknown table is 42P01 and adds nothing. */
    listen(l, channel) {
        if (channel.startsWith(exports.TABLE_CHANNEL_PREFIX) && !this.#tableStops.has(channel))
            this.#watchTable(channel);
        let set = this.#listeners.get(channel);
        if (!set)
            this.#listeners.set(channel, (set = new Set()));
        set.add(l);
    }
    unlisten(l, channel) {
        const set = this.#listeners.get(channel);
        if (!set?.delete(l) || set.size > 0)
            return;
        this.#listeners.delete(channel);
        this.#tableStops.get(channel)?.();
        this.#tableStops.delete(channel);
    }
    unlistenAll(l) {
        for (const [channel, set] of [...this.#listeners])
            if (set.has(l))
                this.unlisten(l, channel);
    }
    /** NOTIFY: every listener of the channel on this agent hears it, the sender included (as in PostgreSQL). */
    notify(channel, payload, fromPid) {
        for (const l of this.#listeners.get(channel) ?? [])
            l.deliver(channel, payload, fromPid);
    }
    #watchTable(channel) {
        const table = channel.slice(exports.TABLE_CHANNEL_PREFIX.length);
        if (!this.#updates)
            throw (0, sqlstate_1.pgError)('0A000', 'table channels need the change feed, which this agent does not run');
        const ended = (why) => {
            this.#tableStops.delete(channel);
            const set = this.#listeners.get(channel);
            this.#listeners.delete(channel);
            for (const l of set ?? [])
                l.channelEnded(channel, why);
        };
        try {
            const stop = this.#updates.watch(table, {
                update: (u) => {
                    const payload = tablePayload(u);
                    for (const l of this.#listeners.get(channel) ?? [])
                        l.deliver(channel, payload, 0);
                },
                fail: (message) => ended(message),
                end: () => ended('the agent is stopping'),
            });
            this.#tableStops.set(channel, stop);
        }
        catch (err) {
            if (err instanceof errors_1.PatinaError && err.kind === 'not-found') {
                throw (0, sqlstate_1.pgError)('42P01', `relation "${table}" does not exist: channel "${channel}" names no table with a primary key (LISTEN ${exports.TABLE_CHANNEL_PREFIX}<table>)`);
            }
            throw err;
        }
    }
}
exports.Channels = Channels;
/**
 * The channel and payload of a NOTIFY or SELECT pg_notify(...) as bound: each a literal, or the
 * parameter whose index `params` names (NULL is ''). 22023 for an empty channel or a payload of
 * 8000 bytes or more, as PostgreSQL.
 */
function notifyArguments(channel, params) {
    const [name, payload] = [channel.name, channel.payload].map((v, k) => {
        const p = channel.params?.[k];
        return p === undefined || p === null ? v : params[p] === null ? '' : String(params[p]);
    });
    if (!name)
        throw (0, sqlstate_1.pgError)('22023', 'channel name cannot be empty');
    if (Buffer.byteLength(payload) >= 8000)
        throw (0, sqlstate_1.pgError)('22023', 'payload string too long');
    return [name, payload];
}
//# sourceMappingURL=notifications.js.map