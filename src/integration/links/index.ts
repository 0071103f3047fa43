// Links in the blog's pages to the service's articles point at the blog: the streaming rewrite, a moved article's 301.
export * as articleLinksResponse from './article-links-response.js';
export * as linkTags from './link-tags.js';
export * as movedRoute from './moved-route.js';
