/**
 * The service changes of the site model (fast-check commands): publish (as a draft too), a language variant,
 * edits of the body, title and featured image, status changes (published -> draft, draft -> published),
 * unpublish, republish, rename. Each keeps the model's truth (service.ts) in step.
 */
import fc from 'fast-check';
import { publishArticle, publishNewerElsewhere, patchArticle, setStatus, unpublishArticle } from './service-admin.js';
import {
  bodyOf,
  featuredUrl,
  freshArticle,
  keyOf,
  other,
  withLinks,
  type Article,
  type Lang,
  type Model,
  type SlugKind,
} from './service.js';
import type { Simulator } from '../../src/simulator/index.js';

export interface Real {
  sim: Simulator;
  dirs: import('./runner.js').SiteDirs;
}
export type Command = fc.AsyncCommand<Model, Real>;

const pick = (map: Map<string, Article>, n: number) => [...map.values()][n % map.size]!;
const step = (model: Model, text: string) => model.trace.push(text);

/** A new article: published, or a draft (never published: no page may show it); `long`: longer than the feed's cut. */
export class Publish implements Command {
  constructor(
    readonly word: string,
    readonly lang: Lang,
    readonly long = false,
    readonly status: Article['status'] = 'published',
    readonly slugKind: SlugKind = 'ascii',
  ) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const fresh = freshArticle(model, this.lang, this.word, undefined, this.slugKind);
    const article = { ...fresh, long: this.long, status: this.status };
    step(
      model,
      `publish ${keyOf(article.lang, article.slug)}${this.long ? ' (long)' : ''} as ${this.status}: ${article.title}`,
    );
    await publishArticle(model, real.sim, article);
    if (this.long) model.pending.add('publish long');
    if (this.status === 'published' && this.slugKind !== 'ascii') model.pending.add('non-ASCII slug');
    // Characters HTML escapes, or beyond ASCII: the page must show the title as the service wrote it.
    if (this.status === 'published' && !/^[\w -]*$/.test(this.word))
      model.pending.add('title with &, <, " or non-ASCII');
  }
  toString = () =>
    `Publish(${this.word}, ${this.lang}${this.long ? ', long' : ''}, ${this.status}${this.slugKind === 'ascii' ? '' : `, ${this.slugKind} slug`})`;
}

/** Published -> draft (its body edited at once when `edit`: a version never published), or a draft published. */
export class StatusChange implements Command {
  constructor(
    readonly n: number,
    readonly to: Article['status'],
    readonly edit: boolean,
  ) {}
  private from = (m: Readonly<Model>) => (this.to === 'draft' ? m.published : m.drafts);
  check = (m: Readonly<Model>) => this.from(m).size > 0;
  async run(model: Model, real: Real) {
    const article = pick(this.from(model), this.n);
    step(
      model,
      `status ${keyOf(article.lang, article.slug)} -> ${this.to}${this.edit ? `, body v${article.version + 1}` : ''}`,
    );
    await setStatus(model, real.sim, article, this.to, this.edit);
  }
  toString = () => `StatusChange(${this.n}, ${this.to}${this.edit ? ', edited' : ''})`;
}

/** The same slug published in the other language. */
export class AddLanguage implements Command {
  constructor(readonly n: number) {}
  private candidates = (m: Readonly<Model>) =>
    [...m.published.values()].filter(
      (a) => !m.published.has(keyOf(other(a.lang), a.slug)) && !m.drafts.has(keyOf(other(a.lang), a.slug)),
    );
  check = (m: Readonly<Model>) => this.candidates(m).length > 0;
  async run(model: Model, real: Real) {
    const source = this.candidates(model)[this.n % this.candidates(model).length]!;
    const lang = other(source.lang);
    const earlier = model.unpublished.get(keyOf(lang, source.slug));
    const article = { ...freshArticle(model, lang, 'Variant', source.slug), publishedAt: source.publishedAt };
    // The URL's history goes on: a page kept while pending may show the earlier article's last version there
    // (its title, body and links), as of any article whose new version has not reached the blog yet.
    if (earlier)
      Object.assign(article, {
        version: earlier.version + 1,
        titles: [...earlier.titles, article.title],
        publishedVersions: [...earlier.publishedVersions],
        linksEver: [...new Set([...earlier.linksEver, ...article.linksEver])],
      });
    step(model, `add language ${keyOf(lang, source.slug)}`);
    await publishArticle(model, real.sim, article);
    model.pending.add('add language');
  }
  toString = () => `AddLanguage(${this.n})`;
}

/** A new body: new version, `images` in-article images (add or remove), links to what is published now. */
export class EditBody implements Command {
  constructor(
    readonly n: number,
    readonly images: number,
  ) {}
  check = (m: Readonly<Model>) => m.published.size > 0;
  async run(model: Model, real: Real) {
    const article = pick(model.published, this.n);
    article.version += 1;
    article.images = this.images;
    withLinks(model, article, this.n + article.version);
    step(model, `edit body ${keyOf(article.lang, article.slug)} v${article.version} (${this.images} images)`);
    await patchArticle(model, real.sim, article, { content: bodyOf(article) });
    model.pending.add('edit body');
  }
  toString = () => `EditBody(${this.n}, ${this.images} images)`;
}

