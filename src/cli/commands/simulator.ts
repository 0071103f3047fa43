/** `simulator`: the local service simulator (implemented in src/simulator/cli.ts, wired here). */
import { PROFILE_NAMES, VARIANTS_HELP } from '../../simulator/variants.js';
import type { CommandSpec } from '../command.js';

export const simulatorCommand: CommandSpec = {
  name: 'simulator',
  summary: 'run the local simulator of the service (prints one JSON line with its URL and tokens)',
  usage:
    '[--port 0] [--seed 1] [--articles 30] [--rate-limits first|second] [--window-ms N] [--generate-delay-ms N] ' +
    '[--rate-limit-override N] [--extra-pro-token T ...] [--profile NAME] [--variant key=value ...]',
  details:
    'Serves the API and the public feeds on 127.0.0.1 until SIGINT/SIGTERM. The first line on stdout is\n' +
    '{"url","tokens":{"free","solo","pro","agence"},"sites":{"pro":[...],"agence":[...]},"cmsUnreachable":[13]}:\n' +
    'the sites in cmsUnreachable answer 502 on purpose (their CMS cannot be reached): blogs use one of the others.\n\n' +
    VARIANTS_HELP,
  options: {
    port: { type: 'string', placeholder: 'N', description: 'TCP port (0: a free one)' },
    seed: { type: 'string', placeholder: 'N', description: 'seed of the generated content' },
    articles: { type: 'string', placeholder: 'N', description: 'articles per site' },
    'rate-limits': {
      type: 'string',
      placeholder: 'first|second',
      description: 'which description of the rate limits applies',
    },
    'window-ms': { type: 'string', placeholder: 'N', description: 'length of the rate-limit window in ms' },
    'generate-delay-ms': { type: 'string', placeholder: 'N', description: 'how long a generate call takes, in ms' },
    'rate-limit-override': { type: 'string', placeholder: 'N', description: 'the same hourly limit for every plan' },
    'extra-pro-token': {
      type: 'string',
      placeholder: 'T',
      description: 'one more valid Pro token (repeatable), e.g. for leak checks',
    },
    profile: {
      type: 'string',
      placeholder: 'NAME',
      description: `a named set of variants: ${PROFILE_NAMES.join(', ')} (see the variants above)`,
    },
    variant: {
      type: 'string',
      placeholder: 'key=value',
      description: 'one variant (repeatable; see the variants above)',
    },
  },
  positionals: [],
  examples: [
    'content-publisher simulator --port 4455',
    'content-publisher simulator --port 4455 --profile multilingual',
  ],
  // runSimulatorCommand owns the parsing of its options. Loaded on demand: the simulator's server code is not
  // needed by the other commands (faster start).
  async runRaw(argv) {
    const { runSimulatorCommand } = await import('../../simulator/cli.js');
    return runSimulatorCommand(argv);
  },
};
