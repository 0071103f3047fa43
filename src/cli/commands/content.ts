/** `audit` (a local draft, without publishing) and `brief` (a content brief for a keyword). */
import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { requiredString, stringOption } from '../args.js';
import type { CommandSpec } from '../command.js';
import type { CliIo } from '../context.js';
import { keyValues, list, table } from '../format.js';
import { firstHeading, markdownToHtml } from '../markdown.js';
import { printResult } from '../result.js';
import { UsageError } from '../usage-error.js';

async function readStdin(io: CliIo): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of io.stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

function detectFormat(option: string | undefined, file: string | undefined, text: string): 'html' | 'markdown' {
  if (option === 'html' || option === 'markdown') return option;
  if (option !== undefined && option !== 'auto')
    throw new UsageError(`--format must be html, markdown or auto (got ${JSON.stringify(option)}).`, 'audit');
  if (file) {
    const ext = extname(file).toLowerCase();
    if (ext === '.md' || ext === '.markdown' || ext === '.mdx') return 'markdown';
    if (ext === '.html' || ext === '.htm') return 'html';
  }
  return /^\s*</.test(text) ? 'html' : 'markdown';
}

export const auditCommand: CommandSpec = {
  name: 'audit',
  summary: 'audit a local HTML or Markdown draft for a keyword (nothing is published)',
  usage: '(--file F | < F) --keyword K --language L [--title T] [--excerpt E] [--format auto|html|markdown]',
  details:
    'Markdown (.md, .markdown, .mdx, or text that does not start with "<") is converted to simple HTML first\n' +
    '(headings, paragraphs, lists, emphasis, code, links); raw HTML inside Markdown is escaped. The title\n' +
    'defaults to the first heading of the draft.',
  options: {
    file: { type: 'string', placeholder: 'F', description: 'the draft to audit (default: read stdin)' },
    keyword: { type: 'string', placeholder: 'K', description: 'target keyword (required)' },
    language: { type: 'string', placeholder: 'L', description: 'language code, e.g. en (required)' },
    title: { type: 'string', placeholder: 'T', description: "the draft's title (default: its first heading)" },
    excerpt: { type: 'string', placeholder: 'E', description: "the draft's excerpt" },
    format: { type: 'string', placeholder: 'F', description: 'auto (by extension or content), html or markdown' },
  },
  positionals: [],
  examples: [
    'content-publisher audit --file draft.md --keyword "astro blog" --language en',
    'cat draft.html | content-publisher audit --keyword seo --language fr --json',
  ],
  async run(context, args) {
    const keyword = requiredString(args, 'keyword', 'audit');
    const language = requiredString(args, 'language', 'audit');
    const file = stringOption(args, 'file');
    let text: string;
    if (file !== undefined) {
      try {
        text = await readFile(file, 'utf8');
      } catch (error) {
        throw new UsageError(
          `Cannot read --file ${file}: ${(error as NodeJS.ErrnoException).code ?? 'error'}. Check the path.`,
          'audit',
        );
      }
    } else {
      if (context.io.stdin.isTTY)
        throw new UsageError('audit needs a draft: pass --file F or pipe it on stdin.', 'audit');
      text = await readStdin(context.io);
    }
    if (text.trim() === '') throw new UsageError(`The draft${file ? ` ${file}` : ' on stdin'} is empty.`, 'audit');
    const format = detectFormat(stringOption(args, 'format'), file, text);
    const content = format === 'markdown' ? markdownToHtml(text) : text;
    const title = stringOption(args, 'title') ?? firstHeading(text, format) ?? '';
    const excerpt = stringOption(args, 'excerpt') ?? '';
    const result = await (await context.client()).audit({ title, excerpt, content, keyword, language });
    return printResult(context, result, () => {
      const suggestions = result.suggestions as unknown[];
      const rows = suggestions.map((s) =>
        typeof s === 'object' && s !== null ? (s as Record<string, unknown>) : { message: String(s) },
      );
      return `${keyValues([
        ['score', `${result.score}/100`],
        ['cache hit', result.cache_hit ? 'yes' : 'no'],
      ])}\nSuggestions:\n${table(rows, [
        { header: 'TYPE', value: (s) => (typeof s.type === 'string' ? s.type : undefined) },
        { header: 'MESSAGE', value: (s) => (typeof s.message === 'string' ? s.message : JSON.stringify(s)), max: 100 },
      ])}`;
    });
  },
};

function describe(item: unknown): string {
  if (typeof item === 'string') return item;
  if (typeof item === 'object' && item !== null) {
    const record = item as Record<string, unknown>;
    for (const key of ['title', 'name', 'heading', 'text', 'signal'])
      if (typeof record[key] === 'string') return record[key];
  }
  return JSON.stringify(item);
}

export const briefCommand: CommandSpec = {
  name: 'brief',
  summary: 'a content brief for a keyword: intent, outline, entities, FAQ, E-E-A-T signals',
  usage: '--keyword K --language L',
  options: {
    keyword: { type: 'string', placeholder: 'K', description: 'target keyword (required)' },
    language: { type: 'string', placeholder: 'L', description: 'language code, e.g. en (required)' },
  },
  positionals: [],
  examples: ['content-publisher brief --keyword "astro content loader" --language en'],
  async run(context, args) {
    const keyword = requiredString(args, 'keyword', 'brief');
    const language = requiredString(args, 'language', 'brief');
    const brief = await (await context.client()).brief({ keyword, language });
    return printResult(context, brief, () => {
      const faq = (brief.faq as unknown[]).map((entry) => {
        const record = (typeof entry === 'object' && entry !== null ? entry : {}) as Record<string, unknown>;
        return typeof record.question === 'string'
          ? `${record.question}${typeof record.answer === 'string' ? ` — ${record.answer}` : ''}`
          : describe(entry);
      });
      return [
        keyValues([
          ['keyword', keyword],
          ['intent', typeof brief.intent === 'string' ? brief.intent : JSON.stringify(brief.intent)],
        ]),
        list('Outline', (brief.outline as unknown[]).map(describe)),
        list('Entities', (brief.entities as unknown[]).map(describe)),
        list('FAQ', faq),
        list('E-E-A-T signals', (brief.eeat_signals as unknown[]).map(describe)),
      ].join('\n');
    });
  },
};
