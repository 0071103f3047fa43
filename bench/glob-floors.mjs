// The floors of the deploy ratios (issue 19): the same two comparisons as bench/deploy.mjs, on the same
// blog (bench/deploy-site), with Astro's own glob() loader over the same articles as local Markdown files.
// - a one-change incremental rebuild against a full warm build, the change being one file's title;
// - a warm build whose articles carry their 3,000 images as local files (Markdown images, which Astro's
//   image service optimises like the loader's local copies) against the same build with the images left
//   remote (`<img>` in the HTML, as the loader leaves them with `images: false`).
// What Astro's pipeline costs its own loader is the least these ratios can be with any loader.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { chainBuilder, changedPairs, deployEnv, INCREMENTAL, OFF } from './deploy.mjs';
import { interleaved, ratioFigures, writeMarkdown } from './site-build.mjs';

const IMG = /<img\b[^>]*>/g;
const attribute = (tag, name) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];

/**
 * The articles with each image of the simulator's /media/ as a local file beside the Markdown: the `<img>`
 * leaves the HTML and comes back as a Markdown image after it (Astro optimises Markdown images, not HTML
 * ones). Returns how many images were written.
 */
async function writeMarkdownWithImages(details, dir, mediaOrigin) {
  let images = 0;
  const withImages = [];
  for (const article of details) {
    const local = [];
    const content = article.content.replace(IMG, (tag) => {
      const src = attribute(tag, 'src');
      if (!src?.startsWith(`${mediaOrigin}/media/`)) return tag;
      local.push({ src, alt: (attribute(tag, 'alt') ?? '').replace(/[[\]]/g, '') });
      return '';
    });
    const lines = [];
    for (const [i, { src, alt }] of local.entries()) {
      const file = `media/${article.slug}/${i}-${src.split('/').at(-1)}`;
      const response = await fetch(src);
      if (!response.ok) throw new Error(`bench floors: ${src} answered ${response.status}`);
      mkdirSync(dirname(join(dir, file)), { recursive: true });
      writeFileSync(join(dir, file), Buffer.from(await response.arrayBuffer()));
      lines.push(`![${alt}](./${file})`);
      images += 1;
    }
    withImages.push({ ...article, content: `${content}\n\n${lines.join('\n\n')}\n` });
  }
  writeMarkdown(withImages, dir);
  return images;
}

/** Sets the title in one Markdown file's frontmatter (the change the incremental rebuild picks up). */
function retitle(dir, slug, title) {
  const file = join(dir, `${slug}.md`);
  const text = readFileSync(file, 'utf8');
  writeFileSync(file, text.replace(/^title: .*$/m, `title: ${JSON.stringify(title)}`));
}

/**
 * glob()'s one-change incremental rebuild against its full warm build, as interleaved pairs on the articles
 * `details` (written as Markdown under `work`). Returns changedPairs()'s result (with, per chain, the builds
 * after which a retitled page still showed its old title), the glob() chains' builder and the full chain's
 * environment.
 * (No `astroShare` here: glob()'s loader is Astro's.)
 */
export async function measureGlobIncremental({ simulator, siteId, work, log, details, pairs }) {
  const articles = details.length;
  const dir = join(work, 'floors-articles');
  writeMarkdown(details, dir);
  const build = chainBuilder({ ...deployEnv(simulator, siteId), BENCH_SOURCE: 'glob' }, work, articles);
  const off = { ...OFF, BENCH_GLOB_DIR: dir };
  const incremental = { ...INCREMENTAL, BENCH_GLOB_DIR: dir };
  log(`bench floors: glob() over the same ${articles} articles, cold builds of the full and the incremental chain...`);
  await build('glob-full', off);
  await build('glob-incremental', incremental);
  log(`bench floors: ${pairs} pairs of (one file retitled, incremental rebuild | full warm build), interleaved...`);
  const result = await changedPairs({
    pairs,
    work,
    prefix: 'glob-',
    log: (line) => log(`bench floors: glob() ${line}`),
    incremental: async () => ({ built: await build('glob-incremental', incremental) }),
    full: async () => ({ built: await build('glob-full', off) }),
    change: (i) => {
      const { slug } = details[(Math.floor(articles / 2) + i * 7) % articles];
      const title = `Changed for the floors bench (${i}): ${slug}`;
      retitle(dir, slug, title);
      return { slug, title };
    },
  });
  return { ...result, build, off };
}

export async function measureGlobFloors({ simulator, siteId, work, log, details, pairs = 5 }) {
  const inc = await measureGlobIncremental({ simulator, siteId, work, log, details, pairs });
  const { build } = inc;
  const onDir = join(work, 'floors-articles-images');
  const images = await writeMarkdownWithImages(details, onDir, new URL(simulator.url).origin);
  const on = { ...OFF, BENCH_GLOB_DIR: onDir };
  log(`bench floors: glob() with ${images} local images, cold build...`);
  await build('glob-images', on);
  log(`bench floors: ${pairs} pairs of warm builds (glob() images local | remote), interleaved...`);
  const img = await interleaved(
    pairs,
    () => build('glob-images', on),
    () => build('glob-full', inc.off),
  );
  return {
    figures: {
      ...ratioFigures('globFloor.incrementalVsFull', inc),
      'globFloor.stale': inc.stale.incremental + inc.stale.full,
      'globFloor.images': images,
      ...ratioFigures('globFloor.imagesOnVsOff', img),
    },
    builds: {
      globIncremental1: inc.runs.map((r) => r.a),
      globFullWarm: inc.runs.map((r) => r.b),
      globImagesWarm: img.runs.map((r) => r.a),
    },
  };
}
