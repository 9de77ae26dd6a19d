"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.SnapshotRunner = void 0;
const node_path_1 = __importDefault(require("node:path"));
const node_worker_threads_1 = require("node:worker_threads");
const meta_1 = require("../engine/meta");
/**
 * Runs full queries on a worker thread with its own read connection, one request at a time, each in
 * one read transaction whose commit position comes back with the rows. The thread starts with the
 * first request.
 */
class SnapshotRunner {
    #dbPath;
    #worker = null;
    #nextId = 1;
    #pending = null;
    #closed = false;
    constructor(dbPath) {
        this.#dbPath = dbPath;
    }
    get busy() {
        return this.#pending !== null;
    }
    run(jobs) {
        if (this.#closed)
            return Promise.reject(new Error('closed'));
        if (this.#pending)
            return Promise.reject(new Error('a snapshot run is already under way'));
        const worker = this.#start();
        const id = this.#nextId++;
        return new Promise((resolve, reject) => {
            this.#pending = { id, resolve, reject };
            worker.postMessage({ id, jobs });
        });
    }
    close() {
        this.#closed = true;
        this.#fail(new Error('closed'));
        void this.#worker?.terminate();
        this.#worker = null;
    }
    #start() {
        if (this.#worker)
            return this.#worker;
        const w = new node_worker_threads_1.Worker(node_path_1.default.join(__dirname, 'snapshot-worker.js'), {
            workerData: { path: this.#dbPath, positionSql: meta_1.COMMITS_SQL },
        });
        w.unref();
        w.on('message', (r) => {
            const p = this.#pending;
            if (!p || p.id !== r.id)
                return;
            this.#pending = null;
            p.resolve(r);
        });
        w.on('error', (err) => this.#fail(err));
        w.on('exit', () => {
            if (this.#worker === w)
                this.#worker = null;
            this.#fail(new Error('the snapshot worker exited'));
        });
        this.#worker = w;
        return w;
    }
    #fail(err) {
        const p = this.#pending;
        this.#pending = null;
        p?.reject(err);
    }
}
exports.SnapshotRunner = SnapshotRunner;
//# sourceMappingURL=snapshot-runner.js.map