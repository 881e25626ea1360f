/**
 * `scoresight/node`: everything in `scoresight`, plus what only Node can
 * run — the file-system job store and the self-hosted `/v2` server — kept
 * out of the main entry so browser bundles never see `node:` modules.
 */
export * from './index.js';
export { createFileStore, type FileStoreOptions } from './storage/fs-store.js';
export { createOmrServer, API_PREFIX, DEFAULT_LIMITS, type OmrServer, type OmrServerOptions, type ServerLimits, type ServerStats } from './server/server.js';
export { loadTokens, validateTokens, type TokenEntry, type TokenKind } from './server/tokens.js';
