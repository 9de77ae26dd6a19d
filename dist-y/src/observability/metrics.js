"use strict";
var __importDefault = (this && this.__importDefault) || function (mod) {
    return (mod && mod.__esModule) ? mod : { "default": mod };
};
Object.defineProperty(exports, "__esModule", { value: true });
exports.Metrics = void 0;
const prom_client_1 = __importDefault(require("prom-client"));
const series_1 = require("./series");
/**
 * The agent's metrics registry (prom-client): every module's figures are reported through it and
 * served as the Prometheus text format by GET /metrics. Most figures are read at scrape time from
 * the stats each module already keeps (`gauge`, `total`), so no hot path pays for them; the
 * HTTP middleware and the commit observer record directly, into series kept in plain numbers
 * (`series.ts`).
 */
class Metrics {
    registry = new prom_client_1.default.Registry();
    #http;
    constructor() {
        // Process figures and the event-loop delay (patina_nodejs_eventloop_lag_*_seconds), from prom-client.
        prom_client_1.default.collectDefaultMetrics({ register: this.registry, prefix: 'patina_', eventLoopMonitoringPrecision: 10 });
        // Gauges named *_total break the Prometheus naming rules (promtool check metrics refuses them).
        for (const name of ['active_handles_total', 'active_requests_total', 'active_resources_total'])
            this.registry.removeSingleMetric(`patina_nodejs_${name}`);
        this.#http = {
            requests: new series_1.CounterSeries('patina_http_requests_total', 'HTTP requests answered, by route, method and status.', ['route', 'method', 'status'], this.registry),
            duration: new series_1.HistogramSeries('patina_http_request_duration_seconds', 'Time from request to response start (streams: to their first line), by route and method.', [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10], ['route', 'method'], this.registry),
        };
    }
    /** Label children by route, method and status: looked up once, so a request costs no label hashing. */
    #children = new Map();
    /** Records one HTTP request (the Koa middleware calls it). */
    observeRequest(route, method, status, seconds) {
        const key = `${route} ${method} ${status}`;
        let c = this.#children.get(key);
        if (!c) {
            c = {
                count: this.#http.requests.labels(route, method, String(status)),
                time: this.#http.duration.labels(route, method),
            };
            this.#children.set(key, c);
        }
        c.count.inc();
        c.time.observe(seconds);
    }
    /** A gauge whose value is read when scraped. */
    gauge(name, help, read, labelNames = []) {
        new prom_client_1.default.Gauge({
            name,
            help,
            labelNames,
            registers: [this.registry],
            collect() {
                this.reset();
                set(read(), (labels, v) => this.set(labels, v));
            },
        });
    }
    /** A counter whose running total is kept by a module and read when scraped. */
    total(name, help, read, labelNames = []) {
        new prom_client_1.default.Counter({
            name,
            help,
            labelNames,
            registers: [this.registry],
            collect() {
                this.reset();
                set(read(), (labels, v) => this.inc(labels, Math.max(0, v)));
            },
        });
    }
    /** A counter recorded on a hot path (see series.ts). */
    counter(name, help, labelNames = []) {
        return new series_1.CounterSeries(name, help, labelNames, this.registry);
    }
    /** A histogram recorded on a hot path (see series.ts). */
    histogram(name, help, buckets, labelNames = []) {
        return new series_1.HistogramSeries(name, help, buckets, labelNames, this.registry);
    }
    get contentType() {
        return this.registry.contentType;
    }
    /** The Prometheus text format of every metric. */
    text() {
        return this.registry.metrics();
    }
}
exports.Metrics = Metrics;
function set(r, put) {
    if (typeof r === 'number')
        put({}, r);
    else
        for (const [labels, v] of r)
            put(labels, v);
}
//# sourceMappingURL=metrics.js.map