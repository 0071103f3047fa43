import { describe, expect, it } from 'vitest';
import { createDetailGate, type GatePass } from '../../src/loader/sync/detail-gate.js';

/** Lets every pending promise callback run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

/** `count` details entering a gate of `width`: the passes handed out so far, and those turned away. */
function enterAll(width: number, count: number) {
  const gate = createDetailGate(width);
  const passes: GatePass[] = [];
  let turnedAway = 0;
  const all = Promise.all(
    Array.from({ length: count }, async () => {
      const pass = await gate.enter();
      if (pass) passes.push(pass);
      else turnedAway += 1;
    }),
  );
  return { gate, passes, all, turnedAway: () => turnedAway };
}

describe('the detail gate', () => {
  it('a schema that refuses every article: only the first width of details are sent, the rest turned away', async () => {
    const { gate, passes, all, turnedAway } = enterAll(4, 19);
    await settle();
    expect(passes).toHaveLength(4);
    // Answers alone free no place while no article has passed the schema.
    for (const pass of passes) pass.answered();
    await settle();
    expect(passes).toHaveLength(4);
    passes[0]!.done('refused');
    await settle();
    expect(gate.closed).toBe(true);
    for (const pass of passes.slice(1)) pass.done('refused');
    await all;
    expect(passes).toHaveLength(4);
    expect(turnedAway()).toBe(15);
  });

  it('a detail that failed otherwise (a 404, a timeout) frees its place: the next one goes out', async () => {
    const { passes, all, turnedAway } = enterAll(2, 4);
    await settle();
    passes[0]!.done('failed');
    await settle();
    expect(passes).toHaveLength(3);
    for (const pass of passes.slice(1)) pass.done('passed');
    await all;
    expect(passes).toHaveLength(4);
    expect(turnedAway()).toBe(0);
  });

  it('once an article passed the schema, a place is free as soon as the service answered', async () => {
    const { passes, all } = enterAll(2, 5);
    await settle();
    passes[0]!.done('passed');
    await settle();
    expect(passes).toHaveLength(3);
    passes[1]!.answered();
    passes[2]!.answered();
    await settle();
    expect(passes).toHaveLength(5);
    for (const pass of passes.slice(1)) pass.done('passed');
    await all;
  });

  it('a refusal after others passed still stops the details not yet sent (the build fails on it anyway)', async () => {
    const { gate, passes, all, turnedAway } = enterAll(2, 6);
    await settle();
    passes[0]!.done('passed');
    await settle();
    passes[1]!.done('refused');
    passes[2]!.done('passed');
    await all;
    expect(gate.closed).toBe(true);
    expect(passes).toHaveLength(3);
    expect(turnedAway()).toBe(3);
    expect(await gate.enter()).toBeUndefined();
  });
});
