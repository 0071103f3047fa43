import { describe, expect, it } from 'vitest';
import { PublisherError, UnauthorizedError } from '../../src/client/index.js';
import { redactText } from '../../src/options/redact.js';
import { formatFieldPath } from '../../src/client/parse-response.js';

describe('redactText', () => {
  it('replaces the exact key, even with characters outside the token pattern, and any btb_ token', () => {
    expect(redactText('key=btb_a!b?c here', 'btb_a!b?c')).toBe('key=btb_[redacted] here');
    expect(redactText('Bearer btb_sim_pro_1, then btb_other-Token.9')).toBe(
      'Bearer btb_[redacted], then btb_[redacted]',
    );
    expect(redactText('no secret here')).toBe('no secret here');
  });

  it('hides a key echoed percent-encoded or JSON-escaped whole, known or not (found by a new user: a tail leaked)', () => {
    const key = 'btb_abc.def+ghi/jk==';
    const echoes = [
      `db fail for ${encodeURIComponent(key)}`,
      `db fail for ${encodeURIComponent(key).toLowerCase()}`,
      `{"error":"db fail for ${JSON.stringify(key).slice(1, -1).replace('/', '\\/')}"}`,
    ];
    for (const echo of echoes) {
      for (const out of [redactText(echo, key), redactText(echo)]) {
        expect(out, echo).toContain('btb_[redacted]');
        expect(out, echo).not.toMatch(/ghi|jk/);
      }
    }
    expect(redactText(`?key=${encodeURIComponent(key)}&next=1`, key)).toBe('?key=btb_[redacted]&next=1');
    // JSON text stays JSON: the backslash of an escaped quote after a token is not taken with it.
    const json = JSON.stringify({ title: 'Set "btb_your_key" in .env', path: 'btb_a/b' });
    expect(JSON.parse(redactText(json))).toEqual({ title: 'Set "btb_[redacted]" in .env', path: 'btb_[redacted]' });
  });
});

describe('PublisherError', () => {
  it('redacts every text field it is given, and its stack', () => {
    const error = new UnauthorizedError({
      message: 'bad btb_leakcheck_unit_1',
      hint: 'hint btb_leakcheck_unit_1',
      method: 'GET',
      path: '/api/v1/me/',
      status: 401,
      apiMessage: 'unknown token btb_leakcheck_unit_1',
      cause: new Error('cause btb_leakcheck_unit_1'),
    });
    expect(error).toBeInstanceOf(PublisherError);
    expect(error.name).toBe('UnauthorizedError');
    expect(error.stack?.startsWith('UnauthorizedError: bad btb_[redacted]')).toBe(true);
    const everything = [
      error.message,
      error.hint,
      error.apiMessage,
      error.stack,
      JSON.stringify(error),
      String(error.cause),
      (error.cause as Error).stack,
    ].join('\n');
    expect(everything).not.toContain('leakcheck');
    expect(JSON.parse(JSON.stringify(error))).toMatchObject({
      name: 'UnauthorizedError',
      code: 'unauthorized',
      status: 401,
      path: '/api/v1/me/',
    });
  });
});

describe('formatFieldPath', () => {
  it('writes zod paths the way a reader looks them up', () => {
    expect(formatFieldPath(['results', 3, 'slug'])).toBe('results[3].slug');
    expect(formatFieldPath(['usage', 'month_key'])).toBe('usage.month_key');
    expect(formatFieldPath([])).toBe('(body)');
  });
});
