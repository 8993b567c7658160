// Turns a child's output into lines a person can follow in one terminal: the
// services log JSON (Fastify's pino logger); `pretty` keeps the level, the
// message and the fields that tell which message and consumer it was about.

const LEVELS: Readonly<Record<number, string>> = {
  10: 'trace',
  20: 'debug',
  30: 'info',
  40: 'warn',
  50: 'error',
  60: 'fatal',
};

/** Fields worth a glance; payloads are never logged by the services anyway. */
const SHOWN_FIELDS = [
  'consumer',
  'eventType',
  'outcome',
  'messageId',
  'orderId',
  'reason',
  'statusCode',
  'url',
  'method',
  'responseTime',
] as const;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function shortValue(value: unknown): string {
  if (typeof value === 'string') return value.length > 80 ? `${value.slice(0, 77)}...` : value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/**
 * One line of a child's output as the terminal shows it.
 *
 * @example
 * formatLogLine('order', '{"level":30,"msg":"listening"}', 'pretty'); // "order            info  listening"
 */
export function formatLogLine(name: string, line: string, format: 'pretty' | 'raw'): string {
  const label = name.padEnd(16);
  if (format === 'raw') return `${label} ${line}`;
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return `${label} ${line}`;
  }
  if (!isRecord(parsed)) return `${label} ${line}`;
  const level = typeof parsed['level'] === 'number' ? (LEVELS[parsed['level']] ?? 'info') : 'info';
  const message = typeof parsed['msg'] === 'string' ? parsed['msg'] : '';
  const request = isRecord(parsed['req']) ? parsed['req'] : {};
  const response = isRecord(parsed['res']) ? parsed['res'] : {};
  const fields = { ...request, ...response, ...parsed };
  const details = SHOWN_FIELDS.filter((key) => fields[key] !== undefined)
    .map((key) => `${key}=${shortValue(fields[key])}`)
    .join(' ');
  const error = isRecord(parsed['err']) && typeof parsed['err']['message'] === 'string';
  const errorText =
    error && isRecord(parsed['err']) ? ` error=${shortValue(parsed['err']['message'])}` : '';
  return `${label} ${level.padEnd(5)} ${message}${details === '' ? '' : ` ${details}`}${errorText}`;
}

/** Splits a stream's chunks into whole lines. */
export function lineSplitter(onLine: (line: string) => void): (chunk: string) => void {
  let pending = '';
  return (chunk) => {
    const lines = (pending + chunk).split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) if (line.trim() !== '') onLine(line);
  };
}
