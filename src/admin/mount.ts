/**
 * The admin as the servers mount it: `site dev` (one-time sign-in links, loopback only) and
 * `site serve --admin` (accounts from the store). The Host allowlist is completed once the
 * server knows its port. Accounts, sessions, sign-in budgets, the inbox and the audit log are all
 * in the process's one store (src/store/source.ts).
 */
import type { MountedApi } from '../serve/server.js';
import { SiteError } from '../errors.js';
import { createAdminApi, type AdminApi, type AdminRequest, type AdminRoute } from './api.js';
import { createAuditLog, type AuditLog } from './audit-log.js';
import { createHistory, type History } from './history.js';
import { createReview, reviewQueueRoutes, type Review } from './review.js';
import type { StoreSource } from '../store/source.js';
import type { ResolvedConfig } from '../config/load.js';
import type { Build } from '../pipeline/result-stage.js';
import { createChangesRoute } from './changes-api.js';
import { createAdminEvents, type AdminEvents, type AdminEventsOptions } from './events.js';
import { createSignInLimits, type SignInLimits } from './sign-in-limits.js';
import { createInboxRoutes, type InboxRoutesOptions } from './inbox-api.js';
import { createMediaRoutes, type MediaRoutesOptions } from './media-api.js';
import { createPostRoutes, type PostRoutesOptions, type SaveOutcome } from './posts-api.js';
import { createCollectionRoutes } from './collections-api.js';
import { createPreviewRoutes, previewPrefix, type PreviewOptions } from './preview.js';
import { createVisualRoutes } from './visual-api.js';
import { createTranslationOrigins, type TranslationOrigins } from './translation-origins.js';
import { createPageRoutes, type PageRoutesOptions } from './pages-api.js';
import { createSettingsRoutes, type SettingsRoutesOptions } from './settings-api.js';
import { sendJson } from './http.js';
import { hostOf, loopbackHosts, type AdminOrigins } from './guard.js';
import type { ScryptParams } from './passwords.js';
import { createSignInTokens, type SignInTokens } from './sign-in-tokens.js';

/** What a server needs of the admin: a handler that answers /api/auth/* and /api/admin/* (true) or leaves the request alone (false), and to be told its port. */
export type AdminMount = MountedApi;

/** Options of both mounts. */
export interface MountOptions {
  /** The project folder. */
  projectRoot: string;
  /** The process's store: accounts, sessions, sign-in budgets, the inbox, the audit log. */
  store: StoreSource;
  /** The routes under /api/admin/ besides the session and the posts. */
  routes?: readonly AdminRoute[];
  /** The content editor's routes (/api/admin/collections…, and /api/admin/posts… for the blog; `collection` names the alias's). */
  posts?: Omit<PostRoutesOptions, 'audit'>;
  /** The preview (/api/admin/preview…). */
  preview?: PreviewOptions;
  /** The inbox (/api/admin/inbox…): where the site stores what visitors send. */
  inbox?: Omit<InboxRoutesOptions, 'audit'>;
  /** Images for posts (/api/admin/media). */
  media?: Omit<MediaRoutesOptions, 'audit'>;
  /** The settings of site.config.yaml (/api/admin/settings). */
  settings?: Omit<SettingsRoutesOptions, 'audit'>;
  /** Every page's copy under content/pages/ (/api/admin/pages). */
  pages?: Omit<PageRoutesOptions, 'audit'>;
  /**
   * The site being edited, for the blog editor, the preview and the inbox: its config and last
   * good build, and (serve) what to do after a save. Sets `posts`, `preview` and `inbox` when they
   * are not given.
   */
  site?: EditedSite;
  trustProxy?: boolean;
  scrypt?: ScryptParams;
  /** What a sign-in must get through before its check (default: `createSignInLimits()`). */
  signInLimits?: SignInLimits;
  /** Caps and sweep of the event streams (default: `eventStreamLimits`). */
  eventStreams?: Partial<Omit<AdminEventsOptions, 'isLive'>>;
  now?: () => number;
}

/** Whether a host to listen on is this machine's loopback only. */
export function isLoopbackHost(host: string): boolean {
  const name = host.toLowerCase().replace(/^\[|\]$/g, '');
  return name === 'localhost' || name === '::1' || /^127(\.\d{1,3}){3}$/.test(name);
}

