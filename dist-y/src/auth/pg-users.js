"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.PgUserStore = void 0;
const scram_secret_1 = require("./scram-secret");
const secrets_1 = require("./secrets");
/**
 * The users of one PostgreSQL listener: `[[api.pg.users]]` by name, or the listener's single
 * `password` for any user name (role write). `mode` is trust when neither is configured.
 */
class PgUserStore {
    mode;
    #byName = new Map();
    #anyUser;
    /** Answers the exchange for an unknown user, so a wrong name and a wrong password look alike. */
    decoy;
    constructor(l, at) {
        for (const [i, u] of (l.users ?? []).entries()) {
            this.#byName.set(u.name, {
                secret: (0, scram_secret_1.scramSecret)((0, secrets_1.readSecret)(u.password, `${at}.users[${i}].password`)),
                role: u.role,
            });
        }
        this.#anyUser = l.password === null ? null : { secret: (0, scram_secret_1.scramSecret)(l.password), role: 'write' };
        this.mode = this.#byName.size > 0 || this.#anyUser ? 'scram' : 'trust';
        this.decoy = (0, scram_secret_1.scramSecret)(`decoy:${Math.random()}`);
    }
    static load(l, at) {
        return new PgUserStore(l, at);
    }
    /** The keys and role of a user name; null when it may not log in. */
    lookup(user) {
        return this.#byName.get(user) ?? this.#anyUser;
    }
}
exports.PgUserStore = PgUserStore;
//# sourceMappingURL=pg-users.js.map