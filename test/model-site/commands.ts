/**
 * The fast-check commands of the site model test beside the service changes (changes.ts): faults, storms, and
 * real builds of the model site (direct or by `watch --once`, some killed), each good build judged by
 * site-checks.ts.
 */
import { readFile } from 'node:fs/promises';
import { expect } from 'vitest';
import type { Command, Real } from './changes.js';
import { isLimiter429, windowHits } from './excuses.js';
import { checkSite, type Problem } from './site-checks.js';
import { BUDGET, RATE_LIMIT, runBuild, type BuildRun, type KillPoint } from './runner.js';
import { addFault, appliedFaults, clearFaults, setVariant } from './service-admin.js';
import { BASE, cover, LANGS, type Model } from './service.js';
import { CAUSES, faultSpec, TIMEOUT_OVERSHOOT_MS, type FaultEndpoint, type FaultKind } from './faults.js';

const step = (model: Model, text: string) => model.trace.push(text);

/** A fault of one kind on one kind of call of the next build (cleared after it); `n` picks a drift. */
export class Fault implements Command {
  constructor(
    readonly endpoint: FaultEndpoint,
    readonly kind: FaultKind,
    readonly times: number,
    readonly n = 0,
  ) {}
  check = () => true;
  async run(model: Model, real: Real) {
    step(model, `fault ${this.endpoint} ${this.kind} x${this.times}`);
    const id = await addFault(real.sim, faultSpec(this.endpoint, this.kind, this.times, this.n));
    model.faults.push({ id, endpoint: this.endpoint, kind: this.kind });
  }
  toString = () => `Fault(${this.endpoint}, ${this.kind} x${this.times})`;
}

/** A 429 storm: every API and feed request of the next ones answered 429. */
export class Storm implements Command {
  constructor(readonly times: number) {}
  check = () => true;
  async run(model: Model, real: Real) {
    step(model, `429 storm x${this.times}`);
    const id = await addFault(real.sim, { route: '*', status: 429, retryAfter: 0, times: this.times });
    model.faults.push({ id, endpoint: 'storm', kind: '429' });
  }
  toString = () => `Storm(${this.times})`;
}

const failText = (model: Model, run: BuildRun, problems: Problem[] = []) =>
  `steps:\n  ${model.trace.join('\n  ')}\nproblems:\n  ${problems.map((p) => `[${p.kind}] ${p.detail}`).join('\n  ')}\nbuild output:\n${run.logs}`;

const failureLines = (logs: string) =>
  logs
    .split('\n')
    .filter((line) => /BUILD FAILED|\berror\b|content-publisher: /i.test(line))
    .join('\n');

