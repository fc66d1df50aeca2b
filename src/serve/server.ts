/**
 * `site serve`: the built site plus the small API a static host cannot provide. A request passes
 * named steps: the URL length cap, the base path (src/serve/under-base.ts), the API endpoints (contact; booking when built in) (with the site's security headers, which the
 * static handler gives its own answers, redirects and refusals included), then the static files. Slow clients are cut off
 * (header and request timeouts), connections are capped, and `close` stops accepting, lets open
 * requests finish for a grace period and then ends the rest.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { builtInBookingOf } from '../config/booking.js';
import type { ResolvedConfig } from '../config/load.js';
import { adminStateFiles, adminStateFolder } from '../state-paths.js';
import { databaseFileNames } from '../store/open.js';
import type { StoreSource } from '../store/source.js';
import { SiteError } from '../errors.js';
import { isWithin } from '../file-paths.js';
import { journalOf, recoverOutput } from '../emit/write.js';
import { urlsOf } from '../routes/urls.js';
import { asciiAliasPaths } from '../routes/ascii-spellings.js';
import { siteRedirectFor } from '../routes/redirects.js';
import { createNotifier, notificationGaps, type Notifier } from '../notify/notifier.js';
import { createSiteBookingHandler } from './booking.js';
import { createContactHandler } from './contact.js';
import { findSqliteFiles } from './sqlite-files.js';
import { createStaticHandler } from './static.js';
import { enterBase } from './under-base.js';

/** Options of `startServer`. */
export interface ServeOptions {
  config: ResolvedConfig;
  /** The built site. */
  dir: string;
  port: number;
  host: string;
  /** Believe X-Forwarded-For / X-Forwarded-Proto (only behind a reverse proxy that sets them). */
  trustProxy?: boolean;
  /** Limits against slow or many clients (defaults: `serverLimits`). */
  limits?: Partial<ServerLimits>;
  /** The admin API (`site serve --admin`, src/admin/mount.ts); without it /api/auth and /api/admin are 404 like any unknown path. */
  admin?: MountedApi;
  /** The config of the moment (`site serve --admin`: the live site's, after each save): the booking API follows it. Default: `config`. */
  currentConfig?: () => ResolvedConfig | undefined;
  /** The process's store (src/store/), opened by the caller before and closed after the server. */
  store: StoreSource;
  /** Where the server says what an operator must know (the CLI's logger); default: nowhere. */
  log?: ServerLog;
  /** The notifications of stored messages and bookings (shared with the admin's inbox); default: one of the config of the moment. */
  notifier?: Notifier;
}

/** What the server tells its operator. */
export interface ServerLog {
  info(message: string): void;
  warn(message: string): void;
}

/** An API mounted before the static files: it answers the requests it knows (true) and is told the port. */
export interface MountedApi {
  handle(request: IncomingMessage, response: ServerResponse): Promise<boolean>;
  listening(host: string, port: number): void;
  /** Work the API began on its own (reading lists in the background) finished: the server's `close` waits for it, so nothing writes after. */
  idle?(): Promise<void>;
  /** A built page the API answers itself (the admin's pages, marked, the sign-in form with its token): whether `path` is one, */
  servesPage?(path: string): boolean;
  /** Whether the API's answer at `path` is a page of the site (a preview), which gets the pages' headers (CSP, frame protection). */
  answersWithPage?(path: string): boolean;
  /** and its answer, from the page's built HTML (the file's own headers are set already). */
  servePage?(request: IncomingMessage, response: ServerResponse, path: string, html: string): void;
}

/** Time and connection limits of the server. */
export interface ServerLimits {
  /** Time a client has to send the request headers. */
  headersTimeoutMs: number;
  /** Time a client has to send the whole request, body included. */
  requestTimeoutMs: number;
  /** Idle time after which a kept-alive connection is closed. */
  keepAliveTimeoutMs: number;
  /** Open connections at most; more are refused until some close. */
  maxConnections: number;
  /** After `close`, how long open requests may still finish. */
  shutdownGraceMs: number;
  /** Longest request target (path and query) answered; longer ones get 414. */
  maxUrlLength: number;
}

/** The default limits: generous for people, short for slowloris-style clients. */
export const serverLimits: ServerLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  maxConnections: 1_000,
  shutdownGraceMs: 10_000,
  maxUrlLength: 8 * 1024,
};

/** A running server. */
export interface RunningServer {
  server: Server;
  url: string;
  /**
   * The SQLite files in the served folder (relative paths), which are answered 404: looked for once
   * the server listens (a large site's tens of thousands of files would delay its start), and
   * named in a warning when there are any.
   */
  sqliteFiles: Promise<string[]>;
  /** Stops accepting, closes idle connections, waits for open requests up to the grace period, then ends the rest. */
  close(): Promise<void>;
}

type Step = (request: IncomingMessage, response: ServerResponse, next: () => Promise<void>) => Promise<void>;

