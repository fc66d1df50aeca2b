/** `site serve`: the built site plus the small API a static host cannot provide. */
import { createServer, type Server } from 'node:http';
import { resolve } from 'node:path';
import type { ResolvedConfig } from '../config/load.js';
import { pathRules } from '../routes/pages.js';
import { localizePath, toUrl } from '../routes/paths.js';
import { createContactHandler } from './contact.js';
import { createStaticHandler } from './static.js';

/** Options of `startServer`. */
export interface ServeOptions {
  config: ResolvedConfig;
  /** The built site. */
  dir: string;
  port: number;
  host: string;
}

/** Where a plain form POST lands after the contact endpoint: "/contactus/sent/", "/no/contactus/failed/". */
export function contactResultPage(config: ResolvedConfig, locale: string, outcome: 'sent' | 'failed'): string {
  const known = config.localeIds.includes(locale) ? locale : config.site.defaultLocale;
  return toUrl(localizePath(`/contactus/${outcome}`, known, pathRules(config)));
}

/** Starts the server; resolves once it listens. */
export async function startServer(options: ServeOptions): Promise<{ server: Server; url: string }> {
  const { config } = options;
  const rules = pathRules(config);
  const serveStatic = await createStaticHandler(options.dir, { localePrefixes: Object.values(rules.prefixes).filter(Boolean), compressMissing: true });
  const contact = createContactHandler({
    dataDir: resolve(config.root, config.contact.dataDir),
    resultPage: (locale, outcome) => contactResultPage(config, locale, outcome),
  });
  const endpoint = config.contact.endpoint;
  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?', 1)[0];
    const work = request.method === 'POST' && path === endpoint ? contact(request, response) : serveStatic(request, response);
    work.catch(() => {
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      response.end('Internal server error');
    });
  });
  await new Promise<void>((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolvePromise());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  return { server, url: `http://${options.host}:${port}` };
}
