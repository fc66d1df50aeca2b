/**
 * The package's entry (`import { build } from 'typed-site'`): the commands as functions (api.ts),
 * their diagnostics, and the CLI's own `main`, which bin/site.js runs.
 */
export { build, check, dev, serve, silentLogger, terminalLogger } from './api.js';
export type {
  BuildOptions,
  BuildReport,
  CheckOptions,
  CheckReport,
  CommonOptions,
  DevHandle,
  DevOptions,
  Logger,
  ServeHandle,
  ServeOptions,
} from './api.js';
export type { Progress, ProgressCounter } from './progress.js';
export { collectSiteErrors, SiteError, SiteErrors } from './errors.js';
export type { SiteConfig, SiteConfigInput } from './config/schema.js';
export { main } from './cli.js';
