"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.HistogramSeries = exports.HistogramChild = exports.CounterSeries = exports.CounterChild = void 0;
/**
 * A counter or histogram for a hot path (every HTTP request, every commit). Each label set's child
 * holds plain numbers, so recording is an addition (and a bucket search); prom-client's own
 * metrics hash the labels and allocate on every call, 3-4 µs of a one-row HTTP write here. The
 * series joins prom-client's registry in the shape it reads (`get`), so GET /metrics serves it
 * beside the rest, in the same text.
 */
class Series {
    name;
    help;
    type;
    labelNames;
    aggregator = 'sum';
    #children = new Map();
    constructor(name, help, type, labelNames, registry) {
        this.name = name;
        this.help = help;
        this.type = type;
        this.labelNames = labelNames;
        registry.registerMetric(this);
    }
    /** The child of these label values, in `labelNames` order: look it up once, record on it often. */
    labels(...values) {
        const key = values.join('\u0000');
        let c = this.#children.get(key);
        if (!c) {
            if (values.length !== this.labelNames.length)
                throw new Error(`${this.name}: expected labels ${this.labelNames.join(', ')}`);
            const labels = {};
            this.labelNames.forEach((n, i) => (labels[n] = values[i]));
            c = { labels, child: this.newChild() };
            this.#children.set(key, c);
        }
        return c.child;
    }
    /** What prom-client's registry reads when scraped. */
    get() {
        const values = [];
        for (const { labels, child } of this.#children.values())
            values.push(...this.samples(labels, child));
        return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
    }
    reset() {
        this.#children.clear();
    }
}
class CounterChild {
    value = 0;
    inc(n = 1) {
        this.value += n;
    }
}
exports.CounterChild = CounterChild;
/** A Prometheus counter kept in plain numbers (see Series). */
class CounterSeries extends Series {
    constructor(name, help, labelNames, registry) {
        super(name, help, 'counter', labelNames, registry);
    }
    newChild() {
        return new CounterChild();
    }
    samples(labels, c) {
        return [{ metricName: this.name, labels, value: c.value }];
    }
}
exports.CounterSeries = CounterSeries;
class HistogramChild {
    #bounds;
    /** Observations per bucket (not cumulative); the last one is above every bound. */
    counts;
    sum = 0;
    count = 0;
    constructor(bounds) {
        this.#bounds = bounds;
        this.counts = new Float64Array(bounds.length + 1);
    }
    observe(v) {
        const b = this.#bounds;
        let i = 0;
        while (i < b.length && v > b[i])
            i++;
        this.counts[i]++;
        this.sum += v;
        this.count++;
    }
}
exports.HistogramChild = HistogramChild;
/** A Prometheus histogram kept in plain numbers (see Series); buckets as prom-client writes them. */
class HistogramSeries extends Series {
    #bounds;
    constructor(name, help, bounds, labelNames, registry) {
        super(name, help, 'histogram', labelNames, registry);
        this.#bounds = [...bounds].sort((a, b) => a - b);
    }
    newChild() {
        return new HistogramChild(this.#bounds);
    }
    samples(labels, h) {
        const out = [];
        let acc = 0;
        this.#bounds.forEach((le, i) => {
            acc += h.counts[i];
            out.push({ metricName: `${this.name}_bucket`, labels: { le: String(le), ...labels }, value: acc });
        });
        out.push({ metricName: `${this.name}_bucket`, labels: { le: '+Inf', ...labels }, value: h.count });
        out.push({ metricName: `${this.name}_sum`, labels, value: h.sum });
        out.push({ metricName: `${this.name}_count`, labels, value: h.count });
        return out;
    }
}
exports.HistogramSeries = HistogramSeries;
//# sourceMappingURL=series.js.map