/**
 * A route's segments as Astro resolves them from its file path below src/pages ('/fr/blog/[slug].html'): one
 * array per path segment, `[slug].html` being a dynamic part then a static one, `[...path]` a spread.
 */
export function routeSegments(path: string): Array<Array<{ content: string; dynamic: boolean; spread: boolean }>> {
  return path
    .split('/')
    .filter(Boolean)
    .map((part) =>
      part
        .split(/(\[[^\]]+\])/)
        .filter(Boolean)
        .map((piece) => {
          const dynamic = piece.startsWith('[');
          const spread = piece.startsWith('[...');
          return { content: dynamic ? piece.replace(/^\[(?:\.\.\.)?|\]$/g, '') : piece, dynamic, spread };
        }),
    );
}
