/* global WebAssembly */
// The thread of test/support/xmllint.ts: xmllint-wasm's own `validateXML` starts a thread and compiles libxml2's
// WebAssembly for every document (about 90 ms of each run, and the suite validates hundreds). This thread
// compiles it once and runs xmllint's `main` on a new instance of it per document, one after the other, with
// the files and arguments xmllint-wasm's thread would get: every run has its own memory and file system.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { parentPort } from 'node:worker_threads';

const require = createRequire(import.meta.url);
const glue = require.resolve('xmllint-wasm/xmllint-node.js');
// Loading the glue also starts xmllint-wasm's own listener on this thread: it answers only messages that carry
// its key ('xmllint-wasm'), which these do not.
const xmllint = require(glue);
const compiled = new WebAssembly.Module(readFileSync(join(dirname(glue), 'xmllint.wasm')));

/** One xmllint run: `{ exitCode, stderr }` once its `main` returned (xmllint exits from main). */
function run({ inputFiles, args, initialMemory, maxMemory }) {
  return new Promise((resolve) => {
    let stderr = '';
    xmllint({
      inputFiles,
      arguments: args,
      print() {},
      printErr(text) {
        stderr += `${text}\n`;
      },
      onExit: (exitCode) => resolve({ exitCode, stderr }),
      onAbort: (reason) => resolve({ exitCode: -1, stderr: `WASM Abort: ${reason}` }),
      wasmMemory: new WebAssembly.Memory({ initial: initialMemory, maximum: maxMemory }),
      instantiateWasm(imports, receive) {
        receive(new WebAssembly.Instance(compiled, imports), compiled);
        return {};
      },
    }).catch((error) => resolve({ exitCode: -1, stderr: String(error) }));
  });
}

let queue = Promise.resolve();
parentPort.on('message', (message) => {
  if (message?.xmllintRun === undefined) return;
  queue = queue.then(async () => parentPort.postMessage({ xmllintRun: message.xmllintRun, ...(await run(message)) }));
});