/** A real build; `killAt` kills it (SIGKILL) while the service holds that call of it. */
export class Build implements Command {
  constructor(
    readonly how: 'build' | 'watch',
    readonly killAt?: KillPoint,
  ) {}
  check = () => true;
  async run(model: Model, real: Real): Promise<void> {
    await this.execute(model, real);
  }
  /**
   * Runs the build and judges it (a good build's site by site-checks.ts, `final` as after convergence: its problems
   * of convergence are returned, not failed on). `problems`: undefined for a build whose site was not judged.
   */
  async execute(model: Model, real: Real, final = false): Promise<{ run: BuildRun; problems?: Problem[] }> {
    model.builds += 1;
    const stateBefore = await readFile(real.dirs.watchState, 'utf8').catch(() => undefined);
    // A delayed answer is recorded when it is sent: at most the overshoot after the build gave up on it.
    const late = model.faults.some((f) => f.kind === 'timeout') ? TIMEOUT_OVERSHOOT_MS + 500 : 0;
    const run = await runBuild(real.sim, real.dirs, this.how, this.killAt, late);
    const feedCalls = run.records.filter((r) => r.route.includes('rss.xml') || r.route.includes('sitemap.xml'));
    if ((model.variant.service.feedStaleEdgeSeconds ?? 0) > 0 && model.edgeCopiesAt === undefined && feedCalls.length)
      model.edgeCopiesAt = model.builds;
    const appliedIds = await appliedFaults(
      real.sim,
      model.faults.map((f) => f.id),
    );
    const applied = model.faults.filter((f) => appliedIds.has(f.id));
    // The service's own window: a 429 no fault sent, or a call that filled it (whether calls fall within one window
    // depends on the machine's speed: the coverage reports it, and requires only the headers' form).
    const limiter =
      run.records.some(isLimiter429) || run.records.some((r) => windowHits(run.records, r.at) >= RATE_LIMIT.requests);
    if (limiter) applied.push({ id: 'limiter', endpoint: 'limiter', kind: '429' });
    const reset = model.variant.service.rateLimitReset ?? 'epoch';
    const answers = run.records.filter((r) => r.authorization && r.status === 200).length;
    if (answers > 0) cover(model, `rate-limit headers answered, reset ${reset}`);
    if (!limiter && answers >= RATE_LIMIT.requests) cover(model, `a window's worth of answers, reset ${reset}`);
    await clearFaults(real.sim);
    model.faults = [];
    for (const record of run.records)
      if (record.route === 'GET /media/*' && (record.status !== 200 || record.faulted))
        model.imageFailures.add(record.path);
    step(
      model,
      `${this} -> build ${run.buildExit}${run.how === 'watch' ? `, watch ${run.watchExit}` : ''}; ${run.requests} requests; faults applied: ${applied.map((f) => `${f.endpoint} ${f.kind}`).join(', ') || 'none'}`,
    );
    // The coverage table: what reached this build.
    for (const fault of applied)
      cover(
        model,
        fault.endpoint === 'storm'
          ? 'storm'
          : fault.endpoint === 'limiter'
            ? `window spent, reset ${reset}`
            : `fault ${fault.endpoint} ${fault.kind}`,
      );
    if (this.killAt) cover(model, run.buildExit === 'killed' ? `kill at ${this.killAt.call} call` : 'kill not reached');
    if (run.buildExit === 0 || run.buildExit === 1) {
      // A killed build (or a watch that ran none) leaves the changes to the next one.
      for (const kind of model.pending) cover(model, kind);
      model.pending.clear();
      cover(model, `${this.how} ${run.buildExit === 0 ? 'succeeded' : 'failed'}`);
      if (run.buildExit === 0) cover(model, `variant ${model.variant.name}`);
    }
    expect(
      run.requests,
      `requests of all loaders (budget ${BUDGET} each)\n${failText(model, run)}`,
    ).toBeLessThanOrEqual(BUDGET * LANGS.length);
    // The build's or the watch's own error lines: what a fault must explain when it failed.
    const lines = failureLines(run.logs);
    if (run.how === 'watch') {
      const stateAfter = await readFile(real.dirs.watchState, 'utf8').catch(() => undefined);
      if (run.watchExit === 0) {
        expect(run.buildExit, `watch recorded a trigger of a build that did not succeed\n${failText(model, run)}`).toBe(
          0,
        );
        model.watchDirty = false;
      } else if (run.watchExit === 3) {
        expect(model.watchDirty, `watch saw nothing new after a change\n${failText(model, run)}`).toBe(false);
      } else if (stateBefore === undefined && stateAfter !== undefined) {
        // A failed first-run trigger leaves a state that knows no article, so that the next run triggers.
        const saved = JSON.parse(stateAfter) as { rss: { items: unknown[] }; sitemap: { entries: object } };
        expect([saved.rss.items, saved.sitemap.entries], `a failed first trigger\n${failText(model, run)}`).toEqual([
          [],
          {},
        ]);
      } else {
        expect(stateAfter, `watch changed its state without a trigger\n${failText(model, run)}`).toBe(stateBefore);
      }
      // A watch that ran no build and failed: only a fault on what it reads (the public feeds) explains it.
      if (run.buildExit === 'not-run' && run.watchExit !== 3)
        expect(
          applied.some((f) => ['rss', 'sitemap', 'storm'].includes(f.endpoint) && CAUSES[f.endpoint]!.test(lines)),
          `watch failed (exit ${run.watchExit}) without a fault on the feeds it reads\n${failText(model, run)}`,
        ).toBe(true);
    }
    if (run.buildExit === 'killed' || run.buildExit === 'not-run') return { run };
    if (run.buildExit !== 0) {
      expect(
        applied.some((f) => CAUSES[f.endpoint]!.test(lines)),
        `the build failed with an error no applied fault (${applied.map((f) => `${f.endpoint} ${f.kind}`).join(', ') || 'none'}) causes:\n${lines}\n${failText(model, run)}`,
      ).toBe(true);
      return { run };
    }
    const problems = await checkSite(model, real.sim, real.dirs, run, final);
    const wrong = problems.filter((p) => p.kind !== 'converged');
    expect(wrong, failText(model, run, wrong)).toEqual([]);
    return { run, problems };
  }
  toString = () =>
    `${this.how === 'watch' ? 'WatchBuild' : 'Build'}${this.killAt === undefined ? '' : `(killed at ${this.killAt.call} call ${this.killAt.n})`}`;
}

/** Quiet builds in a row that may bring no page closer to the service before convergence fails. */
const STALLED_BUILDS = 2;
/** Quiet builds at most (a round's many changes may need several windows of the rate limit). */
const QUIET_BUILDS = 12;

/**
 * Quiet builds until every page is what the model says the service has, but for what is out of the loader's
 * reach: each build is judged as usual and as final at once; it must come closer with every build (fewer pages
 * behind) but for STALLED_BUILDS in a row, within QUIET_BUILDS. Judged from the model's truth, never from the
 * build's own count of pending articles.
 */
export async function converge(model: Model, real: Real): Promise<void> {
  await clearFaults(real.sim);
  model.faults = [];
  model.trace.push(`variant: ${BASE.name} (quiet builds)`);
  await setVariant(model, real.sim, BASE);
  let fewest = Number.POSITIVE_INFINITY;
  let stalled = 0;
  for (let i = 1; ; i += 1) {
    // Judged once, as final (one preview of the site); a build that failed leaves the last site to judge.
    const { run, problems: judged } = await new Build('build').execute(model, real, true);
    const problems = judged ?? (await checkSite(model, real.sim, real.dirs, run, true));
    if (problems.length === 0) return;
    stalled = problems.length < fewest ? 0 : stalled + 1;
    fewest = Math.min(fewest, problems.length);
    if (stalled === STALLED_BUILDS || i === QUIET_BUILDS)
      expect(
        problems,
        `after ${i} quiet builds (${stalled} in a row brought nothing closer)\n${failText(model, run, problems)}`,
      ).toEqual([]);
  }
}
