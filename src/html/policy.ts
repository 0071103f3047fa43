/**
 * The sanitising policy: pure data, no behaviour. Everything here is the floor that user options can
 * extend (see options.ts) but never lower. Bump SANITIZER_POLICY_VERSION whenever anything in this file,
 * the transforms or the heading ids changes the output: the loader folds it into its fingerprint so
 * that stored articles are re-sanitised under the new policy.
 */

/** Version of the sanitising policy; part of the loader's store fingerprint. */
export const SANITIZER_POLICY_VERSION = '1';

/** The only URL schemes an attribute may carry (plus relative URLs and fragments). */
export const ALLOWED_SCHEMES = ['http', 'https', 'mailto'] as const;
export type AllowedScheme = (typeof ALLOWED_SCHEMES)[number];

/** Video hosts whose embeds are kept (sandboxed); everything else loses its iframe. */
export const DEFAULT_IFRAME_HOSTS: readonly string[] = [
  'www.youtube.com',
  'www.youtube-nocookie.com',
  'player.vimeo.com',
];

/**
 * Article markup: text semantics, sections, lists, tables, figures, code, images, vetted iframes.
 * Ordered by how often articles use them: sanitize-html looks tags up with indexOf several times per
 * node, so frequent tags first is a measurable part of the throughput.
 */
export const BASE_ALLOWED_TAGS: readonly string[] = [
  'p',
  'a',
  'li',
  'strong',
  'em',
  'code',
  'br',
  'ul',
  'td',
  'tr',
  'h2',
  'h3',
  'span',
  'b',
  'i',
  'ol',
  'img',
  'pre',
  'th',
  'blockquote',
  'figure',
  'figcaption',
  'table',
  'tbody',
  'thead',
  'h4',
  'hr',
  'div',
  'iframe',
  'h1',
  'h5',
  'h6',
  'sup',
  'sub',
  'mark',
  'kbd',
  'small',
  'cite',
  'q',
  'abbr',
  'time',
  'dl',
  'dt',
  'dd',
  'caption',
  'col',
  'colgroup',
  'tfoot',
  'del',
  'ins',
  's',
  'u',
  'details',
  'summary',
  'address',
  'article',
  'aside',
  'footer',
  'header',
  'hgroup',
  'main',
  'nav',
  'section',
  'menu',
  'bdi',
  'bdo',
  'data',
  'dfn',
  'rp',
  'rt',
  'ruby',
  'samp',
  'var',
  'wbr',
];

/**
 * Per-tag attributes. `id` only on headings (generated), `style` and `on*` nowhere. No global ('*')
 * entry on purpose: it makes sanitize-html walk the attributes of every element.
 */
export const BASE_ALLOWED_ATTRIBUTES: Readonly<Record<string, readonly string[]>> = {
  a: ['href', 'target', 'rel', 'hreflang', 'title'],
  img: ['src', 'srcset', 'sizes', 'alt', 'title', 'width', 'height', 'loading', 'decoding'],
  iframe: ['src', 'width', 'height', 'title', 'allow', 'allowfullscreen', 'sandbox', 'loading', 'referrerpolicy'],
  h1: ['id'],
  h2: ['id'],
  h3: ['id'],
  h4: ['id'],
  h5: ['id'],
  h6: ['id'],
  td: ['colspan', 'rowspan', 'headers'],
  th: ['colspan', 'rowspan', 'headers', 'scope', 'abbr'],
  col: ['span'],
  colgroup: ['span'],
  ol: ['start', 'reversed', 'type'],
  li: ['value'],
  blockquote: ['cite'],
  q: ['cite'],
  del: ['cite', 'datetime'],
  ins: ['cite', 'datetime'],
  time: ['datetime'],
  data: ['value'],
  details: ['open'],
  abbr: ['title'],
  dfn: ['title'],
  span: ['lang', 'dir'],
  p: ['lang', 'dir'],
  bdo: ['dir'],
};

/** Classes are presentation hooks: only syntax-highlighting languages by default. */
export const BASE_ALLOWED_CLASSES: Readonly<Record<string, readonly string[]>> = {
  code: ['language-*'],
  pre: ['language-*'],
};

/**
 * Tags whose content is dropped with them: raw text (script, style), foreign content where the
 * HTML parser's and the browser's views differ (svg, math, noscript, template: mutation XSS), and
 * fallback content of plugins.
 */
export const DROP_CONTENT_TAGS: readonly string[] = [
  'script',
  'style',
  'textarea',
  'option',
  'xmp',
  'noscript',
  'noembed',
  'noframes',
  'template',
  'svg',
  'math',
  'select',
  'title',
  'object',
  'applet',
  'plaintext',
];

/**
 * Tags users may never allow: script-capable, style, foreign content, form controls, plugins,
 * document-level and navigation-changing elements.
 */
export const FORBIDDEN_TAGS: ReadonlySet<string> = new Set([
  'script',
  'style',
  'link',
  'meta',
  'base',
  'svg',
  'math',
  'image',
  'use',
  'animate',
  'set',
  'animatemotion',
  'animatetransform',
  'foreignobject',
  'annotation-xml',
  'form',
  'input',
  'button',
  'select',
  'textarea',
  'option',
  'optgroup',
  'datalist',
  'output',
  'fieldset',
  'legend',
  'label',
  'keygen',
  'isindex',
  'object',
  'embed',
  'applet',
  'param',
  'frame',
  'frameset',
  'noframes',
  'noembed',
  'noscript',
  'template',
  'xmp',
  'plaintext',
  'listing',
  'html',
  'head',
  'body',
  'title',
  'portal',
  'fencedframe',
  'canvas',
  'dialog',
  'slot',
]);

/**
 * Attributes users may never allow (besides every `on*` handler): inline CSS, inline documents,
 * form submission targets, namespace tricks and meta refresh.
 */
export const FORBIDDEN_ATTRIBUTES: ReadonlySet<string> = new Set([
  'style',
  'srcdoc',
  'formaction',
  'action',
  'xmlns',
  'http-equiv',
  'is',
  'nonce',
  'autofocus',
  'contenteditable',
  'popover',
  'popovertarget',
]);

/** Attributes whose value is a URL: checked against ALLOWED_SCHEMES by sanitize-html. */
export const URL_ATTRIBUTES: readonly string[] = [
  'href',
  'src',
  'cite',
  'action',
  'formaction',
  'data',
  'xlink:href',
  'poster',
  'background',
  'ping',
  'longdesc',
  'usemap',
  'codebase',
  'classid',
  'archive',
  'profile',
  'manifest',
  'itemid',
  'dynsrc',
  'lowsrc',
];

/** What every kept iframe gets, whatever the source said. */
export const IFRAME_SANDBOX = 'allow-scripts allow-same-origin allow-presentation';
// Video players refuse to play without a referrer (YouTube error 153): send the origin only.
export const IFRAME_REFERRER_POLICY = 'strict-origin-when-cross-origin';
/** Permissions an embedded player may ask for; anything else in `allow` is dropped. */
export const IFRAME_ALLOW_FEATURES: ReadonlySet<string> = new Set([
  'accelerometer',
  'autoplay',
  'clipboard-write',
  'encrypted-media',
  'fullscreen',
  'gyroscope',
  'picture-in-picture',
  'web-share',
]);

/** `rel` tokens kept from the source; noopener/noreferrer are added for external links. */
export const SAFE_REL_TOKENS: ReadonlySet<string> = new Set([
  'nofollow',
  'ugc',
  'sponsored',
  'noopener',
  'noreferrer',
  'external',
  'author',
  'license',
  'tag',
  'bookmark',
  'help',
  'prev',
  'next',
]);
