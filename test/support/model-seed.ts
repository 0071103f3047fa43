/**
 * The seed and runs of a model test (test/model, test/model-site): `npm test` runs the fixed seed once;
 * MODEL_SEED (a number, or `random`) and MODEL_RUNS change them (`npm run test:model`, `npm run test:model:site`).
 */
export const RUNS = Number(process.env.MODEL_RUNS ?? 1);

export const SEED =
  process.env.MODEL_SEED === undefined
    ? 20261207
    : process.env.MODEL_SEED === 'random'
      ? Date.now() % 2 ** 31
      : Number(process.env.MODEL_SEED);
