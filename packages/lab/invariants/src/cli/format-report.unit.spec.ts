import { describe, expect, it } from 'vitest';
import type { AuditReport } from '../audit.types.js';
import { formatReport } from './format-report.js';

const report = (overrides: Partial<AuditReport> = {}): AuditReport => ({
  checkedAt: '2026-12-01T12:00:00.000Z',
  scope: { orderIds: ['o-1'], skus: ['SKU-MUG'] },
  holds: false,
  checks: [
    {
      name: 'stock-conserved',
      title: 'Stock is conserved',
      status: 'broken',
      summary: '0 of 1 SKU balance',
      violations: [{ subject: 'SKU-MUG', detail: '1 unit went missing' }],
      pending: [],
    },
    {
      name: 'orders-terminal',
      title: 'Every order reaches one outcome',
      status: 'pending',
      summary: '0 of 1 order confirmed or cancelled',
      violations: [],
      pending: ['order o-1: at OrderPlaced, placed 1.0 s ago'],
    },
  ],
  ...overrides,
});

describe('formatReport', () => {
  it('given a broken and a pending check, when formatted, then each has its line, its findings, and the verdict', () => {
    expect(formatReport(report())).toBe(
      [
        'Invariants at 2026-12-01T12:00:00.000Z (orders o-1; SKUs SKU-MUG)',
        '',
        'BROKEN   Stock is conserved [stock-conserved]: 0 of 1 SKU balance',
        '           - SKU-MUG: 1 unit went missing',
        'pending  Every order reaches one outcome [orders-terminal]: 0 of 1 order confirmed or cancelled',
        '           … order o-1: at OrderPlaced, placed 1.0 s ago',
        '',
        '1 of 2 invariants broken.',
        '',
      ].join('\n'),
    );
  });

  it('given only held checks, when formatted, then the verdict says they all hold', () => {
    const held = report({
      scope: {},
      holds: true,
      checks: [
        {
          name: 'nothing-parked',
          title: 'No message is parked',
          status: 'held',
          summary: 'no consumer group holds a parked message',
          violations: [],
          pending: [],
        },
      ],
    });

    expect(formatReport(held)).toContain('(every order)');
    expect(formatReport(held)).toMatch(
      /held {5}No message is parked .*\n\nAll 1 invariants hold\.\n$/,
    );
  });
});
