// /admin/lab over HTTP, on an in-process Fastify app against a real database:
// the token guards every route, faults are armed and listed with their
// remaining hits, an action at the wrong point is refused, and without lab
// mode the routes (and the lab tables) do not exist.
import { MISTAKEN_ATTEMPTS } from './mistakes/index.js';
import { createHttpServer } from '@effectively-once/service-kit';
import { createTestDatabase } from '@effectively-once/postgres/testing';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { ArmedFault, Disarmed, JournalPage, LabStatus, MistakeMap } from './lab.schemas.js';
import type { LabTables } from './lab.tables.js';
import { openFaultInjection } from './open-fault-injection.js';
import { BEARER, deliveryOf, openTestLab } from './testing/lab-harness.js';

const { db } = await createTestDatabase<LabTables>({});
const { lab, app, close } = await openTestLab(db, 'routes-test');
afterAll(close);

describe('/admin/lab', () => {
  it('refuses a call without the token or with another one, with a 401 problem', async () => {
    const missing = await app.inject({ method: 'GET', url: '/admin/lab' });
    const wrong = await app.inject({
      method: 'POST',
      url: '/admin/lab/faults',
      headers: { authorization: 'Bearer not-the-lab-token-at-all' },
      // Not even a valid body: the token is checked before the body is read.
      payload: { point: 'nowhere' },
    });

    expect(missing.statusCode).toBe(401);
    expect(missing.headers['content-type']).toContain('application/problem+json');
    expect(missing.json()).toMatchObject({ code: 'LAB_TOKEN_REQUIRED', status: 401 });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toMatchObject({ code: 'LAB_TOKEN_INVALID' });
    expect(lab.flowFor?.(deliveryOf('anyone-v1'))).toBeUndefined();
  });

  it('arms a fault (201), lists it with its remaining hits, and disarms it on DELETE', async () => {
    // When a fault is armed for one order
    const orderId = 'routes-order-1';
    const armed = await app.inject({
      method: 'POST',
      url: '/admin/lab/faults',
      headers: BEARER,
      payload: { point: 'on-delivery', action: 'postpone', match: { orderId }, times: 2 },
    });

    // Then it is listed, and each matching delivery uses one hit up
    expect(armed.statusCode).toBe(201);
    const fault = ArmedFault.parse(armed.json());
    expect(fault).toMatchObject({
      point: 'on-delivery',
      action: 'postpone',
      times: 2,
      remaining: 2,
    });
    expect(await lab.onDelivery(deliveryOf('routes-v1', { orderId: 'another-order' }))).toBe(
      'process',
    );
    expect(await lab.onDelivery(deliveryOf('routes-v1', { orderId }))).toBe('postpone');
    const status = LabStatus.parse(
      (await app.inject({ url: '/admin/lab', headers: BEARER })).json(),
    );
    expect(status).toMatchObject({ service: 'routes-test', pid: process.pid, holds: [] });
    expect(status.faults).toEqual([{ ...fault, remaining: 1 }]);
    expect(status.lockWaits).toBeGreaterThanOrEqual(0);

    // When everything is disarmed
    const disarmed = await app.inject({
      method: 'DELETE',
      url: '/admin/lab/faults',
      headers: BEARER,
    });

    // Then the fault no longer fires
    expect(Disarmed.parse(disarmed.json())).toEqual({ disarmed: 1, released: 0 });
    expect(await lab.onDelivery(deliveryOf('routes-v1', { orderId }))).toBe('process');
  });

  it('disarms one fault by id (204) and leaves the others armed; an unknown id is a 404', async () => {
    // Given two faults armed for two orders
    const arm = async (orderId: string) =>
      ArmedFault.parse(
        (
          await app.inject({
            method: 'POST',
            url: '/admin/lab/faults',
            headers: BEARER,
            payload: { point: 'on-delivery', action: 'postpone', match: { orderId } },
          })
        ).json(),
      );
    const first = await arm('routes-order-2');
    await arm('routes-order-3');

    // When the first is disarmed by its id, twice
    const disarmed = await app.inject({
      method: 'DELETE',
      url: `/admin/lab/faults/${first.id}`,
      headers: BEARER,
    });
    const again = await app.inject({
      method: 'DELETE',
      url: `/admin/lab/faults/${first.id}`,
      headers: BEARER,
    });

    // Then only the second still fires, and the repeat is told there is no such fault
    expect(disarmed.statusCode).toBe(204);
    expect(again.statusCode).toBe(404);
    expect(again.json()).toMatchObject({ code: 'FAULT_NOT_FOUND' });
    expect(await lab.onDelivery(deliveryOf('routes-v1', { orderId: 'routes-order-2' }))).toBe(
      'process',
    );
    expect(await lab.onDelivery(deliveryOf('routes-v1', { orderId: 'routes-order-3' }))).toBe(
      'postpone',
    );
  });

  it('refuses an action at a point where it cannot happen, with a 400 problem', async () => {
    const refused = await Promise.all(
      [
        { point: 'on-delivery', action: 'serialization-failure' },
        { point: 'on-delivery', action: 'redeliver' },
        { point: 'after-commit-before-ack', action: 'postpone' },
        { point: 'after-email-sent', action: 'serialization-failure' },
      ].map((payload) =>
        app.inject({ method: 'POST', url: '/admin/lab/faults', headers: BEARER, payload }),
      ),
    );

    for (const response of refused) {
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 'FAULT_NOT_ALLOWED_AT_POINT' });
    }
    const status = LabStatus.parse(
      (await app.inject({ url: '/admin/lab', headers: BEARER })).json(),
    );
    expect(status.faults).toEqual([]);
  });

  it('refuses an unknown point or action as a validation problem', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/admin/lab/faults',
      headers: BEARER,
      payload: { point: 'after-lunch', action: 'crash', times: 0 },
    });

    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('switches mistakes on and off per consumer, and answers with the whole map', async () => {
    const on = await app.inject({
      method: 'PUT',
      url: '/admin/lab/mistakes/routes-tally-v1',
      headers: BEARER,
      payload: { mistake: 'in-memory-cache' },
    });
    expect(MistakeMap.parse(on.json())).toEqual({ 'routes-tally-v1': 'in-memory-cache' });
    expect(lab.attemptFor?.('routes-tally-v1')).toBe(MISTAKEN_ATTEMPTS['in-memory-cache']);

    const off = await app.inject({
      method: 'PUT',
      url: '/admin/lab/mistakes/routes-tally-v1',
      headers: BEARER,
      payload: { mistake: null },
    });
    expect(off.json()).toEqual({});
    expect(lab.attemptFor?.('routes-tally-v1')).toBeUndefined();

    const unknown = await app.inject({
      method: 'PUT',
      url: '/admin/lab/mistakes/routes-tally-v1',
      headers: BEARER,
      payload: { mistake: 'forgetting-the-marker' },
    });
    expect(unknown.statusCode).toBe(400);
  });

  it('answers 404 when a named hold is not held', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/admin/lab/holds/release',
      headers: BEARER,
      payload: { holdId: 'no-such-hold', then: 'continue' },
    });

    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ code: 'HOLD_NOT_FOUND' });
  });

  it('serves the journal of one order after a given id', async () => {
    const delivery = deliveryOf('routes-journal-v1');
    await lab.onDelivery(delivery);
    await lab.afterCommit(delivery, { outcome: 'ignored' });
    await lab.settled(delivery, { action: 'ack', outcome: 'ignored' });

    const all = JournalPage.parse(
      (
        await app.inject({
          url: `/admin/lab/journal?orderId=${delivery.orderId ?? ''}`,
          headers: BEARER,
        })
      ).json(),
    ).entries;
    const first = all[0];
    const after = JournalPage.parse(
      (
        await app.inject({
          url: `/admin/lab/journal?orderId=${delivery.orderId ?? ''}&afterId=${String(first?.id)}&limit=1`,
          headers: BEARER,
        })
      ).json(),
    ).entries;

    expect(all.map((entry) => entry.kind)).toEqual(['delivered', 'handled', 'acked']);
    expect(after.map((entry) => entry.kind)).toEqual(['handled']);
  });
});

describe('outside lab mode', () => {
  it('opens nothing: no lab, no tables, no /admin/lab route', async () => {
    // Given a service started without FAULTS_ENABLED
    const { db: plain } = await createTestDatabase<LabTables>({});
    const plainApp = createHttpServer({ service: 'plain', logger: false });

    // When it asks for the lab
    const none = await openFaultInjection({
      service: 'plain',
      config: { enabled: false },
      db: plain,
      log: plainApp.log,
    });

    // Then there is none, the lab tables were not created, and the route is unknown
    expect(none).toBeUndefined();
    const { rows } = await sql<{ journal: string | null }>`
      SELECT to_regclass('lab_journal')::text AS journal`.execute(plain);
    expect(rows).toEqual([{ journal: null }]);
    const response = await plainApp.inject({ url: '/admin/lab', headers: BEARER });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toMatchObject({ code: 'NOT_FOUND' });
    await plainApp.close();
  });
});
