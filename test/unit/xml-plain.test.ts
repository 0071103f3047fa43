// The safe parse skips fast-xml-parser's validator for documents the scanner finds in the plain syntax
// (src/feeds/xml-plain.ts). That is sound only if the validator accepts every plain document: checked
// here on every document of the corpora and on seeded mutations of each (characters inserted, deleted or
// replaced where they change the syntax most: around tags, references, quotes, sections).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { rewriteSitemap, XmlSafetyError } from '../../src/feeds/index.js';
import { scanXmlDocument } from '../../src/feeds/xml-scan.js';

const CORPORA = join(import.meta.dirname, '../corpora');

function documents(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...documents(path));
    else if (!/\.(?:md|json|xsd)$|LICENSE/.test(name)) out.push(path);
  }
  return out;
}

/** The scanner's verdict, or undefined when it refuses the document (the validator then runs anyway). */
function plainOf(xml: string): boolean | undefined {
  try {
    return scanXmlDocument(xml).plain;
  } catch {
    return undefined;
  }
}

const MUTATIONS = [
  '<',
  '>',
  '&',
  '"',
  "'",
  '/',
  '=',
  ' ',
  '\n',
  ':',
  '?',
  '!',
  '-',
  ']',
  'a',
  '1',
  '&amp;',
  '&#x41;',
  '&#X41;',
  '&nbsp;',
  '&;',
  '&#;',
  '<a>',
  '</a>',
  '<a/>',
  '<!--',
  '-->',
  '<![CDATA[',
  ']]>',
  '<?',
  '?>',
  '<?xml ',
  ' x="1"',
  " y='2'",
  'x="1"',
  '\u00a0',
  '\ufeff',
  'é',
  '<b x="1" x="2">',
  '<b x="1" x="2"/>',
  '</',
  '/>',
];

/** A small deterministic generator, so that a failure names a mutation that can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
}

function mutate(text: string, next: () => number): string {
  let x = text;
  for (let edits = 1 + Math.floor(next() * 3); edits > 0; edits--) {
    let at = Math.floor(next() * (x.length + 1));
    // Half of the edits land just after a '<', where the syntax is densest.
    if (next() < 0.5) {
      const lt = x.indexOf('<', at);
      if (lt !== -1) at = lt + Math.floor(next() * 12);
    }
    const token = MUTATIONS[Math.floor(next() * MUTATIONS.length)] ?? '';
    x = next() < 0.6 ? x.slice(0, at) + token + x.slice(at) : x.slice(0, at) + x.slice(at + 1 + Math.floor(next() * 3));
  }
  return x;
}

describe('the plain syntax: documents fast-xml-parser’s validator accepts', () => {
  it('every plain document of the corpora, and of mutations of them, is accepted by the validator', () => {
    const next = random(19);
    let plain = 0;
    let checked = 0;
    const wrong: string[] = [];
    for (const path of documents(CORPORA)) {
      const text = readFileSync(path, 'utf8').replace(/^\uFEFF/, '');
      if (text.length > 200_000) continue;
      for (let m = 0; m < 8; m++) {
        const xml = m === 0 ? text : mutate(text, next);
        checked++;
        if (plainOf(xml) !== true) continue;
        plain++;
        const valid = XMLValidator.validate(xml);
        if (valid !== true)
          wrong.push(`${path} mutation ${m}: ${valid.err.msg} in ${JSON.stringify(xml.slice(0, 200))}`);
      }
    }
    expect(wrong).toEqual([]);
    // Both verdicts occur often: the check above is not vacuous.
    expect(plain).toBeGreaterThan(checked / 5);
    expect(checked - plain).toBeGreaterThan(checked / 5);
  });

  it('what the validator refuses is never plain', () => {
    const refused = [
      '<a b="1" b="2"/>',
      '<a b="1"c="2"/>',
      '<a b/>',
      '<a b=1/>',
      '<a/b>',
      '<a>&#X41;</a>',
      '<a>&;</a>',
      '<a>&x</a>',
      '<a></a>text',
      'text<a></a>',
      '<!-- c --><?xml version="1.0"?><a/>',
      '\n<?xml version="1.0"?><a/>',
      '< a></a>',
      '<a></a >x',
      '<1a></1a>',
    ];
    for (const xml of refused) {
      expect(XMLValidator.validate(xml), xml).not.toBe(true);
      expect(plainOf(xml), xml).not.toBe(true);
    }
  });

  it('a sitemap, an RSS item with CDATA and comments, and a root declaring many namespaces are plain', () => {
    const ns = Array.from({ length: 40 }, (_, i) => ` xmlns:x${i}="urn:x${i}"`).join('');
    const plain = [
      '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n<url><loc>https://a.example/blog/x/?a=1&amp;b=2</loc><lastmod>2025-01-01</lastmod></url>\n</urlset>\n',
      '<rss version=\'2.0\'><channel><!-- c --><item><title>A &lt;b&gt; &#233; &#xE9;</title><description><![CDATA[<p>x & y</p>]]></description><guid isPermaLink="false" >1</guid><br /></item></channel></rss>',
      `<urlset${ns}><url><loc>x</loc></url></urlset>`,
      '<?xml version="1.0"?><?xml-stylesheet href="a.xsl"?><a/>',
    ];
    for (const xml of plain) {
      expect(plainOf(xml), xml).toBe(true);
      expect(XMLValidator.validate(xml), xml).toBe(true);
    }
  });

  it('a document that is not plain is still checked by the validator: its message is the one given', () => {
    const xml =
      '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc a="1" a="2">x</loc></url></urlset>';
    expect(plainOf(xml)).toBe(false);
    let error: unknown;
    try {
      rewriteSitemap(xml, {
        url: 'https://up.example/sitemap.xml',
        upstreamOrigins: [],
        mapUrl: (u) => u,
        partUrl: (n) => `https://blog.example.com/sitemap-${n}.xml`,
      });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(XmlSafetyError);
    expect((error as XmlSafetyError).reason).toBe('not-well-formed');
    expect((error as XmlSafetyError).message).toBe(
      "[astro-content-publisher] The sitemap at https://up.example/sitemap.xml is not safe to parse: it is not well-formed XML: Attribute 'a' is repeated. (line 1, column 77)",
    );
  });
});
