import { describe, expect, it } from 'vitest';
import { findImages, isAllowedImageUrl, looksLikeSvg, replaceImages } from '../../src/html/images.js';

const CONTENT_LAYER_IMAGE_REGEX = /__ASTRO_IMAGE_="([^"]+)"/g; // Astro's, from astro/dist/content/runtime.js

describe('findImages', () => {
  it('reads http(s) images of sanitised HTML with their attributes decoded', () => {
    const images = findImages(
      '<p>x</p><img src="https://cdn.example.com/a.jpg?x=1&amp;y=2" alt="A &quot;chart&quot;" width="640" height="400" /><img src="/relative.png" />',
    );
    expect(images).toHaveLength(1);
    expect(images[0]!.src).toBe('https://cdn.example.com/a.jpg?x=1&y=2');
    expect(images[0]!.attributes).toMatchObject({ alt: 'A "chart"', width: '640', height: '400' });
  });
});

describe('isAllowedImageUrl: the rules of image.domains and image.remotePatterns', () => {
  it('domains match the exact hostname; patterns match protocol, wildcard hostnames, port and pathname', () => {
    expect(isAllowedImageUrl('https://cdn.example.com/a.jpg', { domains: ['cdn.example.com'] })).toBe(true);
    expect(isAllowedImageUrl('https://evil.cdn.example.com/a.jpg', { domains: ['cdn.example.com'] })).toBe(false);
    const remotePatterns = [{ protocol: 'https', hostname: '*.example.com', pathname: '/img/**' }];
    expect(isAllowedImageUrl('https://a.example.com/img/x/y.png', { remotePatterns })).toBe(true);
    expect(isAllowedImageUrl('https://a.b.example.com/img/y.png', { remotePatterns })).toBe(false);
    expect(isAllowedImageUrl('http://a.example.com/img/y.png', { remotePatterns })).toBe(false);
    expect(isAllowedImageUrl('https://a.example.com/other/y.png', { remotePatterns })).toBe(false);
    expect(
      isAllowedImageUrl('https://a.b.example.com/img/y.png', { remotePatterns: [{ hostname: '**.example.com' }] }),
    ).toBe(true);
    expect(isAllowedImageUrl('https://u:p@cdn.example.com/a.jpg', { domains: ['cdn.example.com'] })).toBe(false);
    expect(isAllowedImageUrl('https://cdn.example.com/a.jpg', {})).toBe(false);
  });

  it('SVG is recognised by its path', () => {
    expect(looksLikeSvg('https://cdn.example.com/logo.SVG?v=2')).toBe(true);
    expect(looksLikeSvg('https://cdn.example.com/logo.png')).toBe(false);
  });
});

describe('replaceImages: the placeholders render(entry) resolves', () => {
  it('swaps the fetched images for placeholders Astro parses, keeps the others, and lists the local paths', () => {
    const html =
      '<img src="https://cdn.example.com/a.jpg" alt="Say &quot;hi&quot; &amp; go" width="640" height="400" loading="lazy" /><img src="https://other.example/b.jpg" alt="b" />';
    const out = replaceImages(html, new Map([['https://cdn.example.com/a.jpg', './abc.jpg']]));
    expect(out.imagePaths).toEqual(['./abc.jpg']);
    expect(out.html).toContain('<img src="https://other.example/b.jpg" alt="b" />');
    const [match] = [...out.html.matchAll(CONTENT_LAYER_IMAGE_REGEX)];
    // Astro's own decoding of the attribute (runtime.js), then JSON.parse.
    const json = match![1]!
      .replace(/&(?:#x22|quot);/g, '"')
      .replace(/&(?:#x27|apos);/g, "'")
      .replace(/&(?:amp|#x26|#38);/g, '&');
    expect(JSON.parse(json)).toEqual({
      src: './abc.jpg',
      alt: 'Say "hi" & go',
      index: 0,
      layout: 'constrained',
      width: 640,
      height: 400,
      loading: 'lazy',
    });
  });

  it("the article's own text cannot pose as a placeholder (it would fail the page)", () => {
    const html = '<p>__ASTRO_IMAGE_="{"src":"https://x/a.jpg"}"</p><img src="https://cdn.example.com/a.jpg" alt="" />';
    const out = replaceImages(html, new Map([['https://cdn.example.com/a.jpg', './abc.jpg']]));
    expect([...out.html.matchAll(CONTENT_LAYER_IMAGE_REGEX)]).toHaveLength(1);
    expect(out.html).toContain('<p>__ASTRO_IMAGE&#95;="{"src":"https://x/a.jpg"}"</p>');
  });
});
