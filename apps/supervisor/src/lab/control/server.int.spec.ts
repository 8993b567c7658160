import { z } from 'zod';
import { afterAll, describe, expect, it } from 'vitest';
import { buildLabControlApp, type LabControlRoutes } from './server.js';

const token = 'lab-token-0123456789abcdef';
const echo: LabControlRoutes = {
  topic: 'echo',
  register: (app) => {
    app.post('/lab/echo', { schema: { body: z.object({ say: z.string() }) } }, (request) => ({
      said: request.body.say,
    }));
    app.get('/lab/echo/broken', () => {
      throw new Error('the route failed');
    });
  },
};
const serverErrors: string[] = [];
const app = buildLabControlApp({
  token,
  routes: [echo],
  onServerError: (message) => serverErrors.push(message),
});
afterAll(() => app.close());
const auth = { authorization: `Bearer ${token}` };

describe('the lab-control server', () => {
  it('given the lab token, when GET /lab, then it lists the topics of its route modules', async () => {
    const response = await app.inject({ method: 'GET', url: '/lab', headers: auth });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ topics: ['echo'] });
  });

  it('given no token, when a route module is called, then 401 LAB_TOKEN_REQUIRED as a problem document with x-request-id', async () => {
    const response = await app.inject({ method: 'POST', url: '/lab/echo', payload: { say: 'hi' } });
    expect(response.statusCode).toBe(401);
    expect(response.headers['content-type']).toContain('application/problem+json');
    expect(response.headers['x-request-id']).toBeTruthy();
    expect(response.json()).toMatchObject({ code: 'LAB_TOKEN_REQUIRED', instance: '/lab/echo' });
  });

  it('given a wrong token, then 401 LAB_TOKEN_INVALID', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/lab',
      headers: { authorization: 'Bearer not-the-lab-token-at-all' },
    });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ code: 'LAB_TOKEN_INVALID' });
  });

  it('given the token and a body its schema refuses, then 400 VALIDATION_FAILED', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/lab/echo',
      headers: auth,
      payload: { say: 42 },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('given the token, when a route module answers, then its answer carries the x-request-id sent', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/lab/echo',
      headers: { ...auth, 'x-request-id': 'req-lab-1' },
      payload: { say: 'hi' },
    });
    expect(response.json()).toEqual({ said: 'hi' });
    expect(response.headers['x-request-id']).toBe('req-lab-1');
  });

  it('given a route that throws, then 500 INTERNAL_ERROR and the failure is reported to the supervisor', async () => {
    const response = await app.inject({ method: 'GET', url: '/lab/echo/broken', headers: auth });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toMatchObject({ code: 'INTERNAL_ERROR' });
    expect(serverErrors).toEqual(['lab-control GET /lab/echo/broken failed: the route failed']);
  });

  it('answers /ready without a token, for the supervisor and tools to wait on', async () => {
    const response = await app.inject({ method: 'GET', url: '/ready' });
    expect(response.statusCode).toBe(200);
  });
});
