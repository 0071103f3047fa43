import { readFileSync, readdirSync } from 'node:fs';
import { Parser } from 'htmlparser2';
import { describe, expect, test } from 'vitest';
import { BASE_ALLOWED_TAGS, DEFAULT_IFRAME_HOSTS, IFRAME_SANDBOX, sanitizeArticle } from '../../src/html/index.js';

// Every payload of the shared XSS corpora goes through the sanitiser; the output is parsed again and
// must hold no script-capable markup. One test per corpus file: the message names the failing index.
const CORPUS = new URL('../corpora/xss/', import.meta.url);
const ALLOWED = new Set(BASE_ALLOWED_TAGS);
const URL_ATTRIBUTES = new Set([
  'href',
  'src',
  'action',
  'formaction',
  'xlink:href',
  'srcset',
  'data',
  'poster',
  'background',
  'cite',
]);
const SAFE_SCHEMES = new Set(['http', 'https', 'mailto']);
// eslint-disable-next-line no-control-regex
const IGNORED = /[\x00-\x20]+/g;

function urlProblem(value: string): string | undefined {
  const probe = value.replace(IGNORED, '').toLowerCase();
  if (/^[/\\]{2}/.test(probe)) return 'protocol-relative URL';
  const scheme = /^([a-z][a-z0-9+.-]*):/.exec(probe);
  if (scheme && !SAFE_SCHEMES.has(scheme[1]!)) return `scheme ${scheme[1]}:`;
  return undefined;
}

/** Parses sanitised HTML and lists everything that could run script or leave the policy. */
export function unsafeMarkup(html: string): string[] {
  const problems: string[] = [];
  if (/<\s*script/i.test(html)) problems.push('"<script" in the output');
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        if (!ALLOWED.has(name)) problems.push(`element <${name}>`);
        for (const [attribute, value] of Object.entries(attribs)) {
          const lower = attribute.toLowerCase();
          if (lower.startsWith('on')) problems.push(`event handler ${attribute}`);
          if (lower === 'style' || lower === 'srcdoc') problems.push(`attribute ${attribute}`);
          const probe = value.replace(IGNORED, '').toLowerCase();
          if (/<script|javascript:|vbscript:|data:text\/html/.test(probe)) problems.push(`${attribute}="${value}"`);
          if (URL_ATTRIBUTES.has(lower)) {
            const urls = lower === 'srcset' ? value.split(',').map((c) => c.trim().split(/\s+/)[0] ?? '') : [value];
            for (const url of urls) {
              const problem = urlProblem(url);
              if (problem) problems.push(`${problem} in ${attribute}="${value}"`);
            }
          }
        }
        if (name === 'iframe') {
          if (attribs.sandbox !== IFRAME_SANDBOX) problems.push('iframe without the sandbox');
          const host = attribs.src ? new URL(attribs.src).hostname : '';
          if (!DEFAULT_IFRAME_HOSTS.includes(host)) problems.push(`iframe from ${host || 'nowhere'}`);
        }
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  return problems;
}

function payloadsOf(file: string): string[] {
  const text = readFileSync(new URL(file, CORPUS), 'utf8');
  if (file.endsWith('.json')) {
    return (JSON.parse(text) as Array<{ payload: string }>).map((entry) => entry.payload);
  }
  return text.split(/\r?\n/).filter((line) => line.trim() !== '');
}

const files = readdirSync(CORPUS)
  .filter((f) => /^(dompurify-vectors|h5sc-vectors)\.json$|^patt-.*\.txt$/.test(f))
  .sort();

describe('XSS corpora', () => {
  test('the corpora are all there', () => {
    expect(files).toEqual(
      expect.arrayContaining(['dompurify-vectors.json', 'h5sc-vectors.json', 'patt-RSNAKE_XSS.txt']),
    );
    expect(files.filter((f) => f.startsWith('patt-')).length).toBeGreaterThanOrEqual(3);
  });

  test('the checker itself flags script-capable markup', () => {
    expect(unsafeMarkup('<p onclick="x">a</p>')).toContain('event handler onclick');
    expect(unsafeMarkup('<a href=" java\tscript:alert(1)">a</a>').length).toBeGreaterThan(0);
    expect(unsafeMarkup('<img src="//evil.example/x.png">')).toContain(
      'protocol-relative URL in src="//evil.example/x.png"',
    );
    expect(unsafeMarkup('<svg></svg>')).toContain('element <svg>');
    expect(unsafeMarkup('<iframe src="https://evil.example/"></iframe>')).toContain('iframe from evil.example');
    expect(unsafeMarkup('<p><a href="https://a.example/">ok</a><img src="/x.png" srcset="/x.png 1x"></p>')).toEqual([]);
  });

  for (const file of files) {
    test(`${file}: no payload survives`, () => {
      const payloads = payloadsOf(file);
      expect(payloads.length).toBeGreaterThan(10);
      for (const [index, payload] of payloads.entries()) {
        for (const articleUrl of [undefined, 'https://pro-blog.example.com/blog/post/']) {
          const { html } = sanitizeArticle(payload, { articleUrl });
          const problems = unsafeMarkup(html);
          expect(
            problems,
            `${file} payload #${index} (articleUrl ${articleUrl ?? 'none'}): ${payload.slice(0, 200)}\n-> ${html.slice(0, 300)}`,
          ).toEqual([]);
        }
      }
    });
  }
});