/** Refuses to run the dev admin on an address other machines can reach. */
export function checkDevAdminHost(host: string): void {
  if (!isLoopbackHost(host)) {
    throw new SiteError({
      code: 'ADMIN_USAGE',
      message: `site dev will not listen on ${host} while the admin is on: anyone who can reach it could edit the site`,
      hint: 'Leave --host at 127.0.0.1, or pass --no-admin to serve the site to other machines without the admin.',
    });
  }
}

/** What the admin needs of the site it edits. */
export interface EditedSite {
  readonly config: ResolvedConfig | undefined;
  readonly lastBuild: Build | undefined;
  /** Serve: rebuild and publish after a save (dev leaves it to the watcher). */
  rebuild?(file: string | readonly string[]): Promise<SaveOutcome>;
}

/** The site a getter returns once it exists (the dev server's builder, made after the admin). */
export function siteOf(get: () => Pick<EditedSite, 'config' | 'lastBuild'> | undefined): EditedSite {
  return {
    get config() {
      return get()?.config;
    },
    get lastBuild() {
      return get()?.lastBuild;
    },
  };
}

/** The admin's routes, and `warm`: reads every collection's list in the background (serve, when it starts listening). */
function routesOf(
  given: MountOptions,
  audit: AuditLog,
  events: AdminEvents,
): { routes: AdminRoute[]; warm(): Promise<void> } {
  const history = createHistory(given.store, given.now);
  const site = given.site;
  const options: MountOptions = site
    ? {
        ...given,
        posts: given.posts ?? {
          config: () => site.config,
          lastBuild: () => site.lastBuild,
          afterWrite: site.rebuild && ((file) => site.rebuild!(file)),
        },
        preview: given.preview ?? { config: () => site.config, lastBuild: () => site.lastBuild },
        inbox: given.inbox ?? { store: given.store },
        media: given.media ?? {
          config: () => site.config,
          afterWrite: site.rebuild && ((files) => site.rebuild!(files)),
        },
        settings: given.settings ?? {
          config: () => site.config,
          afterWrite: site.rebuild && ((files) => site.rebuild!(files)),
        },
        pages: given.pages ?? {
          config: () => site.config,
          afterWrite: site.rebuild && ((files) => site.rebuild!(files)),
        },
      }
    : given;
  const preview = options.preview ? createPreviewRoutes(options.preview) : [];
  // One review for every API whose editors' changes it may hold (`admin.review`): entries, pages' texts, images.
  const review = createReview(given.store, given.now);
  // One memory of where translations never saved in the admin came from (git's log, the baseline).
  const origins = createTranslationOrigins();
  const collections = options.posts
    ? collectionRoutes(options, audit, history, review, events, preview[0], origins)
    : { routes: [], warm: async () => {} };
  const routes = [
    ...(options.routes ?? []),
    ...collections.routes,
    ...preview,
    ...(options.preview ? createVisualRoutes({ lastBuild: options.preview.lastBuild }) : []),
    ...(options.inbox ? createInboxRoutes({ ...options.inbox, audit, now: options.now }) : []),
    ...(options.media ? createMediaRoutes({ ...options.media, audit, review }) : []),
    ...(options.settings ? createSettingsRoutes({ ...options.settings, audit, history, review }) : []),
    ...(options.pages ? createPageRoutes({ ...options.pages, audit, history, review, origins }) : []),
    ...reviewQueueRoutes(review, audit),
    createChangesRoute(options.store),
    events.route,
  ];
  return { routes, warm: collections.warm };
}

/**
 * The routes of every collection's entries (collections-api.ts): posts-api.ts's, media-api.ts's
 * and the preview of each collection, made once per collection on first use.
 */
function collectionRoutes(
  options: MountOptions,
  audit: AuditLog,
  history: History,
  review: Review,
  events: AdminEvents,
  preview: AdminRoute | undefined,
  origins: TranslationOrigins,
): { routes: AdminRoute[]; warm(): Promise<void> } {
  const posts = options.posts!;
  const made = new Map<string, AdminRoute[]>();
  const warmers = new Map<string, () => Promise<void>>();
  const routesOf = (collection: string) => {
    let routes = made.get(collection);
    if (!routes) {
      const entries = createPostRoutes({
        ...posts,
        collection,
        audit,
        history,
        review,
        origins,
        notify: (name, data) => void events.send(name, { collection, ...data }),
      });
      warmers.set(collection, entries.warm);
      routes = [
        ...entries,
        ...(options.media ? createMediaRoutes({ ...options.media, collection, audit }) : []),
        // The preview keeps its one store of drafts shown: it is told the collection in the body.
        ...(preview
          ? [
              {
                ...preview,
                handle: (context: AdminRequest) =>
                  preview.handle({ ...context, body: async () => ({ ...(await context.body()), collection }) }),
              },
            ]
          : []),
      ];
      made.set(collection, routes);
    }
    return routes;
  };
  // The one review queue asks a collection's routes for its changes, made on first use as these are.
  review.load = (scope) => {
    if (!scope.startsWith(':') && posts.config()?.collections[scope]) routesOf(scope);
  };
  return {
    routes: createCollectionRoutes({
      config: posts.config,
      lastBuild: posts.lastBuild,
      routesOf,
      alias: posts.collection,
    }),
    // Each collection's list read once, one after the other: the first request after a start finds it kept (or shares the reading).
    async warm() {
      for (const collection of Object.keys(posts.config()?.collections ?? {})) {
        routesOf(collection);
        await warmers.get(collection)?.();
      }
    },
  };
}

