/**
 * `site dev`: builds the site in memory and serves exactly those files with the static logic of
 * `site serve` (same URLs, trailing-slash redirects, 404 pages, `_headers`) plus the contact and booking APIs.
 * Watches the config, content/, templates/ and public/; each batch of changes is an incremental
 * rebuild, after which open pages reload (or swap their stylesheet). A change that touches many
 * pages renders the open ones first; the rest are rendered when asked for, or a few at a time while
 * the server is idle. A failed build keeps the last good one serving and shows an overlay on every
 * page until a build succeeds again.
 */
import { readFileSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { resolve } from 'node:path';
import type { AdminMount } from '../admin/mount.js';
import type { ResolvedConfig } from '../config/load.js';
import { generatorRoot } from '../cache/disk-cache.js';
import { throwIfAny, type SiteError } from '../errors.js';
import { urlsOf } from '../routes/urls.js';
import { createSiteBookingHandler } from '../serve/booking.js';
import { createContactHandler } from '../serve/contact.js';
import { followingStoreSource, type StoreSource } from '../store/source.js';
import { createNotifier, type Notifier } from '../notify/notifier.js';
import { isAllowedHost } from '../serve/request.js';
import { enterBase } from '../serve/under-base.js';
import { listenError } from '../serve/server.js';
import { asciiAliasPaths } from '../routes/ascii-spellings.js';
import { siteRedirectFor } from '../routes/redirects.js';
import { createStaticHandler, memoryFile, memorySource, type StaticSource } from '../serve/static.js';
import { devClientScript, devClientStyles } from './client.js';
import { createEventHub, type DevEvent } from './events.js';
import {
  describeProblems,
  injectDevClient,
  renderErrorPage,
  renderOverlay,
  renderWarnings,
  withoutAbsolutePaths,
  type OverlayProblem,
} from './overlay.js';
import { createDevBuilder, type DevBuilder, type FileChange, type RebuildOutcome } from './rebuild.js';
import { watchInputs } from './watch.js';

/** Options of `startDevServer`. */
export interface DevServerOptions {
  /** Path of site.config.yaml. */
  config: string;
  /** The port to try first (0: any free port). */
  port: number;
  host: string;
  drafts?: boolean;
  /** Include entries dated after today. */
  future?: boolean;
  /** How many ports from `port` on to try when it is taken (default 20). */
  portAttempts?: number;
  /** How long to wait for more changes before rebuilding (default 5 ms). */
  debounceMs?: number;
  reporter?: DevReporter;
  /** The admin API (sign-in links, the blog editor); the caller keeps `host` on loopback while it is on. */
  admin?: AdminMount;
  /** Where the contact and booking endpoints store (default: the store of the last good build's config, opened when first asked and closed with the server). */
  store?: StoreSource;
  /**
   * Told of each stored message and booking, as `site serve` tells it (webhooks, the team's
   * mail, the visitor's confirmation; src/notify/). Default: one of the last good build's config.
   */
  notifier?: Notifier;
}

/** What the dev server has to say; the CLI prints it through the logger. */
export interface DevReporter {
  /** `port` is taken; `next` is tried instead. */
  portInUse?(port: number, next: number): void;
  /** A build finished; the first one has no changes. */
  built?(changes: readonly FileChange[], outcome: RebuildOutcome): void;
  /** An event went out to the open pages. */
  sent?(event: DevEvent): void;
  watchError?(error: unknown): void;
}

/** A running dev server. */
export interface DevServer {
  /** "http://127.0.0.1:4321" */
  url: string;
  builder: DevBuilder;
  /** Stops the watcher, ends the event streams and closes the server. */
  close(): Promise<void>;
}

/** Listens on `port`, or on the next free one when it is taken. */
async function listen(
  server: Server,
  port: number,
  host: string,
  attempts: number,
  onTaken: (port: number, next: number) => void,
): Promise<number> {
  for (let candidate = port; ; candidate++) {
    try {
      await new Promise<void>((done, fail) => {
        server.once('error', fail);
        server.listen(candidate, host, () => {
          server.off('error', fail);
          done();
        });
      });
      const address = server.address();
      return typeof address === 'object' && address ? address.port : candidate;
    } catch (error) {
      const taken = (error as NodeJS.ErrnoException).code === 'EADDRINUSE';
      if (!taken || port === 0 || candidate - port + 1 >= attempts || candidate >= 65535)
        throw listenError(error as NodeJS.ErrnoException, host, candidate);
      onTaken(candidate, candidate + 1);
    }
  }
}

/** Deferred pages rendered per turn of the event loop while idle (a few milliseconds). */
const backgroundBatch = 8;

/** Size and time of each changed file, to notice a write that landed while a build read it. */
async function snapshot(changes: readonly FileChange[]): Promise<Map<string, string>> {
  const entries = await Promise.all(
    changes
      .filter((change) => !change.directory)
      .map(async (change) => {
        const info = await stat(change.path).catch(() => undefined);
        return [change.path, info ? `${info.mtimeMs}:${info.size}` : 'missing'] as const;
      }),
  );
  return new Map(entries);
}

/** Starts the dev server: builds, listens, then watches. Throws when the config file is missing. */
export async function startDevServer(options: DevServerOptions): Promise<DevServer> {
  const reporter = options.reporter ?? {};
  const builder = createDevBuilder({ config: options.config, drafts: options.drafts, future: options.future });
  const ownStore = options.store ? undefined : followingStoreSource(() => builder.config);
  const store = options.store ?? ownStore!;
  // A message or booking arrives only once a build is good: its config is the one they are sent with.
  const notifier = options.notifier ?? createNotifier({ config: () => builder.config!, store });
  const session = Date.now().toString(36);
  let build = `${session}.0`;
  let problems: OverlayProblem[] | undefined;
  let overlay: string | undefined;
  // The warnings of the last build, good or failed: a panel on the pages, not a failure.
  let warnings: OverlayProblem[] = [];
  let warningsPanel: string | undefined;
  const hub = createEventHub();
  const send = (event: DevEvent) => {
    hub.send(event);
    reporter.sent?.(event);
  };
  const readSource = (file: string) => {
    try {
      return readFileSync(resolve(file), 'utf8');
    } catch {
      return undefined;
    }
  };

  const showProblems = (outcome: { errors: readonly SiteError[]; crash?: unknown }) => {
    problems = describeProblems(outcome.errors, outcome.crash, readSource).map((problem) =>
      withoutAbsolutePaths(problem, [process.cwd(), generatorRoot()]),
    );
    overlay = renderOverlay(problems);
    send({ name: 'problem', data: { build, overlay, warnings: warningsPanel ?? null } });
  };

  const apply = (changes: readonly FileChange[], outcome: RebuildOutcome) => {
    warnings = describeProblems(outcome.warnings, undefined, readSource).map((problem) =>
      withoutAbsolutePaths(problem, [process.cwd(), generatorRoot()]),
    );
    warningsPanel = warnings.length ? renderWarnings(warnings) : undefined;
    const shown = { warnings: warningsPanel ?? null };
    if (outcome.ok) {
      const wasFailing = overlay !== undefined;
      build = `${session}.${outcome.build}`;
      problems = undefined;
      overlay = undefined;
      const files = [...outcome.changed, ...outcome.removed];
      if (outcome.stylesheet) send({ name: 'css', data: { build, ...outcome.stylesheet, ...shown } });
      else if (files.length)
        send({
          name: 'reload',
          data: {
            build,
            files: files.length > 500 ? null : files,
            urls: outcome.urls.length > 500 ? [] : outcome.urls,
            ...shown,
          },
        });
      else if (wasFailing) send({ name: 'fixed', data: { build, ...shown } });
    } else {
      showProblems(outcome);
    }
    reporter.built?.(changes, outcome);
  };
  // A deferred page that fails to render shows the overlay, like a failed build.
  const failedLater = (errors: SiteError[]) => showProblems({ errors });

  const first = await builder.rebuild();
  if (!first.ok && first.errors.some((error) => error.code === 'CONFIG_NOT_FOUND')) {
    hub.close();
    await builder.dispose();
    throwIfAny(first.errors);
  }
  apply([], first);

  // Pages get the client (and, while a build fails, the overlay) as they are served; the built
  // files themselves stay exactly what `site build` writes.
  const built = memorySource((path) => builder.served(path, failedLater));
  const source: StaticSource = {
    async get(path) {
      const file = await built.get(path);
      if (!file || !path.endsWith('.html')) return file;
      return memoryFile(injectDevClient(await file.text(), { build, file: path, overlay, warnings: warningsPanel }));
    },
  };
  let statics: { config: ResolvedConfig; handle: Awaited<ReturnType<typeof createStaticHandler>> } | undefined;
  const staticHandler = async (config: ResolvedConfig) => {
    if (statics?.config !== config) {
      statics = {
        config,
        handle: await createStaticHandler(source, {
          notFoundFileFor: urlsOf(config).notFoundFileFor,
          respell: asciiAliasPaths(config),
          redirect: (path) => siteRedirectFor(config)(path),
        }),
      };
    }
    return statics.handle;
  };
  let contact: { origin: string; handle: ReturnType<typeof createContactHandler> } | undefined;
  const contactHandler = (config: ResolvedConfig) => {
    if (contact?.origin !== config.site.origin) {
      contact = {
        origin: config.site.origin,
        handle: createContactHandler({
          store,
          notifier,
          allowedOrigins: [config.site.origin],
          resultPage: (locale, outcome) => urlsOf(builder.config ?? config).contactResult(outcome, locale),
          types: () => (builder.config ?? config).contact.types,
        }),
      };
    }
    return contact.handle;
  };

  // The built-in booking API, as `site serve` answers it, following the last good build's config
  // (its bookings and rate limit kept across changes).
  const booking = createSiteBookingHandler(() => builder.config, { store, notifier });

  const answer = (response: ServerResponse, status: number, type: string, body: string) => {
    response.writeHead(status, {
      'content-type': type,
      'cache-control': 'no-store',
      'content-length': String(Buffer.byteLength(body)),
    });
    response.end(body);
  };
  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    // Everything here (sources in the overlay, the contact and booking endpoints) is for this machine only.
    if (!isAllowedHost(request.headers.host, [options.host])) {
      return answer(
        response,
        403,
        'text/plain; charset=utf-8',
        'This host name is not allowed: open the dev server by the address site dev printed.',
      );
    }
    if (!enterBase(request, response, builder.config?.site.base ?? '')) return;
    const path = (request.url ?? '/').split(/[?#]/, 1)[0]!;
    if (options.admin?.answersWithPage?.(path) && builder.config)
      for (const [name, value] of await (await staticHandler(builder.config)).headersOf('/'))
        response.setHeader(name, value);
    if (options.admin && (await options.admin.handle(request, response))) return;
    if (path === '/__site/events') {
      const file = new URL(request.url ?? '/', 'http://dev').searchParams.get('file') ?? undefined;
      return hub.connect(
        request,
        response,
        { name: 'state', data: { build, overlay: overlay ?? null, warnings: warningsPanel ?? null } },
        file,
      );
    }
    if (path === '/__site/dev-client.js')
      return answer(response, 200, 'text/javascript; charset=utf-8', devClientScript);
    if (path === '/__site/dev-client.css') return answer(response, 200, 'text/css; charset=utf-8', devClientStyles);
    if (path === '/__site/status')
      return answer(
        response,
        200,
        'application/json; charset=utf-8',
        JSON.stringify({ build, ok: !problems, problems: problems ?? [], warnings }),
      );
    const config = builder.config;
    if (config && request.method === 'POST' && path === config.contact.endpoint)
      return contactHandler(config)(request, response);
    const bookingEndpoint = config?.booking?.endpoint;
    if (
      bookingEndpoint &&
      (path === bookingEndpoint || path.startsWith(`${bookingEndpoint}/`)) &&
      (await booking(request, response))
    )
      return;
    if (!config)
      return answer(
        response,
        500,
        'text/html; charset=utf-8',
        renderErrorPage({ build, file: '', overlay: overlay ?? '' }),
      );
    const serveFile = await staticHandler(config);
    if (
      options.admin?.servesPage?.(path) &&
      path.endsWith('/') &&
      (request.method === 'GET' || request.method === 'HEAD')
    ) {
      const page = await source.get(`${path.slice(1)}index.html`);
      if (page) {
        for (const [name, value] of await serveFile.headersOf(path)) response.setHeader(name, value);
        return options.admin.servePage!(request, response, path, await page.text());
      }
    }
    await serveFile(request, response);
  }

  const server = createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      response.end('Internal server error');
    });
  });
  let port: number;
  try {
    port = await listen(server, options.port, options.host, options.portAttempts ?? 20, (taken, next) =>
      reporter.portInUse?.(taken, next),
    );
    options.admin?.listening(options.host, port);
  } catch (error) {
    hub.close();
    await builder.dispose();
    throw error;
  }

  // Rebuilds run one at a time; changes that arrive meanwhile make the next batch.
  let closed = false;
  let pending: FileChange[] = [];
  let running: Promise<void> | undefined;
  const timers = new Set<NodeJS.Timeout>();
  const watchedPaths = () => {
    const watched = builder.watched();
    return [
      watched.configFile,
      watched.dirs.content,
      watched.dirs.templates,
      watched.dirs.public,
      ...(watched.pluginFiles ?? []),
    ];
  };
  const enqueue = (changes: readonly FileChange[]) => {
    if (closed) return;
    pending.push(...changes);
    running ??= drain();
  };
  async function drain(): Promise<void> {
    while (pending.length && !closed) {
      const batch = pending;
      pending = [];
      const before = await snapshot(batch);
      const outcome = await builder.rebuild(batch, { first: hub.openFiles() });
      if (closed) break;
      try {
        apply(batch, outcome);
        watcher.setPaths(watchedPaths());
      } catch (crash) {
        // A bug here must not end the process: report it and keep serving.
        reporter.built?.(batch, { ok: false, reloaded: [], errors: [], warnings: [], crash, ms: outcome.ms });
      }
      // chokidar drops a second change event for a file within 50 ms of the first, so look again
      // once that window has passed: a file that changed while the build read it is built again.
      const timer = setTimeout(() => {
        timers.delete(timer);
        void snapshot(batch).then((after) => {
          const stale = batch.filter(
            (change) => !change.directory && after.get(change.path) !== before.get(change.path),
          );
          if (stale.length) enqueue(stale);
        });
      }, 75);
      timers.add(timer);
    }
    running = undefined;
    renderInBackground();
  }
  // The deferred pages, a few at a time, between requests, until none is left or a rebuild starts.
  let background: NodeJS.Immediate | undefined;
  function renderInBackground(): void {
    if (background || closed || running || builder.pending === 0) return;
    background = setImmediate(() => {
      background = undefined;
      if (closed || running) return;
      const errors = builder.renderPending(backgroundBatch);
      if (errors.length) failedLater(errors);
      else renderInBackground();
    });
  }
  const watcher = watchInputs(watchedPaths(), {
    debounceMs: options.debounceMs,
    onChanges: enqueue,
    onError: (error) => reporter.watchError?.(error),
  });
  await watcher.ready;

  return {
    url: `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${port}`,
    builder,
    async close() {
      if (closed) return;
      closed = true;
      if (background) clearImmediate(background);
      for (const timer of timers) clearTimeout(timer);
      await watcher.close();
      hub.close();
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
      await running;
      await builder.dispose();
      // The deliveries under way are recorded before the store closes.
      await notifier.idle();
      await ownStore?.close();
    },
  };
}
