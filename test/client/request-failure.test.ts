/** What a failed exchange says, as the client's errors report it (src/client/request-failure.ts). */
import { describe, expect, it } from 'vitest';
import { apiMessageOf, causeText, neverSent } from '../../src/client/request-failure.js';

/** A fetch failure as undici raises it: a TypeError whose cause carries the system error code. */
function fetchFailure(code: string, message = `connect ${code} 127.0.0.1:9`): TypeError {
  return new TypeError('fetch failed', { cause: Object.assign(new Error(message), { code }) });
}

describe('request failures', () => {
  it('apiMessageOf: the service\'s {"error"} message; nothing from a proxy\'s HTML page or another shape', () => {
    expect(apiMessageOf('{"error": "Site 99 not found."}')).toBe('Site 99 not found.');
    expect(apiMessageOf('<html><body>502 Bad Gateway</body></html>')).toBeUndefined();
    expect(apiMessageOf('{"detail": "Not found."}')).toBeUndefined();
    expect(apiMessageOf('{"error": {"code": 7}}')).toBeUndefined();
  });

  it('neverSent: refused, unresolved and unreachable; not a connection reset or a timeout (the service may have seen those)', () => {
    for (const code of ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH'])
      expect(neverSent(fetchFailure(code)), code).toBe(true);
    expect(neverSent(fetchFailure('ECONNRESET'))).toBe(false);
    expect(neverSent(fetchFailure('UND_ERR_SOCKET'))).toBe(false);
    expect(neverSent(new DOMException('The operation was aborted due to timeout', 'TimeoutError'))).toBe(false);
    expect(neverSent(Object.assign(new Error('getaddrinfo ENOTFOUND x'), { code: 'ENOTFOUND' }))).toBe(true);
  });

  it('causeText: the cause, not "fetch failed", with its code when the message leaves it out', () => {
    expect(causeText(fetchFailure('ECONNREFUSED'))).toBe('connect ECONNREFUSED 127.0.0.1:9');
    expect(causeText(fetchFailure('UND_ERR_SOCKET', 'other side closed'))).toBe('other side closed (UND_ERR_SOCKET)');
    expect(causeText(new Error('plain'))).toBe('plain');
    expect(causeText('a string')).toBe('a string');
  });
});
