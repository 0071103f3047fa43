import { describe, expect, it } from 'vitest';
import { ConfigError, createClient, type ClientOptions } from '../../src/client/index.js';

function configError(options: unknown): ConfigError {
  try {
    createClient(options as ClientOptions);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error('createClient did not throw');
}

describe('createClient options', () => {
  it('baseUrl: required, http(s) only', () => {
    // The client reads no environment variable: its fix names only createClient's option.
    expect(configError({}).message).toBe(
      '`baseUrl` is required. Pass createClient({ baseUrl: "https://..." }) with the service address (without /api/v1).',
    );
    const ftp = configError({ baseUrl: 'ftp://example.com' });
    expect(ftp.option).toBe('baseUrl');
    expect(ftp.code).toBe('invalid_option');
    expect(ftp.message).toContain('`baseUrl` must use http or https (got "ftp:")');
    // An unparseable URL is never echoed, only its length (test/security/base-url.test.ts).
    expect(configError({ baseUrl: 'example.com' }).message).toContain(
      '`baseUrl` must be an absolute http(s) URL (got a value that is not a URL (11 characters',
    );
  });

  it('baseUrl: an address ending in /api/v1 is refused, naming the address without it', () => {
    const error = configError({ baseUrl: 'http://127.0.0.1:4321/api/v1' });
    expect(error.option).toBe('baseUrl');
    expect(error.message).toBe(
      '`baseUrl` must be the service address without /api/v1 (got "http://127.0.0.1:4321/api/v1"): drop the /api/v1, as in "http://127.0.0.1:4321". Pass createClient({ baseUrl: "https://..." }) with the service address (without /api/v1).',
    );
    expect(configError({ baseUrl: 'https://api.example.com/api/v1/' }).message).toContain(
      'as in "https://api.example.com"',
    );
  });

  it('baseUrl: credentials are refused and never echoed', () => {
    const error = configError({ baseUrl: 'https://admin:s3cret-pass@api.example.com/' });
    expect(error.option).toBe('baseUrl');
    expect(error.message).toContain('must not contain credentials');
    expect(`${error.message} ${error.stack} ${JSON.stringify(error)}`).not.toContain('s3cret-pass');
  });

  it('apiKey: must start with btb_, and the value is never shown', () => {
    const error = configError({ baseUrl: 'https://api.example.com', apiKey: 'sk_live_notatoken123' });
    expect(error.option).toBe('apiKey');
    expect(error.message).toBe(
      '`apiKey` must start with btb_ (the value is not shown). Copy the token created in the dashboard at /account/api-keys into createClient({ apiKey }).',
    );
    expect(`${error.message} ${error.stack} ${JSON.stringify(error)} ${String(error)}`).not.toContain(
      'sk_live_notatoken123',
    );
    expect(configError({ baseUrl: 'https://api.example.com', apiKey: 'btb_a b' }).message).toContain(
      'must not contain whitespace',
    );
  });

  it('apiKey: an empty or blank key counts as missing (feeds still work)', () => {
    expect(() => createClient({ baseUrl: 'https://api.example.com', apiKey: '  ' })).not.toThrow();
  });

  it('numbers: named, with the value received', () => {
    const error = configError({ baseUrl: 'https://api.example.com', timeoutMs: -5 });
    expect(error.option).toBe('timeoutMs');
    expect(error.message).toContain('`timeoutMs` must be a whole number of milliseconds from 1 to 2147483647 (got -5)');
    expect(configError({ baseUrl: 'https://api.example.com', concurrency: 0 }).option).toBe('concurrency');
    expect(configError({ baseUrl: 'https://api.example.com', retries: 1.5 }).option).toBe('retries');
  });

  it('unknown options are refused (strict), with the list of known ones', () => {
    const error = configError({ baseUrl: 'https://api.example.com', apikey: 'btb_x' });
    expect(error.option).toBe('apikey');
    expect(error.message).toContain(
      'Unknown option `apikey` for createClient(): remove it or check its spelling. Known options: baseUrl, apiKey,',
    );
  });
});
