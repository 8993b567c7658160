import { describe, expect, it } from 'vitest';
import { shutdownList } from './shutdown-list.js';

describe('shutdownList', () => {
  it('closes by phase whatever the order parts were added in, and a phase in the order added', async () => {
    // Given parts added as a service opens them: the database first, the lab last
    const closed: string[] = [];
    const part = (name: string) => ({ close: () => void closed.push(name) });
    const shutdown = shutdownList();
    shutdown.add('db', part('db'));
    shutdown.add('store', part('store'));
    shutdown.add('http', part('http'));
    shutdown.add('consumers', part('first consumer'));
    shutdown.add('relay', part('relay'));
    shutdown.add('consumers', part('second consumer'));
    shutdown.add('workers', part('timer'));
    shutdown.add('extension', part('extension'));

    // When it closes
    await shutdown.close();

    // Then the lab and the consumers first, the pools last
    expect(closed).toEqual([
      'extension',
      'first consumer',
      'second consumer',
      'timer',
      'relay',
      'http',
      'store',
      'db',
    ]);
  });

  it('closes the rest when a part fails, throws that failure, and closes only once', async () => {
    // Given a relay whose close fails
    const closed: string[] = [];
    const shutdown = shutdownList();
    shutdown.add('relay', { close: () => Promise.reject(new Error('relay stuck')) });
    shutdown.add('db', { close: () => void closed.push('db') });

    // When it closes twice
    const first = shutdown.close();
    const second = shutdown.close();

    // Then the database was still closed, once, and both calls report the failure
    await expect(first).rejects.toThrow('relay stuck');
    await expect(second).rejects.toThrow('relay stuck');
    expect(closed).toEqual(['db']);
    expect(() => shutdown.add('http', { close: () => undefined })).toThrow('closing began');
  });

  it('reports every failing part with its phase, not only the first', async () => {
    // Given a relay and a client whose closes both fail
    const reported: string[] = [];
    const shutdown = shutdownList({
      onCloseFailure: (phase, error) => reported.push(`${phase}: ${(error as Error).message}`),
    });
    shutdown.add('relay', { close: () => Promise.reject(new Error('relay stuck')) });
    shutdown.add('clients', { close: () => Promise.reject(new Error('smtp gone')) });
    shutdown.add('db', { close: () => undefined });

    // When it closes
    const closing = shutdown.close();

    // Then the first is thrown and both are reported
    await expect(closing).rejects.toThrow('relay stuck');
    expect(reported).toEqual(['relay: relay stuck', 'clients: smtp gone']);
  });
});
