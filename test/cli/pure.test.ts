import { describe, expect, it } from 'vitest';
import { EXIT, exitCodeFor } from '../../src/cli/exit-codes.js';
import { keyValues, table } from '../../src/cli/format.js';
import { firstHeading, markdownToHtml } from '../../src/cli/markdown.js';
import { errorLine } from '../../src/cli/report-error.js';
import { PaymentRequiredError, RateLimitError, MissingApiKeyError, NetworkError } from '../../src/client/index.js';

describe('table', () => {
  it('aligns columns, right-aligns numbers and cuts long cells', () => {
    const out = table(
      [
        { a: 'x', n: 5 },
        { a: 'longer value', n: 1234 },
        { a: 'y'.repeat(80), n: 1 },
      ],
      [
        { header: 'NAME', value: (r) => r.a, max: 20 },
        { header: 'N', value: (r) => r.n },
      ],
    );
    expect(out.split('\n')).toEqual([
      'NAME                     N',
      'x                        5',
      'longer value          1234',
      `${'y'.repeat(19)}…     1`,
      '',
    ]);
    expect(table([], [{ header: 'A', value: () => 1 }])).toBe('(none)\n');
    expect(
      keyValues([
        ['a', 1],
        ['long label', undefined],
      ]),
    ).toBe('a:           1\nlong label:  -\n');
  });
});

describe('markdownToHtml', () => {
  it('converts headings, paragraphs, lists, emphasis, links and code; escapes raw HTML', () => {
    const html = markdownToHtml(
      '# Title\n\nSome **bold** and *em* with [a link](https://x.example/).\n\n- one\n- two\n\n1. first\n\n```\n<b>x</b>\n```\n\n<script>alert(1)</script>',
    );
    expect(html).toBe(
      [
        '<h1>Title</h1>',
        '<p>Some <strong>bold</strong> and <em>em</em> with <a href="https://x.example/">a link</a>.</p>',
        '<ul><li>one</li><li>two</li></ul>',
        '<ol><li>first</li></ol>',
        '<pre><code>&lt;b&gt;x&lt;/b&gt;</code></pre>',
        '<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>',
      ].join('\n'),
    );
    expect(firstHeading('intro\n# My draft\n', 'markdown')).toBe('My draft');
    expect(firstHeading('<h1 class="t">A <em>b</em></h1>', 'html')).toBe('A b');
  });
});

describe('exit codes and error lines', () => {
  it("maps each error class to its code and prints the client's hint (the API table's suggested action)", () => {
    const quota = new PaymentRequiredError({
      message: 'm',
      hint: 'Buy credits or wait for the first day of the month.',
      method: 'POST',
      path: '/api/v1/sites/12/generate/',
      status: 402,
      apiMessage: 'Quota exhausted',
    });
    expect(exitCodeFor(quota)).toBe(EXIT.quota);
    expect(errorLine(quota)).toBe(
      '402: Buy credits or wait for the first day of the month. [POST /api/v1/sites/12/generate/: Quota exhausted]',
    );
    const limited = new RateLimitError({
      message: 'm',
      hint: 'Wait 12 seconds.',
      method: 'GET',
      path: '/api/v1/me/',
      status: 429,
      retryAfter: 12,
    });
    expect(exitCodeFor(limited)).toBe(EXIT.rateLimited);
    expect(errorLine(limited)).toBe('429: Wait 12 seconds. [GET /api/v1/me/]');
    expect(exitCodeFor(new MissingApiKeyError({ message: 'm', hint: 'h', option: 'apiKey' }))).toBe(EXIT.unauthorized);
    expect(exitCodeFor(new NetworkError({ message: 'm', hint: 'h', method: 'GET', path: '/' }))).toBe(EXIT.network);
    expect(exitCodeFor(new Error('boom'))).toBe(EXIT.unexpected);
    expect(new Set(Object.values(EXIT)).size).toBe(Object.keys(EXIT).length);
  });
});
