// What every boundary shares: the message prefix, option field schemas, one issue formatter, secrets kept out of messages.
export * as documented from './documented.js';
export * as fields from './fields.js';
export * as issues from './issues.js';
export * as prefix from './prefix.js';
export * as redact from './redact.js';
