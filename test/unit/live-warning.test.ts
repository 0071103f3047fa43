import { afterEach, describe, expect, it, vi } from 'vitest';
import { throttledWarning } from '../../src/loader/live/live-warning.js';
import { describeError } from '../../src/loader/errors/warnings.js';

afterEach(() => {
  vi.restoreAllMocks();
});

describe("the live loader's outage warning", () => {
  it('quotes an error ending in a period without doubling it, names the package once, and says it once a minute', () => {
    const lines: string[] = [];
    vi.spyOn(console, 'warn').mockImplementation((line: string) => lines.push(line));
    const warn = throttledWarning(() => 'liveArticlesLoader (site 12)');
    const error = new Error(
      '[astro-content-publisher] The sitemap at https://x.example/s.xml is not safe to parse. Retry later.',
    );
    warn('list', `the article list failed: ${describeError(error)}`, false);
    warn('list', 'the same kind again', false);
    expect(lines).toEqual([
      '[astro-content-publisher] liveArticlesLoader (site 12): the article list failed: The sitemap at https://x.example/s.xml is not safe to parse. Retry later. The page gets the error (a 503 is the usual answer). Calls that fail are not sent again for 10 s.',
    ]);
  });
});
