// Maps the links of sanitised article HTML (the feed's `description`/`content:encoded`) to the blog.
// It runs on the sanitiser's output only, where every tag is closed, every attribute value is
// double-quoted with `&`, `<`, `>` and `"` escaped, and a `<` in text is escaped: a tag ends at the first
// `>`, and ` href="` inside a tag can only start an attribute. No regex over untrusted markup (the one it
// replaces was quadratic on `<a` without `>`, and turned `alt=" src=x onerror=alert(1) "` into a handler).

function decodeAttribute(value: string): string {
  return value.replaceAll('&quot;', '"').replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&amp;', '&');
}

function encodeAttribute(value: string): string {
  return value.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

/**
 * Every `<a href>` of sanitised HTML through `mapLink`; everything else unchanged. Linear. A link mapped to
 * `''` loses its `href` (the text stays, sending readers nowhere: an article the service no longer publishes).
 */
export function mapSanitizedLinks(html: string, mapLink: (url: string) => string): string {
  let out = '';
  let from = 0;
  for (let at = html.indexOf('<a ', 0); at !== -1; at = html.indexOf('<a ', from)) {
    const end = html.indexOf('>', at);
    if (end === -1) break;
    const tag = html.slice(at, end);
    const href = tag.indexOf(' href="');
    if (href !== -1) {
      const start = href + 7;
      const close = tag.indexOf('"', start);
      const value = decodeAttribute(tag.slice(start, close));
      const next = mapLink(value);
      if (next === '' && value !== '') {
        out += html.slice(from, at) + tag.slice(0, href) + tag.slice(close + 1);
        from = end;
        continue;
      }
      if (next !== value) {
        out += html.slice(from, at) + tag.slice(0, start) + encodeAttribute(next) + tag.slice(close);
        from = end;
        continue;
      }
    }
    out += html.slice(from, end);
    from = end;
  }
  return out + html.slice(from);
}
