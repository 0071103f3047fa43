import { describe, expect, test } from 'vitest';
import {
  SANITIZER_POLICY_VERSION,
  SanitizeOptionsError,
  sanitizeArticle,
  sanitizeOptionsSchema,
} from '../../src/html/index.js';

function messages(input: unknown): string[] {
  const result = sanitizeOptionsSchema.safeParse(input);
  return result.success ? [] : result.error.issues.map((issue) => issue.message);
}

describe('sanitize options', () => {
  test('valid extensions parse', () => {
    const input = {
      allowedTags: ['video', 'Source'],
      allowedAttributes: { video: ['controls', 'data-*'], '*': ['aria-*'] },
      allowedIframeHosts: ['www.loom.com'],
      allowedClasses: { div: ['callout-*'] },
      allowedSchemes: ['https'],
    };
    expect(sanitizeOptionsSchema.parse(input)).toEqual(input);
    expect(messages({})).toEqual([]);
  });

  test('dangerous tags are refused, naming the option', () => {
    expect(messages({ allowedTags: ['script'] })).toEqual([
      '`sanitize.allowedTags` cannot allow <script>: it can run script, load content or submit data. Sanitising cannot be loosened for such tags; remove it from the list.',
    ]);
    for (const tag of [
      'style',
      'SVG',
      'math',
      'form',
      'input',
      'button',
      'select',
      'textarea',
      'option',
      'object',
      'embed',
      'base',
      'meta',
      'link',
    ]) {
      expect(messages({ allowedTags: [tag] }), tag).toEqual([
        expect.stringContaining(`cannot allow <${tag.toLowerCase()}>`),
      ]);
    }
    expect(messages({ allowedAttributes: { script: ['src'] } })).toEqual([
      '`sanitize.allowedAttributes` cannot allow <script>: it can run script, load content or submit data. Sanitising cannot be loosened for such tags; remove it from the list.',
    ]);
  });

  test('event handlers, style and other dangerous attributes are refused', () => {
    expect(messages({ allowedAttributes: { img: ['onerror'] } })).toEqual([
      '`sanitize.allowedAttributes` cannot allow event handler "onerror": on* attributes run script. Remove it.',
    ]);
    expect(messages({ allowedAttributes: { '*': ['style'] } })).toEqual([
      '`sanitize.allowedAttributes` cannot allow "style": it can carry script, styles or another document. Remove it.',
    ]);
    expect(messages({ allowedAttributes: { iframe: ['srcdoc'] } })).toHaveLength(1);
    expect(messages({ allowedAttributes: { a: ['o*'] } })).toEqual([
      '`sanitize.allowedAttributes` has an invalid attribute name "o*". Use plain names such as "controls"; the only patterns accepted are "data-*" and "aria-*".',
    ]);
  });

  test('other URL schemes are refused', () => {
    expect(messages({ allowedSchemes: ['https', 'javascript'] })).toEqual([
      '`sanitize.allowedSchemes` may only narrow the list http, https, mailto (got "javascript"). Other schemes can run script or reach local apps; link to an https page instead.',
    ]);
  });

  test('iframe hosts must be bare hostnames', () => {
    expect(messages({ allowedIframeHosts: ['https://www.loom.com/embed'] })).toEqual([
      '`sanitize.allowedIframeHosts` entries must be bare hostnames such as "player.vimeo.com" (got "https://www.loom.com/embed"). Leave out the scheme, port, path and wildcards.',
    ]);
    expect(messages({ allowedIframeHosts: ['*.example.com'] })).toHaveLength(1);
  });

  test('sanitising cannot be switched off', () => {
    expect(messages(false)).toEqual([
      '`sanitize` must be an object of allow-list extensions (got false). Sanitising cannot be switched off; to keep more markup, extend allowedTags or allowedAttributes.',
    ]);
    expect(messages({ allowVulnerableTags: true, disallowedTagsMode: 'escape' })).toEqual([
      '`sanitize` has no option "allowVulnerableTags", "disallowedTagsMode". Supported: allowedTags, allowedAttributes, allowedIframeHosts, allowedClasses, allowedSchemes. Sanitising cannot be switched off or bypassed.',
    ]);
  });

  test('sanitizeArticle throws SanitizeOptionsError listing every problem', () => {
    const call = () => sanitizeArticle('<p>x</p>', { sanitize: { allowedTags: ['script', 'svg'] } });
    expect(call).toThrow(SanitizeOptionsError);
    expect(call).toThrow(/<script>[\s\S]*\n[\s\S]*<svg>/);
  });

  test('the policy version is a non-empty string', () => {
    expect(SANITIZER_POLICY_VERSION).toMatch(/^\S+$/);
  });
});
