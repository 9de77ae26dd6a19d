"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.NotificationQueue = void 0;
// Notifications for one client (LISTEN's NotificationResponses, and a WARNING when a table channel
// ends): sent at once when the session is idle between messages, else held until its next
// ReadyForQuery outside a transaction (PostgreSQL never interrupts a transaction). A client that
// leaves them unread, or a session that stays in a transaction while they pile up, is cut off.
const backend_1 = require("../wire/backend");
/** Notifications a client may leave unread in the socket's buffer before it is cut off. */
const NOTIFY_HIGH_WATER = 16 * 1024 * 1024;
/** Notifications held while the session is inside a transaction. */
const NOTIFY_QUEUE = 100_000;
class NotificationQueue {
    #out;
    #waiting = [];
    constructor(out) {
        this.#out = out;
    }
    /**
     * Holds a notification; null when it may wait, else the reason (53200) the client is to be cut
     * off. The caller writes it at once when the session is idle (writeAll, flush).
     */
    add(n, unreadBytes) {
        if (unreadBytes > NOTIFY_HIGH_WATER)
            return `the client left more than ${NOTIFY_HIGH_WATER} bytes of notifications unread`;
        if (this.#waiting.length >= NOTIFY_QUEUE)
            // a session that stays inside a transaction while its channels are busy
            return `more than ${NOTIFY_QUEUE} notifications waited for the session's transaction to end`;
        this.#waiting.push(n);
        return null;
    }
    /** Writes every waiting notification. */
    writeAll() {
        if (this.#waiting.length === 0)
            return;
        for (const n of this.#waiting.splice(0)) {
            if (n.notice)
                this.#out.warn('01000', n.payload);
            else
                backend_1.backend.notification(this.#out.w, n.pid, n.channel, n.payload);
        }
    }
    clear() {
        this.#waiting.length = 0;
    }
}
exports.NotificationQueue = NotificationQueue;
//# sourceMappingURL=notification-queue.js.map