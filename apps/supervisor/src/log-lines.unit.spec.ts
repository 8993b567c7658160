import { describe, expect, it } from 'vitest';
import { formatLogLine, lineSplitter } from './log-lines.js';

describe('formatLogLine', () => {
  it('given a pino JSON line, then pretty shows the level, message and the message fields', () => {
    const line = JSON.stringify({
      level: 40,
      msg: 'delivery parked',
      consumer: 'inventory-reservation-v1',
      eventType: 'OrderPlaced',
      payload: { secret: 'never shown' },
    });
    const shown = formatLogLine('inventory', line, 'pretty');
    expect(shown).toMatch(
      /^inventory\s+warn\s+delivery parked consumer=inventory-reservation-v1 eventType=OrderPlaced$/,
    );
  });

  it('given a line that is not JSON, then it is shown as it is, labelled', () => {
    expect(formatLogLine('order', 'plain text', 'pretty')).toBe(`${'order'.padEnd(16)} plain text`);
  });
});

describe('lineSplitter', () => {
  it('joins chunks into whole lines', () => {
    const lines: string[] = [];
    const split = lineSplitter((line) => lines.push(line));
    split('{"a":');
    split('1}\n{"b"');
    split(':2}\n');
    expect(lines).toEqual(['{"a":1}', '{"b":2}']);
  });
});
