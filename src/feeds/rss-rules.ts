// What the RSS writer keeps, element by element, and how each URL is written. The README's routes
// section documents the same table; the reasons are in the comments.

import type { ElementRule } from './allowlist-writer.js';
import { RDF_NS, RSS1_NS, WELL_KNOWN_NAMESPACES as NS } from './xml-namespaces.js';

const text: ElementRule = { content: 'text' };
/** A page of the service's site (an article, the home page): the blog has the same page. */
const page: ElementRule = { content: 'text', url: 'page' };
const category: ElementRule = { content: 'text', attributes: { domain: 'keep' } };

/** Extension namespaces kept as text (their elements carry metadata, never markup a reader renders as a page). */
const OPEN = new Set(
  [
    NS.dc,
    NS.dcterms,
    NS.sy,
    NS.slash,
    NS.itunes,
    NS.googleplay,
    NS.podcast,
    NS.media,
    NS.georss,
    NS.geo,
    NS.creativeCommons,
  ].filter((u): u is string => u !== undefined),
);

const n = (uri: string | undefined, local: string): string => `${uri ?? ''}|${local}`;

/** Extension elements every item and channel may carry, with a URL decision of their own. */
const EXTENSIONS: Record<string, ElementRule> = {
  // atom:link rel="self" is the blog's feed; rel="alternate"/"next" name pages of the service.
  [n(NS.atom, 'link')]: {
    content: 'empty',
    attributes: { href: 'self', rel: 'keep', type: 'keep', hreflang: 'keep', title: 'keep', length: 'keep' },
  },
  // The comment feed is a document the blog does not serve: it keeps pointing at the service.
  [n(NS.wfw, 'commentRss')]: { content: 'text', url: 'file' },
  [n(NS.wfw, 'comment')]: { content: 'text', url: 'file' },
  // FeedBurner's original link is the article itself.
  [n(NS.feedburner, 'origLink')]: page,
  [n(NS.content, 'encoded')]: { content: 'html' },
};

const itemChildren: Record<string, ElementRule> = {
  [n('', 'title')]: text,
  [n('', 'link')]: page,
  [n('', 'description')]: { content: 'html' },
  [n('', 'author')]: text,
  [n('', 'category')]: category,
  // The comments section is part of the article's page (usually the article URL with #comments).
  [n('', 'comments')]: page,
  // Audio, video and images are files on the service's CDN, not on the blog.
  [n('', 'enclosure')]: { content: 'empty', attributes: { url: 'file', length: 'keep', type: 'keep' } },
  [n('', 'guid')]: { content: 'text', url: 'permalink', attributes: { isPermaLink: 'keep' } },
  [n('', 'pubDate')]: text,
  // Another feed the item was taken from.
  [n('', 'source')]: { content: 'text', attributes: { url: 'file' } },
  ...EXTENSIONS,
};

const imageChildren: Record<string, ElementRule> = {
  [n('', 'url')]: { content: 'text', url: 'file' },
  [n('', 'title')]: text,
  [n('', 'link')]: page,
  [n('', 'width')]: text,
  [n('', 'height')]: text,
  [n('', 'description')]: text,
};

const textInputRule: ElementRule = {
  content: 'container',
  children: {
    [n('', 'title')]: text,
    [n('', 'description')]: text,
    [n('', 'name')]: text,
    [n('', 'link')]: { content: 'text', url: 'file' },
  },
};

/** `<item>` of RSS 2.0 (and 0.9x). */
export const RSS2_ITEM: ElementRule = {
  content: 'container',
  lines: true,
  attributes: { 'xml:lang': 'keep' },
  children: itemChildren,
  openNamespaces: OPEN,
};

/** `<channel>` of RSS 2.0, items included. */
export const RSS2_CHANNEL: ElementRule = {
  content: 'container',
  lines: true,
  attributes: { 'xml:lang': 'keep' },
  openNamespaces: OPEN,
  children: {
    ...Object.fromEntries(
      [
        'title',
        'description',
        'language',
        'copyright',
        'managingEditor',
        'webMaster',
        'pubDate',
        'lastBuildDate',
        'generator',
        'docs',
        'ttl',
        'rating',
      ].map((l) => [n('', l), text]),
    ),
    [n('', 'link')]: page,
    [n('', 'category')]: category,
    [n('', 'cloud')]: {
      content: 'empty',
      attributes: { domain: 'keep', port: 'keep', path: 'keep', registerProcedure: 'keep', protocol: 'keep' },
    },
    [n('', 'image')]: { content: 'container', children: imageChildren },
    [n('', 'textInput')]: textInputRule,
    [n('', 'textinput')]: textInputRule,
    [n('', 'skipHours')]: { content: 'container', children: { [n('', 'hour')]: text } },
    [n('', 'skipDays')]: { content: 'container', children: { [n('', 'day')]: text } },
    [n('', 'item')]: RSS2_ITEM,
    ...EXTENSIONS,
  },
};

export const RSS2_ROOT: ElementRule = {
  content: 'container',
  lines: true,
  attributes: { version: 'keep', 'xml:lang': 'keep' },
  children: { [n('', 'channel')]: RSS2_CHANNEL },
};

/** An `<rss>` without `<channel>` (items directly under the root) is written in the same shape. */
export const RSS2_ROOT_WITHOUT_CHANNEL: ElementRule = {
  ...RSS2_CHANNEL,
  attributes: { version: 'keep', 'xml:lang': 'keep' },
};

// RSS 1.0: rdf:about names the channel's or item's page (mapped like its <link>); an rdf:resource points
// at an rdf:about and is mapped the same way so the references still match. The image's rdf:about is the
// image file's URL, kept like <url>.
const rdfPage: Record<string, 'page'> = { 'rdf:about': 'page', 'rdf:resource': 'page' };
const rss1Image: ElementRule = {
  content: 'container',
  attributes: { 'rdf:about': 'file', 'rdf:resource': 'file' },
  children: imageChildren,
};
const rss1TextInput: ElementRule = { ...textInputRule, attributes: { 'rdf:about': 'file', 'rdf:resource': 'file' } };

export const RSS1_ITEM: ElementRule = {
  content: 'container',
  lines: true,
  attributes: rdfPage,
  openNamespaces: OPEN,
  children: {
    [n('', 'title')]: text,
    [n('', 'link')]: page,
    [n('', 'description')]: { content: 'html' },
    ...EXTENSIONS,
  },
};

const rss1Items: ElementRule = {
  content: 'container',
  children: {
    [n(RDF_NS, 'Seq')]: {
      content: 'container',
      children: { [n(RDF_NS, 'li')]: { content: 'empty', attributes: { 'rdf:resource': 'page', resource: 'page' } } },
    },
  },
};

export const RSS1_ROOT: ElementRule = {
  content: 'container',
  lines: true,
  children: {
    [n('', 'channel')]: {
      content: 'container',
      lines: true,
      attributes: rdfPage,
      openNamespaces: OPEN,
      children: {
        [n('', 'title')]: text,
        [n('', 'link')]: page,
        [n('', 'description')]: text,
        [n('', 'items')]: rss1Items,
        [n('', 'image')]: rss1Image,
        [n('', 'textinput')]: rss1TextInput,
        ...EXTENSIONS,
      },
    },
    [n('', 'image')]: rss1Image,
    [n('', 'textinput')]: rss1TextInput,
    [n('', 'item')]: RSS1_ITEM,
  },
};

export { RSS1_NS };
