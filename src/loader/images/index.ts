// Article images through Astro's pipeline: the option, the download cache in cacheDir and its bounds, the per-build step.
export * as imageBody from './image-body.js';
export * as imageCache from './image-cache.js';
export * as imageCachePrune from './image-cache-prune.js';
export * as imageDecoder from './image-decoder.js';
export * as imageFreshness from './image-freshness.js';
export * as imageHeader from './image-header.js';
export * as imageOptions from './image-options.js';
export * as imageWriteBounds from './image-write-bounds.js';
export * as imagesRefresh from './images-refresh.js';
export * as imagesStep from './images-step.js';