/** Answers a request target longer than the limit with 414, before anything parses it. */
export function rejectLongUrl(maxUrlLength: number): Step {
  return async (request, response, next) => {
    if ((request.url ?? '').length <= maxUrlLength) return next();
    response.writeHead(414, { 'content-type': 'text/plain; charset=utf-8', connection: 'close' });
    response.end('URI too long');
  };
}

/** Runs the steps in order; each calls `next` to hand the request on. */
export function chain(steps: readonly Step[]): (request: IncomingMessage, response: ServerResponse) => Promise<void> {
  return (request, response) => {
    const run = (index: number): Promise<void> =>
      index < steps.length ? steps[index]!(request, response, () => run(index + 1)) : Promise.resolve();
    return run(0);
  };
}

/** Starts the server; resolves once it listens. */
export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const { config } = options;
  const limits = { ...serverLimits, ...options.limits };
  const dataDir = config.dirs.data;
  if (isWithin(dataDir, options.dir)) {
    throw new SiteError({
      code: 'OUTPUT_UNSAFE',
      message: `refusing to serve ${options.dir}: it holds the data folder (${dataDir}: the database of messages, bookings and accounts), which would be public`,
      hint: 'Serve the folder `site build` wrote, and keep contact.dataDir outside it.',
    });
  }
  const state = heldAdminState(options.dir, config.root);
  if (state) {
    throw new SiteError({
      code: 'OUTPUT_UNSAFE',
      message: `refusing to serve ${options.dir}: it holds ${state}, which would be public`,
      hint: "Serve the folder `site build` wrote, and keep the project's .site folder (accounts, audit log) outside it.",
    });
  }
  // A build killed while switching the folder is finished first, so no visitor sees a mix.
  recoverOutput(options.dir);
  if (!existsSync(join(options.dir, 'index.html'))) {
    throw new SiteError({
      code: 'SERVE_FAILED',
      message: `${options.dir} holds no built site (no index.html)`,
      hint: 'Run `site build` first, or pass the folder it wrote with --dir.',
    });
  }
  const serveStatic = await createStaticHandler(options.dir, {
    notFoundFileFor: urlsOf(config).notFoundFileFor,
    respell: asciiAliasPaths(config),
    redirect: (path) => siteRedirectFor(currentConfig())(path),
    compressMissing: true,
  });
  const notifier =
    options.notifier ?? createNotifier({ config: () => currentConfig(), store: options.store, log: options.log });
  const contact = createContactHandler({
    notifier,
    store: options.store,
    allowedOrigins: [config.site.origin],
    trustProxy: options.trustProxy,
    resultPage: (locale, outcome) => urlsOf(currentConfig()).contactResult(outcome, locale),
    types: () => currentConfig().contact.types,
  });
  // The endpoints follow the config of the moment (a settings save in `site serve --admin`); the data folder stays the one checked above.
  const currentConfig = () => options.currentConfig?.() ?? config;
  const booking = createSiteBookingHandler(currentConfig, {
    trustProxy: options.trustProxy,
    store: options.store,
    notifier,
  });
  for (const gap of notificationGaps(config)) options.log?.warn(gap);

  const api: Step = async (request, response, next) => {
    const path = (request.url ?? '/').split('?', 1)[0];
    const endpoint = currentConfig().contact.endpoint;
    if (request.method !== 'POST' || path !== endpoint) return next();
    for (const [name, value] of await serveStatic.headersOf(path)) response.setHeader(name, value);
    return contact(request, response);
  };
  const bookingApi: Step = async (request, response, next) => {
    const path = (request.url ?? '/').split('?', 1)[0]!;
    const builtIn = builtInBookingOf(currentConfig());
    if (!builtIn) return next();
    const bookingEndpoint = builtIn.booking.endpoint;
    if (path !== bookingEndpoint && !path.startsWith(`${bookingEndpoint}/`)) return next();
    for (const [name, value] of await serveStatic.headersOf(bookingEndpoint)) response.setHeader(name, value);
    if (!(await booking(request, response))) return next();
  };
  const admin: Step = async (request, response, next) => {
    const mounted = options.admin;
    if (!mounted) return next();
    const path = (request.url ?? '/').split('?', 1)[0]!;
    // A preview is a page of the site: it gets the pages' headers (CSP, frame protection), as it would live.
    if (mounted.answersWithPage?.(path))
      for (const [name, value] of await serveStatic.headersOf('/')) response.setHeader(name, value);
    if (await mounted.handle(request, response)) return;
    if ((request.method === 'GET' || request.method === 'HEAD') && mounted.servesPage?.(path) && path.endsWith('/')) {
      const html = await readFile(join(options.dir, path, 'index.html'), 'utf8').catch(() => undefined);
      if (html !== undefined) {
        for (const [name, value] of await serveStatic.headersOf(path)) response.setHeader(name, value);
        return mounted.servePage!(request, response, path, html);
      }
    }
    return next();
  };
  const files: Step = (request, response) => serveStatic(request, response);
  // A build killed while switching the folder after the server started: finished (or undone) before
  // the next answer, as at start. While a live build holds the folder's lock, it is left to finish.
  const journal = journalOf(options.dir);
  let lookedAt = 0;
  const repair: Step = async (_request, _response, next) => {
    const time = Date.now();
    if (time - lookedAt >= 200) {
      lookedAt = time;
      if (existsSync(journal)) {
        try {
          recoverOutput(options.dir);
        } catch (error) {
          if (!(error instanceof SiteError && error.code === 'OUTPUT_BUSY')) throw error;
        }
      }
    }
    return next();
  };
  // A site built for a path (site.base) is served under it, as its host will.
  const base: Step = async (request, response, next) =>
    enterBase(request, response, config.site.base) ? next() : undefined;
  const handle = chain([rejectLongUrl(limits.maxUrlLength), base, repair, admin, api, bookingApi, files]);

  const server = createServer(
    { connectionsCheckingInterval: Math.min(1_000, limits.headersTimeoutMs) },
    (request, response) => {
      handle(request, response).catch(() => {
        if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
        response.end('Internal server error');
      });
    },
  );
  server.headersTimeout = limits.headersTimeoutMs;
  server.requestTimeout = limits.requestTimeoutMs;
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  server.maxConnections = limits.maxConnections;

  await new Promise<void>((resolvePromise, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => reject(listenError(error, options.host, options.port)));
    server.listen(options.port, options.host, () => resolvePromise());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  options.admin?.listening(options.host, port);
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  const sqliteFiles = findSqliteFiles(options.dir).then((found) => {
    if (found.length) {
      const shown =
        found.length > 5 ? `${found.slice(0, 5).join(', ')} and ${found.length - 5} more` : found.join(', ');
      options.log?.warn(
        `${options.dir} holds SQLite ${found.length === 1 ? 'file' : 'files'} (${shown}): never served (404), as a database or its log holds accounts' e-mails and password hashes; move ${found.length === 1 ? 'it' : 'them'} out of the served folder`,
      );
    }
    return found;
  });
  return {
    server,
    url: `http://${host}:${port}${config.site.base}`,
    sqliteFiles,
    // The deliveries under way are recorded before the caller closes the store, and the admin's
    // background reading (which may write its state) is let end, for as long as open requests may.
    close: () =>
      closeGracefully(server, limits.shutdownGraceMs)
        .then(() => settledWithin(options.admin?.idle?.(), limits.shutdownGraceMs))
        .then(() => notifier.idle()),
  };
}