function mount(
  api: AdminApi,
  origins: { hosts: string[] },
  extraHosts: (host: string, port: number) => string[],
): AdminMount & { api: AdminApi } {
  return {
    api,
    handle: (request, response) => api.handle(request, response),
    servesPage: (path) => api.isAdminPage(path),
    answersWithPage: (path) => path.startsWith(previewPrefix),
    servePage: (request, response, path, html) => api.serveAdminPage(request, response, path, html),
    listening(host, port) {
      origins.hosts.push(...extraHosts(host, port));
    },
  };
}

/** The admin of `site dev`: sign-in by one-time links from `tokens`. */
export function createDevAdmin(
  options: MountOptions & { tokens?: SignInTokens },
): AdminMount & { api: AdminApi; tokens: SignInTokens } {
  const tokens = options.tokens ?? createSignInTokens({ now: options.now });
  const origins: AdminOrigins & { hosts: string[] } = { hosts: [], origins: [] };
  const audit = createAuditLog(options.store, options.now);
  const events = createAdminEvents({ ...options.eventStreams, isLive: (session) => api.isLive(session) });
  const api: AdminApi = createAdminApi({
    mode: 'dev',
    origins,
    tokens,
    store: options.store,
    routes: routesOf(options, audit, events).routes,
    audit,
    limits: options.signInLimits,
    now: options.now,
  });
  return { ...mount(api, origins, (_host, port) => loopbackHosts(port)), tokens };
}

/** The admin of `site serve --admin`: accounts from the store; the Host must be the configured origin's (or loopback, when listening there). */
export function createServeAdmin(
  options: MountOptions & { origin: string },
): AdminMount & { api: AdminApi; signInLimits: SignInLimits } {
  const own = hostOf(options.origin);
  const origins: AdminOrigins & { hosts: string[] } = {
    hosts: own ? [own] : [],
    origins: [options.origin],
    trustProxy: options.trustProxy,
  };
  const audit = createAuditLog(options.store, options.now);
  const events = createAdminEvents({ ...options.eventStreams, isLive: (session) => api.isLive(session) });
  const signInLimits = options.signInLimits ?? createSignInLimits(options.store, { now: options.now });
  const routes = routesOf(options, audit, events);
  const api: AdminApi = createAdminApi({
    mode: 'serve',
    limits: signInLimits,
    origins,
    store: options.store,
    routes: [...routes.routes, usersRoute(options.store)],
    audit,
    scrypt: options.scrypt,
    now: options.now,
  });
  const mounted = mount(api, origins, (host, port) => (isLoopbackHost(host) ? loopbackHosts(port) : []));
  let warming: Promise<void> = Promise.resolve();
  return {
    ...mounted,
    signInLimits,
    listening(host, port) {
      mounted.listening(host, port);
      // The lists are read now, in the background: with tens of thousands of entries the first
      // reading of every file takes seconds, which no request should wait for when it can be done before.
      // A failure here (a file that went away) is the request's to meet and report.
      warming = routes.warm().catch(() => undefined);
    },
    // The reading may write the project's state (the translations' baseline): the server's close waits for it.
    idle: () => warming,
  };
}

/** `GET /api/admin/users`: the accounts (admins only; password hashes never leave the store). */
function usersRoute(store: StoreSource): AdminRoute {
  return {
    method: 'GET',
    pattern: /^users$/,
    role: 'admin',
    async handle({ response }) {
      const accounts = await (await store.get()).listAccounts();
      sendJson(
        response,
        200,
        accounts.map(({ email, role, created }) => ({ email, role, created })),
      );
    },
  };
}
