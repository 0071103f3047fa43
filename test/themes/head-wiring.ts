/**
 * The article's head wired into a theme copy as docs/guides/themes.md says ("The article's head"): the blog
 * starter's `BaseHead.astro` is the guide's sample itself, read from the guide; Astro Cactus' `BlogPost.astro`
 * gets what the guide's paragraph on it describes (`articleHead()` values into the theme's `meta`, the JSON-LD
 * script in the content, the optimised featured image as `og:image`).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO } from './theme-project.js';

const GUIDE = join(REPO, 'docs/guides/themes.md');

/** The code of the guide's sample marked `<!-- sample: <name> -->`. */
export function guideSample(name: string): string {
  const text = readFileSync(GUIDE, 'utf8');
  const sample = new RegExp(
    `<!-- sample: ${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} -->\\n\`\`\`\\w*\\n([\\s\\S]*?)\\n\`\`\``,
  ).exec(text)?.[1];
  if (sample === undefined) throw new Error(`docs/guides/themes.md has no sample "${name}"`);
  return `${sample}\n`;
}

/** The starter copy's `BaseHead.astro` replaced by the guide's. */
export function wireStarterHead(dir: string): void {
  writeFileSync(join(dir, 'src/components/BaseHead.astro'), guideSample('starter/src/components/BaseHead.astro'));
}

function replaceOnce(file: string, from: string, to: string): void {
  const text = readFileSync(file, 'utf8');
  if (!text.includes(from)) throw new Error(`${file} no longer holds ${JSON.stringify(from)}`);
  writeFileSync(file, text.replace(from, to));
}

/** Cactus' `BlogPost.astro` passing `articleHead()`'s values to its `BaseLayout`, as the guide says. */
export function wireCactusHead(dir: string): void {
  const layout = join(dir, 'src/layouts/BlogPost.astro');
  replaceOnce(
    layout,
    'import BaseLayout from "./Base.astro";',
    `import BaseLayout from "./Base.astro";
import { getImage } from "astro:assets";
import { articleHead } from "astro-content-publisher/head";
import { siteConfig } from "@/site.config";`,
  );
  // The theme's own values for its head, no longer read.
  replaceOnce(
    layout,
    `const { ogImage, title, description, updatedDate, publishDate } = post.data;
const socialImage = ogImage;
const articleDate = updatedDate?.toISOString() ?? publishDate.toISOString();
`,
    '',
  );
  replaceOnce(
    layout,
    'const readingTime = ',
    `const cover = post.data.featuredImageAsset;
const head = articleHead(post, {
	site: Astro.site!,
	url: Astro.url,
	author: { name: siteConfig.author },
	image: cover ? await getImage({ src: cover, width: 1200 }) : undefined,
});
const readingTime = `,
  );
  replaceOnce(
    layout,
    `meta={{
		articleDate,
		description,
		ogImage: socialImage,
		title,
	}}`,
    'meta={{ title: head.title, description: head.description, ogImage: head.image?.url, articleDate: head.publishedTime }}',
  );
  replaceOnce(
    layout,
    '<article class="grow break-words" data-pagefind-body>',
    `<article class="grow break-words" data-pagefind-body>
		<script type="application/ld+json" set:html={head.jsonLdText} />`,
  );
}
