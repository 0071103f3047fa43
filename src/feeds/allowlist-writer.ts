// Writes an upstream feed or sitemap out from an allow-list instead of copying it. Copying upstream XML
// and changing only URL values let an `<h:script xmlns:h="http://www.w3.org/1999/xhtml">`, an SVG
// `onload` or an `<?xml-stylesheet?>` through, and browsers run those on the blog's domain. Here only
// listed elements are written, each under its conventional prefix (declared once on the root), with
// escaped text, listed attributes and no comments, processing instructions or unknown elements. Whatever
// the input, the output's element names are the rule tables' names: no XHTML, SVG or MathML element can
// come out, and every prefix written is declared.

import { ACTIVE_NAMESPACES, NamespaceResolver, WELL_KNOWN_NAMESPACES } from './xml-namespaces.js';
import { attributesOf, textOf, type XmlElement } from './xml-scan.js';
import { escapeXmlAttribute, escapeXmlText, toCdata } from './xml-text.js';

/**
 * How a URL is written: `page` goes through the article mapper (a page of the service's site is a page of
 * the blog), `file` is kept (an image or audio file on the service's CDN is not on the blog), `self` is
 * the blog's own feed URL when the element's `rel` is "self" and a `page` otherwise.
 */
export type UrlKind = 'page' | 'file' | 'self';

export interface ElementRule {
  /** `text`: character data only; `html`: article HTML, sanitised; `container`: listed children only. */
  readonly content: 'text' | 'html' | 'container' | 'empty';
  /** The text is a URL of this kind; `permalink` = `page` unless `isPermaLink="false"`. */
  readonly url?: UrlKind | 'permalink';
  /** Attributes kept, by qualified name with the conventional prefix (`rdf:about`), and how their value is written. */
  readonly attributes?: Readonly<Record<string, UrlKind | 'keep'>>;
  /** Children by `<namespace URI>|<local name>`; '' is the document's own namespace. */
  readonly children?: Readonly<Record<string, ElementRule>>;
  /** The (trimmed) text the element must have to be written: a value the schema would refuse is dropped. */
  readonly pattern?: RegExp;
  /** Children on lines of their own (the feed's channel and items) rather than run together. */
  readonly lines?: boolean;
  /** Attribute values the element must have to be written at all (xhtml:link: rel="alternate", an http(s) href). */
  readonly requires?: Readonly<Record<string, RegExp>>;
  /** Elements of these extension namespaces are kept as text (or containers of the same) with unprefixed attributes. */
  readonly openNamespaces?: ReadonlySet<string>;
}

/** The rule for elements of an open extension namespace: any child of the same kind, any plain attribute. */
const OPEN_RULE: ElementRule = { content: 'text' };

export interface WriterOptions {
  xml: string;
  ns: NamespaceResolver;
  /** The namespace the upstream root is in: its elements match the rules' '' keys. */
  sourceNs: string;
  /** The namespace written as the default one ('' for none). */
  targetNs: string;
  mapUrl: (kind: UrlKind, value: string, element: XmlElement) => string;
  /** Sanitises article HTML; `element` is the one carrying it. */
  html: (text: string, element: XmlElement) => string;
  /**
   * Elements left out whole, before anything of theirs is read (the `<item>`s of articles the blog does not
   * have): the caller decides on the parsed tree, so no text is cut and parsed again.
   */
  omit?: ReadonlySet<XmlElement> | undefined;
}

const NAME = /^[A-Za-z_][A-Za-z0-9._-]*$/;
const PREFIX_OF: ReadonlyMap<string, string> = new Map(
  Object.entries(WELL_KNOWN_NAMESPACES).map(([prefix, uri]) => [uri, prefix]),
);

const CHILD_RULES = new WeakMap<ElementRule, ReadonlyMap<string, ReadonlyMap<string, ElementRule>>>();

/**
 * A rule's `children` as namespace key -> local name -> rule, built once per rule: looking a child up
 * then builds no `<namespace>|<local>` string (this runs for every element of a 50,000-URL sitemap).
 */
function childRules(rule: ElementRule): ReadonlyMap<string, ReadonlyMap<string, ElementRule>> {
  let byKey = CHILD_RULES.get(rule);
  if (byKey === undefined) {
    const map = new Map<string, Map<string, ElementRule>>();
    for (const [name, child] of Object.entries(rule.children ?? {})) {
      const bar = name.lastIndexOf('|');
      const key = name.slice(0, bar);
      let locals = map.get(key);
      if (locals === undefined) map.set(key, (locals = new Map()));
      locals.set(name.slice(bar + 1), child);
    }
    byKey = map;
    CHILD_RULES.set(rule, byKey);
  }
  return byKey;
}

/** The pieces an element was written in, as one string ('' for none: the element is not allowed). */
const joined = (pieces: readonly string[]): string => (pieces.length === 0 ? '' : pieces.join(''));

