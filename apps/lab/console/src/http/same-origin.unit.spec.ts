import { describe, expect, it } from 'vitest';
import { crossSiteRefusal, type OriginHeaders } from './same-origin.js';

const fromThePage: OriginHeaders = {
  contentType: 'application/json',
  origin: 'http://localhost:3000',
  host: 'localhost:3000',
  forwardedHost: undefined,
};

describe('crossSiteRefusal', () => {
  it('lets a JSON request of the console page pass, with or without a charset', () => {
    expect(crossSiteRefusal(fromThePage)).toBeUndefined();
    expect(
      crossSiteRefusal({ ...fromThePage, contentType: 'application/json; charset=utf-8' }),
    ).toBeUndefined();
  });

  it('lets a JSON request without Origin pass (a script or curl, not a browser form)', () => {
    expect(crossSiteRefusal({ ...fromThePage, origin: undefined })).toBeUndefined();
  });

  it('refuses what a cross-site form can send: no JSON content type', () => {
    for (const contentType of [
      undefined,
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'text/plain',
    ]) {
      expect(crossSiteRefusal({ ...fromThePage, contentType })).toMatch(/application\/json/);
    }
  });

  it('refuses JSON from another origin', () => {
    expect(crossSiteRefusal({ ...fromThePage, origin: 'http://evil.example' })).toMatch(
      /not from http:\/\/evil\.example/,
    );
    expect(crossSiteRefusal({ ...fromThePage, origin: 'https://localhost:3000' })).toBeDefined();
  });

  it('accepts the Host the browser used when the gateway forwarded the request', () => {
    // Given a request forwarded by the gateway: Host is the console's own, X-Forwarded-Host the page's
    const forwarded = { ...fromThePage, host: '127.0.0.1:3007', forwardedHost: 'localhost:3000' };

    expect(crossSiteRefusal(forwarded)).toBeUndefined();
  });
});
