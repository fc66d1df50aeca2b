/**
 * The plugin API of the generator, the package entry `typed-site/plugin`: `definePlugin` and the
 * types of its hooks (defined with the config they extend, src/config/plugin-api.ts).
 */
export * from './config/plugin-api.js';
