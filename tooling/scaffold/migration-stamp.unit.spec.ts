import { describe, expect, it } from 'vitest';
import { nextMigrationStamp } from './migration-stamp.js';

describe('the stamp of a new migration', () => {
  it('given only older migrations, then the current UTC minute', () => {
    expect(
      nextMigrationStamp(
        ['2026-11-30T00-00-create-processed-message.ts'],
        new Date('2026-12-01T21:50:42Z'),
      ),
    ).toBe('2026-12-01T21-50');
  });

  it('given a migration dated after now, then ten minutes after it, so the new one runs last', () => {
    expect(
      nextMigrationStamp(
        [
          '2026-12-01T00-40-create-notification.ts',
          '2026-12-12T00-00-create-notification-intent.ts',
          'index.ts',
        ],
        new Date('2026-12-01T21:50:00Z'),
      ),
    ).toBe('2026-12-12T00-10');
  });
});
