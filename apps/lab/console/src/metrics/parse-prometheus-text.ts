// Reads the Prometheus text exposition format (version 0.0.4), as the
// services' GET /metrics writes it through prom-client: one sample a line,
// `name{label="value",...} value [timestamp]`, comments starting with `#`.
// Hand-written because the console needs samples, not a client library.

export interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

const SAMPLE_LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+-?\d+)?$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"\s*,?\s*/gy;

function unescapeLabelValue(raw: string): string {
  return raw.replace(/\\(.)/g, (_match, char: string) => (char === 'n' ? '\n' : char));
}

function parseLabels(raw: string): Record<string, string> | undefined {
  const labels: Record<string, string> = {};
  LABEL.lastIndex = 0;
  let consumed = 0;
  for (let match = LABEL.exec(raw); match !== null; match = LABEL.exec(raw)) {
    const [whole, key = '', value = ''] = match;
    labels[key] = unescapeLabelValue(value);
    consumed += whole.length;
  }
  // Anything the label pattern did not consume makes the line unreadable.
  return consumed === raw.trim().length || raw.trim() === '' ? labels : undefined;
}

/** Prometheus reads values with Go's ParseFloat, which takes Inf and NaN in any case; prom-client writes `Nan`. */
function parseValue(raw: string): number | undefined {
  const special = raw.toLowerCase();
  if (special === '+inf' || special === 'inf') return Number.POSITIVE_INFINITY;
  if (special === '-inf') return Number.NEGATIVE_INFINITY;
  if (special === 'nan') return Number.NaN;
  const value = Number(raw);
  return Number.isNaN(value) ? undefined : value;
}

/**
 * Every sample of the text; comments, blank lines and lines that are not
 * samples are skipped (a scrape should show what it can read).
 *
 * @example
 * parsePrometheusText('eo_consumer_messages_total{consumer="c",outcome="applied"} 3')
 * // [{ name: 'eo_consumer_messages_total', labels: { consumer: 'c', outcome: 'applied' }, value: 3 }]
 */
export function parsePrometheusText(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const rawLine of text.split('\n')) {
    const line = rawLine.trim();
    if (line === '' || line.startsWith('#')) continue;
    const match = SAMPLE_LINE.exec(line);
    if (match === null) continue;
    const [, name = '', rawLabels = '', rawValue = ''] = match;
    const labels = parseLabels(rawLabels);
    const value = parseValue(rawValue);
    if (labels === undefined || value === undefined) continue;
    samples.push({ name, labels, value });
  }
  return samples;
}