export class AllowListWriter {
  readonly #o: WriterOptions;
  /** Namespaces written, to declare on the root. */
  readonly used = new Set<string>();
  /** Elements dropped because they are in the XHTML, SVG or MathML namespace. */
  activeDropped = 0;
  /** Elements dropped because their prefix is undeclared and not well known. */
  readonly unknownPrefixes = new Set<string>();
  /** The start and end tags of elements written without attributes, made once per name (the names written). */
  readonly #tags = new Map<string, readonly [start: string, end: string]>();

  constructor(options: WriterOptions) {
    this.#o = options;
  }

  /** '' for the document's own namespace, else the namespace URI; undefined when it cannot be resolved. */
  #key(element: XmlElement): string | undefined {
    const uri = this.#o.ns.resolve(element);
    if (uri === undefined) {
      this.unknownPrefixes.add(element.prefix);
      return undefined;
    }
    return uri === this.#o.sourceNs ? '' : uri;
  }

  /** The output qualified name: unprefixed in the target namespace, the conventional prefix otherwise. */
  #qname(key: string, local: string): string | undefined {
    if (key === '') return local;
    const prefix = PREFIX_OF.get(key);
    if (prefix === undefined) return undefined;
    this.used.add(key);
    return `${prefix}:${local}`;
  }

  #attributes(element: XmlElement, rule: ElementRule, open: boolean): string {
    if (!rule.attributes && !open) return '';
    let out = '';
    const rel = attributesOf(this.#o.xml, element)
      .find((a) => a.name === 'rel')
      ?.value.trim();
    for (const a of attributesOf(this.#o.xml, element)) {
      if (a.name === 'xmlns' || a.name.startsWith('xmlns:')) continue;
      const colon = a.name.indexOf(':');
      let name = a.name;
      if (colon !== -1 && a.name.startsWith('xml:')) {
        // xml:lang, xml:base: the xml prefix is bound by definition, never declared.
      } else if (colon !== -1) {
        const uri = this.#o.ns.resolve(element, a.name.slice(0, colon));
        const prefix = uri === undefined ? undefined : PREFIX_OF.get(uri);
        if (prefix === undefined) continue;
        name = `${prefix}:${a.name.slice(colon + 1)}`;
      }
      const kind = rule.attributes?.[name] ?? (open && colon === -1 && NAME.test(name) ? 'keep' : undefined);
      if (kind === undefined) continue;
      let value = a.value;
      if (kind === 'self' && rel === 'self') value = this.#o.mapUrl('self', value.trim(), element);
      else if (kind !== 'keep') value = this.#o.mapUrl(kind === 'self' ? 'page' : kind, value.trim(), element);
      if (colon !== -1 && !name.startsWith('xml:'))
        this.used.add(WELL_KNOWN_NAMESPACES[name.slice(0, name.indexOf(':'))] ?? '');
      out += ` ${name}="${escapeXmlAttribute(value)}"`;
    }
    return out;
  }

  /** The start and end tags of an element written with these attributes. */
  #tagsOf(qname: string, attributes: string): readonly [start: string, end: string] {
    if (attributes !== '') return [`<${qname}${attributes}>`, `</${qname}>`];
    let tags = this.#tags.get(qname);
    if (tags === undefined) {
      tags = [`<${qname}>`, `</${qname}>`];
      this.#tags.set(qname, tags);
    }
    return tags;
  }

  #meets(element: XmlElement, requires: Readonly<Record<string, RegExp>>): boolean {
    const attributes = attributesOf(this.#o.xml, element);
    return Object.entries(requires).every(([name, pattern]) =>
      pattern.test(attributes.find((a) => a.name === name)?.value.trim() ?? ''),
    );
  }

  /** The element written under its rule, or '' when it is not allowed. */
  write(element: XmlElement, rule: ElementRule, open = false): string {
    const key = this.#key(element);
    return key === undefined ? '' : this.#write(element, key, rule, open);
  }

  /** `write` once the element's namespace key is known. */
  #write(element: XmlElement, key: string, rule: ElementRule, open: boolean): string {
    const out: string[] = [];
    this.#emit(element, key, rule, open, out);
    return joined(out);
  }

  /**
   * Appends the pieces of the element written under its rule to `out`, nothing when it is not allowed.
   * Pieces rather than a string per element: a sitemap's `<url>` is joined once from its tags and values
   * instead of from a dozen intermediate concatenations (see bench/sitemap-child.mjs). The join also
   * leaves one flat string: a sitemap keeps 50,000 of these until it packs them, and a tree of
   * concatenations is about three times the size.
   */
  #emit(element: XmlElement, key: string, rule: ElementRule, open: boolean, out: string[]): void {
    if (rule.requires && !this.#meets(element, rule.requires)) return;
    const qname = this.#qname(key, element.local);
    if (qname === undefined) return;
    const attributes = this.#attributes(element, rule, open);
    if (rule.content === 'empty') {
      out.push(`<${qname}${attributes}/>`);
      return;
    }
    if (rule.content === 'container' || (open && element.children.length > 0)) {
      if (rule.lines === true) {
        // Children on lines of their own: each is written whole, then joined with newlines.
        const parts = [`<${qname}${attributes}>`];
        for (const child of element.children) {
          const written = this.child(child, rule, open);
          if (written !== '') parts.push(written);
        }
        parts.push(`</${qname}>`);
        out.push(parts.join(parts.length > 2 ? '\n' : ''));
        return;
      }
      const tags = this.#tagsOf(qname, attributes);
      out.push(tags[0]);
      for (const child of element.children) this.#emitChild(child, rule, open, out);
      out.push(tags[1]);
      return;
    }
    const text = textOf(this.#o.xml, element);
    if (open && text.trim() === '') {
      out.push(`<${qname}${attributes}/>`);
      return;
    }
    let value: string;
    if (rule.pattern) {
      if (!rule.pattern.test(text.trim())) return;
      value = escapeXmlText(text.trim());
    } else if (rule.content === 'html') {
      value = toCdata(this.#o.html(text, element));
    } else if (rule.url === undefined) {
      value = escapeXmlText(text);
    } else {
      // A guid with isPermaLink="false" is an identifier, not a URL: written as it is.
      const identifier =
        rule.url === 'permalink' &&
        attributesOf(this.#o.xml, element)
          .find((a) => a.name === 'isPermaLink')
          ?.value.trim() === 'false';
      const kind: UrlKind = rule.url === 'permalink' ? 'page' : rule.url;
      value = escapeXmlText(identifier ? text.trim() : this.#o.mapUrl(kind, text.trim(), element));
    }
    const tags = this.#tagsOf(qname, attributes);
    out.push(tags[0], value, tags[1]);
  }

  /** A child of an element written under `parent`, or '' when it is not allowed there. */
  child(child: XmlElement, parent: ElementRule, parentOpen = false): string {
    const out: string[] = [];
    this.#emitChild(child, parent, parentOpen, out);
    return joined(out);
  }

  /** `child`, appending its pieces to `out`. */
  #emitChild(child: XmlElement, parent: ElementRule, parentOpen: boolean, out: string[]): void {
    if (this.#o.omit?.has(child)) return;
    const key = this.#key(child);
    if (key === undefined) return;
    const rule = childRules(parent).get(key)?.get(child.local);
    if (rule) {
      this.#emit(child, key, rule, false, out);
      return;
    }
    if (ACTIVE_NAMESPACES.has(key)) {
      this.activeDropped++;
      return;
    }
    // An extension element (itunes:owner, media:group) nests elements of its own namespace.
    if (parent.openNamespaces?.has(key) || (parentOpen && key !== '')) this.#emit(child, key, OPEN_RULE, true, out);
  }

  /** `xmlns` declarations for the target namespace and every namespace written. */
  declarations(extra: readonly string[] = []): string {
    let out = this.#o.targetNs === '' ? '' : ` xmlns="${escapeXmlAttribute(this.#o.targetNs)}"`;
    const prefixes = [...new Set([...extra, ...this.used])].flatMap((uri) => {
      const prefix = PREFIX_OF.get(uri);
      return prefix === undefined ? [] : [[prefix, uri] as const];
    });
    for (const [prefix, uri] of prefixes.sort(([a], [b]) => (a < b ? -1 : 1)))
      out += ` xmlns:${prefix}="${escapeXmlAttribute(uri)}"`;
    return out;
  }

  /** Warnings about what the allow-list dropped, for the server log. */
  warnings(what: string): string[] {
    const out: string[] = [];
    const repaired = [...this.#o.ns.undeclared].filter(([, known]) => known).map(([p]) => `${p}:`);
    if (repaired.length > 0)
      out.push(
        `${what} uses the namespace prefix${repaired.length === 1 ? '' : 'es'} ${repaired.join(', ')} without declaring ${repaired.length === 1 ? 'it' : 'them'}; the well-known namespace${repaired.length === 1 ? ' was' : 's were'} declared.`,
      );
    if (this.unknownPrefixes.size > 0)
      out.push(
        `${what} uses the undeclared namespace prefix${this.unknownPrefixes.size === 1 ? '' : 'es'} ${[...this.unknownPrefixes].map((p) => `${p}:`).join(', ')}; those elements were dropped.`,
      );
    if (this.activeDropped > 0)
      out.push(
        `${what} contains ${this.activeDropped} element${this.activeDropped === 1 ? '' : 's'} in the XHTML, SVG or MathML namespace; dropped (they could run script on the blog's domain).`,
      );
    return out;
  }
}
