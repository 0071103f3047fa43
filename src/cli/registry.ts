/** Every command, in the order `--help` lists them. */
import type { CommandSpec } from './command.js';
import { meCommand, sitesCommand } from './commands/account.js';
import { articleCommand, articlesCommand } from './commands/articles.js';
import { auditCommand, briefCommand } from './commands/content.js';
import { generateCommand } from './commands/generate.js';
import { digestCommand, keywordsCommand, snapshotCommand } from './commands/insights.js';
import { simulatorCommand } from './commands/simulator.js';
import { watchCommand } from './commands/watch.js';

export const COMMANDS: readonly CommandSpec[] = [
  meCommand,
  sitesCommand,
  articlesCommand,
  articleCommand,
  generateCommand,
  auditCommand,
  briefCommand,
  keywordsCommand,
  snapshotCommand,
  digestCommand,
  watchCommand,
  simulatorCommand,
];
