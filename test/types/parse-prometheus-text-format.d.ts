/** Types of the parts of `parse-prometheus-text-format` the metrics tests use (the package ships none). */
declare module 'parse-prometheus-text-format' {
  /** One sample of a counter, gauge or untyped family. */
  export interface PrometheusSample {
    readonly value: string;
    readonly labels?: Readonly<Record<string, string>>;
  }
  /** One series of a histogram family. */
  export interface PrometheusHistogramSample {
    readonly labels?: Readonly<Record<string, string>>;
    readonly buckets: Readonly<Record<string, string>>;
    readonly count: string;
    readonly sum: string;
  }
  /** One metric family. */
  export interface PrometheusFamily {
    readonly name: string;
    readonly help: string;
    readonly type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED';
    readonly metrics: readonly (PrometheusSample & Partial<PrometheusHistogramSample>)[];
  }
  /** Parses an exposition in the Prometheus text format; throws on malformed input. */
  export default function parsePrometheusTextFormat(text: string): PrometheusFamily[];
}
