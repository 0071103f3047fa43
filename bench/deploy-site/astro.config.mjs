// The deploy benchmark's blog (bench/deploy.mjs): incremental builds and the image step switched by the
// environment, so that each build chain (its own cacheDir) differs from the others in one thing only.
import { defineConfig } from 'astro/config';

const incremental = process.env.BENCH_INCREMENTAL === '1';
export default defineConfig({
  site: 'https://blog.example.com',
  trailingSlash: 'always',
  image: { domains: process.env.BENCH_IMAGES === 'on' ? ['127.0.0.1'] : [] },
  ...(incremental ? { experimental: { incrementalBuild: true }, vite: { build: { emptyOutDir: false } } } : {}),
});
