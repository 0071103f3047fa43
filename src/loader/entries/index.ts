// An article as a collection entry: its schemas, the fields made safe, the typed mapping, its page digest, theme helpers.
export * as entries from './entries.js';
export * as entrySafety from './entry-safety.js';
export * as entrySchema from './entry-schema.js';
export * as pageDigest from './page-digest.js';
export * as records from './records.js';
export * as schemas from './schemas.js';
export * as slugs from './slugs.js';
export * as themeFields from './theme-fields.js';