/** A new body for every published article at once (a site-wide edit): more detail calls than one window allows. */
export class EditAll implements Command {
  check = (m: Readonly<Model>) => m.published.size > 0;
  async run(model: Model, real: Real) {
    step(model, `edit every body (${model.published.size})`);
    for (const [i, article] of [...model.published.values()].entries()) {
      article.version += 1;
      // Without figures: fewer images for the build to fetch and resize.
      article.images = 0;
      withLinks(model, article, i + article.version);
      await patchArticle(model, real.sim, article, { content: bodyOf(article) });
    }
    model.pending.add('edit every body');
  }
  toString = () => 'EditAll';
}

export class EditTitle implements Command {
  constructor(readonly n: number) {}
  check = (m: Readonly<Model>) => m.published.size > 0;
  async run(model: Model, real: Real) {
    const article = pick(model.published, this.n);
    article.title = `${article.titles[0]} t${article.titles.length}`;
    article.titles.push(article.title);
    step(model, `edit title ${keyOf(article.lang, article.slug)}: ${article.title}`);
    await patchArticle(model, real.sim, article, { title: article.title });
    model.pending.add('edit title');
  }
  toString = () => `EditTitle(${this.n})`;
}

/** Another featured image, or none. */
export class Featured implements Command {
  constructor(
    readonly n: number,
    readonly remove: boolean,
  ) {}
  check = (m: Readonly<Model>) => m.published.size > 0;
  async run(model: Model, real: Real) {
    const article = pick(model.published, this.n);
    // A number never used before: the page's image names which version it shows.
    article.featured = this.remove ? null : model.next++;
    step(model, `featured ${keyOf(article.lang, article.slug)}: ${article.featured ?? 'none'}`);
    await patchArticle(model, real.sim, article, {
      featured_image: article.featured === null ? null : featuredUrl(article, article.featured),
    });
    model.pending.add('featured image');
  }
  toString = () => `Featured(${this.n}, ${this.remove ? 'remove' : 'change'})`;
}

export class Unpublish implements Command {
  constructor(readonly n: number) {}
  check = (m: Readonly<Model>) => m.published.size > 0;
  async run(model: Model, real: Real) {
    const article = pick(model.published, this.n);
    step(model, `unpublish ${keyOf(article.lang, article.slug)}`);
    await unpublishArticle(model, real.sim, article);
  }
  toString = () => `Unpublish(${this.n})`;
}

/** Published again, with a new body. */
export class Republish implements Command {
  constructor(readonly n: number) {}
  check = (m: Readonly<Model>) => [...m.unpublished.keys()].some((key) => !m.published.has(key) && !m.drafts.has(key));
  async run(model: Model, real: Real) {
    const candidates = new Map(
      [...model.unpublished].filter(([key]) => !model.published.has(key) && !model.drafts.has(key)),
    );
    const article = pick(candidates, this.n);
    article.version += 1;
    step(model, `republish ${keyOf(article.lang, article.slug)} v${article.version}`);
    await publishArticle(model, real.sim, article);
    model.pending.add('republish');
  }
  toString = () => `Republish(${this.n})`;
}

/**
 * A new slug for an article: unpublished under the old one, published under the new (same title and date).
 * `served`: of an article the blog serves a page of (its old URL then redirects, issue 38).
 */
export class Rename implements Command {
  constructor(
    readonly n: number,
    readonly served = false,
  ) {}
  private candidates = (m: Readonly<Model>) =>
    new Map([...m.published].filter(([key]) => !this.served || m.served.has(key)));
  check = (m: Readonly<Model>) => this.candidates(m).size > 0;
  async run(model: Model, real: Real) {
    const article = pick(this.candidates(model), this.n);
    const slug = `a${model.next++}`;
    step(model, `rename ${keyOf(article.lang, article.slug)} -> ${slug}`);
    const from = keyOf(article.lang, article.slug);
    const to = keyOf(article.lang, slug);
    for (const later of model.moves.values()) if (later.at(-1) === from) later.push(to);
    model.moves.set(from, [to]);
    await unpublishArticle(model, real.sim, article);
    await publishArticle(model, real.sim, {
      ...article,
      slug,
      version: 1,
      titles: [article.title],
      seq: 0,
      publishedVersions: [],
    });
    model.pending.add('rename');
  }
  toString = () => `Rename(${this.n}${this.served ? ', served' : ''})`;
}

/**
 * The site grows past the feed's 50: fifty newer articles in a language the blog does not build. The blog's
 * changes from then on show in the list and the sitemap only.
 */
export class PastFeed implements Command {
  check = (m: Readonly<Model>) => !m.pastFeed;
  async run(model: Model, real: Real) {
    step(model, "50 newer articles in de: the blog's articles are past the feed's 50");
    await publishNewerElsewhere(real.sim);
    model.pastFeed = true;
    model.pending.add("site past the feed's 50");
  }
  toString = () => 'PastFeed';
}
