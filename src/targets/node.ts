/** `node`: the output `site serve` serves (it reads `_headers` itself); the output of every build before targets. */
import { createHeaders } from '../emit/sitemap.js';
import type { HostTarget } from './shared.js';

export const nodeTarget: HostTarget = {
  staticFolder: '',
  files: ({ config, scriptHashes, csp, searchUrls }) =>
    new Map([['_headers', createHeaders(scriptHashes, config, csp, searchUrls)]]),
  functions: () => new Map(),
};