/** What of the admin's state a folder to serve holds or sits in (the accounts, the audit log), or undefined. */
export function heldAdminState(dir: string, projectRoot: string): string | undefined {
  const stateFolder = adminStateFolder(projectRoot);
  if (isWithin(stateFolder, dir) || isWithin(dir, stateFolder))
    return `the admin's accounts and audit log (${stateFolder})`;
  for (const folder of [dir, join(dir, '.site')]) {
    const found = adminStateFiles.find((name) => existsSync(join(folder, name)));
    if (found) return `an admin state file (${join(folder, found)})`;
  }
  const database = databaseFileNames.find((name) => existsSync(join(dir, name)));
  if (database) return `a database file (${join(dir, database)})`;
  return undefined;
}

/** A listen failure as a SiteError that says what to do (the port is taken, or not ours to take). */
export function listenError(error: NodeJS.ErrnoException, host: string, port: number): unknown {
  if (error.code === 'EADDRINUSE')
    return new SiteError({
      code: 'SERVE_FAILED',
      message: `port ${port} on ${host} is already in use`,
      hint: 'Stop the other server, or pass another --port.',
    });
  if (error.code === 'EACCES')
    return new SiteError({
      code: 'SERVE_FAILED',
      message: `not allowed to listen on port ${port}`,
      hint: 'Ports below 1024 need privileges: pass a --port above 1024.',
    });
  if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND')
    return new SiteError({
      code: 'SERVE_FAILED',
      message: `${host} is not an address of this machine`,
      hint: 'Pass --host 127.0.0.1, or the address of one of its network interfaces.',
    });
  return error;
}

/** Resolves when `work` settles, or after `ms` (whichever comes first); never rejects. */
function settledWithin(work: Promise<void> | undefined, ms: number): Promise<void> {
  if (!work) return Promise.resolve();
  return new Promise<void>((resolvePromise) => {
    const timer = setTimeout(resolvePromise, ms);
    timer.unref();
    work.then(
      () => (clearTimeout(timer), resolvePromise()),
      () => (clearTimeout(timer), resolvePromise()),
    );
  });
}

/** Stops accepting, closes idle connections, and ends the connections still open after `graceMs`. */
export function closeGracefully(server: Server, graceMs: number): Promise<void> {
  return new Promise<void>((resolvePromise) => {
    const timer = setTimeout(() => server.closeAllConnections(), graceMs);
    timer.unref();
    server.close(() => {
      clearTimeout(timer);
      resolvePromise();
    });
    server.closeIdleConnections();
  });
}
