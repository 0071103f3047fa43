// What the corpus test expects to be refused, and an independent look at each refused input: a refusal
// counts only when a parser other than ours (xmldom, htmlparser2, TextDecoder) finds the input is what the
// refusal says it is.
import { DOMParser } from '@xmldom/xmldom';
import { parseDocument } from 'htmlparser2';
import type { XmlSafetyReason } from '../../src/feeds/index.js';
import { parseStrict } from './feeds-xml-check.js';

/** The corpus files refused, with the reason: every other file is written. */
export const RSS_REFUSED: Readonly<Record<string, XmlSafetyReason>> = {
  'feedparser-encoding-bozo_invalid-bytes-with-bom.xml': 'not-well-formed',
  'feedparser-rdf-doctype_contains_entity_decl.xml': 'doctype',
  'feedparser-rss-entity_in_doctype.xml': 'doctype',
  'gofeed-rss-rss_channel_language.xml': 'not-well-formed',
};
export const SITEMAP_REFUSED: Readonly<Record<string, XmlSafetyReason>> = {
  'advertools-data-sitemap_testing-sitemap_index.xml': 'index-part',
  'advertools-docs-_static-sitemap_testing-error_sitemap.xml': 'not-well-formed',
  'gopher-testdata-sitemap-image.xml': 'not-well-formed',
  'scrapy-test_utils_sitemap-test_xml_entity_expansion-1.xml': 'doctype',
};

/** Whether xmldom (namespaces aside) also finds the document not well-formed: its message, or undefined. */
function illFormed(text: string): string | undefined {
  try {
    // A namespace error is not a well-formedness error of XML 1.0: the writer repairs well-known prefixes.
    parseStrict(text.replace(/^\s+(?=<\?xml)/, ''));
    return undefined;
  } catch (error) {
    const message = (error as Error).message;
    return /namespace|prefix/i.test(message) ? undefined : message;
  }
}

/** xmldom's reading of a document, errors ignored: enough to see its DOCTYPE and root. */
const lenient = (text: string) => new DOMParser({ onError: () => undefined }).parseFromString(text, 'text/xml');

export interface RefusalContext {
  /** The root elements this kind of document may have (local names). */
  roots: readonly string[];
  /** A sitemap index's own URL: its parts must be on its origin. */
  indexUrl?: string;
}

/**
 * What an independent parser finds that makes the input what `reason` says it is, or undefined when it does
 * not (then the refusal is wrong, or this reason needs a check of its own here).
 */
export function independentEvidence(reason: XmlSafetyReason, text: string, ctx: RefusalContext): string | undefined {
  switch (reason) {
    case 'not-well-formed':
    case 'truncated':
      return illFormed(text);
    case 'doctype': {
      const subset = lenient(text).doctype?.internalSubset ?? '';
      return /<!(?:ENTITY|ELEMENT|ATTLIST|NOTATION)\b|%\w+;/.test(subset)
        ? `DOCTYPE declares [${subset.trim()}]`
        : undefined;
    }
    case 'empty':
      return text.trim() === '' ? 'no text at all' : undefined;
    case 'html': {
      const root = parseDocument(text).children.find((node) => node.type === 'tag');
      return root && 'name' in root && root.name === 'html' ? 'htmlparser2 reads an <html> page' : undefined;
    }
    case 'unexpected-root': {
      const root = lenient(text).documentElement?.localName;
      return root !== undefined && !ctx.roots.includes(root) ? `the root is <${root}>` : undefined;
    }
    case 'index-part': {
      const doc = lenient(text);
      if (doc.documentElement?.localName !== 'sitemapindex' || ctx.indexUrl === undefined) return undefined;
      const locs = Array.from(doc.getElementsByTagNameNS('*', 'loc')).map((loc) => (loc.textContent ?? '').trim());
      const origin = new URL(ctx.indexUrl).origin;
      const foreign = locs.find(
        (loc) => !URL.canParse(loc, ctx.indexUrl) || new URL(loc, ctx.indexUrl).origin !== origin,
      );
      if (foreign !== undefined) return `part ${foreign} is not on ${origin}`;
      return locs.length > 50 ? `${locs.length} parts` : undefined;
    }
    case 'encoding': {
      const label = /^<\?xml[^>]*encoding=["']([^"']+)/.exec(text.trimStart())?.[1];
      if (label === undefined) return undefined;
      try {
        new TextDecoder(label);
        return undefined;
      } catch {
        // `text` holds the bytes as latin1: refused only when they are not UTF-8 either.
        try {
          new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(text, 'latin1'));
          return undefined;
        } catch {
          return `TextDecoder knows no encoding "${label}", and the bytes are not UTF-8`;
        }
      }
    }
    default:
      return undefined;
  }
}
