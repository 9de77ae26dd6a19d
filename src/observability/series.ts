import type client from 'prom-client';

type Labels = Record<string, string>;
interface Sample {
  metricName: string;
  labels: Labels;
  value: number;
}

/**
 * A counter or histogram for a hot path (every HTTP request, every commit). Each label set's child
 * holds plain numbers, so recording is an addition (and a bucket search); prom-client's own
 * metrics hash the labels and allocate on every call, 3-4 µs of a one-row HTTP write here. The
 * series joins prom-client's registry in the shape it reads (`get`), so GET /metrics serves it
 * beside the rest, in the same text.
 */
abstract class Series<Child> {
  readonly aggregator = 'sum';
  readonly #children = new Map<string, { labels: Labels; child: Child }>();

  constructor(
    readonly name: string,
    readonly help: string,
    readonly type: 'counter' | 'histogram',
    readonly labelNames: string[],
    registry: client.Registry,
  ) {
    registry.registerMetric(this as unknown as client.Metric);
  }

  /** The child of these label values, in `labelNames` order: look it up once, record on it often. */
  labels(...values: string[]): Child {
    const key = values.join('\u0000');
    let c = this.#children.get(key);
    if (!c) {
      if (values.length !== this.labelNames.length)
        throw new Error(`${this.name}: expected labels ${this.labelNames.join(', ')}`);
      const labels: Labels = {};
      this.labelNames.forEach((n, i) => (labels[n] = values[i]));
      c = { labels, child: this.newChild() };
      this.#children.set(key, c);
    }
    return c.child;
  }

  protected abstract newChild(): Child;
  protected abstract samples(labels: Labels, child: Child): Sample[];

  /** What prom-client's registry reads when scraped. */
  get(): { name: string; help: string; type: string; values: Sample[]; aggregator: string } {
    const values: Sample[] = [];
    for (const { labels, child } of this.#children.values()) values.push(...this.samples(labels, child));
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  reset(): void {
    this.#children.clear();
  }
}

export class CounterChild {
  value = 0;
  inc(n = 1): void {
    this.value += n;
  }
}

/** A Prometheus counter kept in plain numbers (see Series). */
export class CounterSeries extends Series<CounterChild> {
  constructor(name: string, help: string, labelNames: string[], registry: client.Registry) {
    super(name, help, 'counter', labelNames, registry);
  }

  protected newChild(): CounterChild {
    return new CounterChild();
  }

  protected samples(labels: Labels, c: CounterChild): Sample[] {
    return [{ metricName: this.name, labels, value: c.value }];
  }
}

export class HistogramChild {
  readonly #bounds: number[];
  /** Observations per bucket (not cumulative); the last one is above every bound. */
  readonly counts: Float64Array;
  sum = 0;
  count = 0;

  constructor(bounds: number[]) {
    this.#bounds = bounds;
    this.counts = new Float64Array(bounds.length + 1);
  }

  observe(v: number): void {
    const b = this.#bounds;
    let i = 0;
    while (i < b.length && v > b[i]) i++;
    this.counts[i]++;
    this.sum += v;
    this.count++;
  }
}

/** A Prometheus histogram kept in plain numbers (see Series); buckets as prom-client writes them. */
export class HistogramSeries extends Series<HistogramChild> {
  readonly #bounds: number[];

  constructor(name: string, help: string, bounds: number[], labelNames: string[], registry: client.Registry) {
    super(name, help, 'histogram', labelNames, registry);
    this.#bounds = [...bounds].sort((a, b) => a - b);
  }

  protected newChild(): HistogramChild {
    return new HistogramChild(this.#bounds);
  }

  protected samples(labels: Labels, h: HistogramChild): Sample[] {
    const out: Sample[] = [];
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
