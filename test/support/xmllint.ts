// XML checks with libxml2's xmllint compiled to WebAssembly (the xmllint-wasm devDependency): the same
// validator as Debian's `xmllint`, installed by `npm install`, so the XSD tests run on any machine.
import { readdirSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { memoryPages, validateXML, type XMLFileInfo } from 'xmllint-wasm';

export const XSD_DIR = fileURLToPath(new URL('../corpora/xml/xsd/', import.meta.url));

// Every schema of the corpus, in xmllint's in-memory file system beside the one validated against, so that
// relative `schemaLocation` imports (sitemap-with-extensions.xsd imports the others) resolve with no I/O.
const SCHEMAS: XMLFileInfo[] = readdirSync(XSD_DIR)
  .filter((name) => name.endsWith('.xsd'))
  .map((name) => ({ fileName: name, contents: readFileSync(join(XSD_DIR, name), 'utf8') }));

// Split sitemaps reach 50,000 URLs (about 5 MB): xmllint's default 32 MiB is too little for their trees.
const MAX_MEMORY = memoryPages.GiB;

/**
 * Validates a document against a schema of test/corpora/xml/xsd/ (by file name, e.g. 'sitemap-0.9.xsd').
 * Resolves to xmllint's output ("doc.xml validates"), rejects with it when the document is invalid.
 */
export async function validateAgainstXsd(xml: string, xsd: string, fileName = 'doc.xml'): Promise<string> {
  const schema = SCHEMAS.find((file) => file.fileName === xsd);
  if (!schema)
    throw new Error(`No schema ${xsd} in ${XSD_DIR} (there are ${SCHEMAS.map((s) => s.fileName).join(', ')}).`);
  const result = await validateXML({
    xml: { fileName, contents: xml },
    schema,
    preload: SCHEMAS.filter((file) => file !== schema),
    maxMemoryPages: MAX_MEMORY,
  });
  if (!result.valid) throw new Error(`${fileName} does not validate against ${xsd}:\n${result.rawOutput}`);
  return result.rawOutput;
}

/** xmllint's complaints about a document ('' when it is well-formed). */
export async function wellFormednessProblems(xml: string): Promise<string> {
  try {
    // No schema: `xmllint --noout doc.xml`, a parse only.
    const result = await validateXML({
      xml: { fileName: 'doc.xml', contents: xml },
      schema: [],
      maxMemoryPages: MAX_MEMORY,
    });
    return result.valid ? '' : result.rawOutput || 'not well-formed';
  } catch (error) {
    // A document that does not parse ends xmllint with exit code 1, which xmllint-wasm reports as a rejection.
    return (error as Error).message || 'not well-formed';
  }
}

/** Validates an XML file on disk against a schema of the corpus (see validateAgainstXsd). */
export async function validateFileAgainstXsd(file: string, xsd: string): Promise<string> {
  return validateAgainstXsd(await readFile(file, 'utf8'), xsd, basename(file));
}
