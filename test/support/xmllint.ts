// XML checks with libxml2's xmllint compiled to WebAssembly (the xmllint-wasm devDependency): the same
// validator as Debian's `xmllint`, installed by `npm install`, so the XSD tests run on any machine. It runs on
// one thread of this process that compiled it once (xmllint-thread.mjs).
import { readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { memoryPages, type XMLFileInfo } from 'xmllint-wasm';

export const XSD_DIR = fileURLToPath(new URL('../corpora/xml/xsd/', import.meta.url));

// Every schema of the corpus, in xmllint's in-memory file system beside the one validated against, so that
// relative `schemaLocation` imports (sitemap-with-extensions.xsd imports the others) resolve with no I/O.
const SCHEMAS: XMLFileInfo[] = readdirSync(XSD_DIR)
  .filter((name) => name.endsWith('.xsd'))
  .map((name) => ({ fileName: name, contents: readFileSync(join(XSD_DIR, name), 'utf8') }));

// Split sitemaps reach 50,000 URLs (about 5 MB): xmllint's default 32 MiB is too little for their trees.
const MAX_MEMORY = memoryPages.GiB;

/** How an xmllint run ended: its exit code (0 valid, 3 or 4 invalid, 1 not XML) and what it printed on stderr. */
interface Run {
  exitCode: number;
  stderr: string;
}

let thread: Worker | undefined;
const waiting = new Map<number, { resolve: (run: Run) => void; reject: (error: Error) => void }>();
let runs = 0;

/** The thread, started at the first run (and again after it failed); it keeps no test process alive. */
function xmllintThread(): Worker {
  if (thread) return thread;
  const started = new Worker(new URL('./xmllint-thread.mjs', import.meta.url));
  started.unref();
  started.on('message', (run: Run & { xmllintRun: number }) => {
    waiting.get(run.xmllintRun)?.resolve(run);
    waiting.delete(run.xmllintRun);
  });
  const fail = (error: Error) => {
    thread = undefined;
    for (const { reject } of waiting.values()) reject(error);
    waiting.clear();
  };
  started.on('error', fail);
  started.on('exit', (code) => fail(new Error(`The xmllint thread ended (exit code ${code}).`)));
  thread = started;
  return started;
}

/** `xmllint --noout [--schema <schema>] <file>` over in-memory files (`preload`: more files beside them). */
function xmllint(file: XMLFileInfo, schema?: XMLFileInfo, preload: XMLFileInfo[] = []): Promise<Run> {
  const id = runs++;
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    xmllintThread().postMessage({
      xmllintRun: id,
      inputFiles: [file, ...(schema ? [schema] : []), ...preload],
      args: [...(schema ? ['--schema', schema.fileName] : []), '--noout', file.fileName],
      initialMemory: memoryPages.defaultInitialMemoryPages,
      maxMemory: MAX_MEMORY,
    });
  });
}

/**
 * Validates a document against a schema of test/corpora/xml/xsd/ (by file name, e.g. 'sitemap-0.9.xsd').
 * Resolves to xmllint's output ("doc.xml validates"), rejects with it when the document is invalid.
 */
export async function validateAgainstXsd(xml: string, xsd: string, fileName = 'doc.xml'): Promise<string> {
  const schema = SCHEMAS.find((file) => file.fileName === xsd);
  if (!schema)
    throw new Error(`No schema ${xsd} in ${XSD_DIR} (there are ${SCHEMAS.map((s) => s.fileName).join(', ')}).`);
  const { exitCode, stderr } = await xmllint(
    { fileName, contents: xml },
    schema,
    SCHEMAS.filter((file) => file !== schema),
  );
  if (exitCode === 3 || exitCode === 4) throw new Error(`${fileName} does not validate against ${xsd}:\n${stderr}`);
  if (exitCode !== 0) throw new Error(stderr || `xmllint ended with exit code ${exitCode}`);
  return stderr;
}

/** xmllint's complaints about a document ('' when it is well-formed). */
export async function wellFormednessProblems(xml: string): Promise<string> {
  // No schema: `xmllint --noout doc.xml`, a parse only (a document that does not parse ends it with exit code 1).
  const { exitCode, stderr } = await xmllint({ fileName: 'doc.xml', contents: xml });
  return exitCode === 0 ? '' : stderr || 'not well-formed';
}

/** Validates an XML file on disk against a schema of the corpus (see validateAgainstXsd). */
export async function validateFileAgainstXsd(file: string, xsd: string): Promise<string> {
  return validateAgainstXsd(await readFile(file, 'utf8'), xsd, basename(file));
}
