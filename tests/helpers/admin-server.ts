/** `site serve --admin` in-process on a temp project root, and a small HTTP client that can set any header (Host included). */
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import type { Role } from '../../src/admin/accounts';
import type { AdminRoute } from '../../src/admin/api';

import { createLiveSite, type LiveSiteOptions } from '../../src/admin/live-site';
import { createServeAdmin, type EditedSite, type MountOptions } from '../../src/admin/mount';
import type { ScryptParams } from '../../src/admin/passwords';
import type { SignInLimits } from '../../src/admin/sign-in-limits';
import { addUser } from '../../src/admin/users';
import { build, silentLogger, type BuildOptions } from '../../src/api';
import { loadConfig, type ResolvedConfig } from '../../src/config/load';
import { createNotifier, type NotifierOptions } from '../../src/notify/notifier';
import { startServer } from '../../src/serve/server';
import { fixedStoreSource, openSiteStore } from '../../src/store/source';
import { createTempSite, type TempSite } from './fixture-site';
import { builtSite, outputRoot, repoRoot } from './paths';

/** Cheap scrypt parameters for tests (the real ones take a few hundred ms per hash). */
export const testScrypt = { N: 1024, r: 8, p: 1 };

/** An answer. */
export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json(): any;
}

/** Sends one request to `base` with exactly the headers given (plus Host, unless given). */
export function send(
  base: string,
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: string | Buffer } = {},
): Promise<Answer> {
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method,
        path: path.startsWith('/') ? path : url.pathname + url.search,
        headers: { host: url.host, ...options.headers },
      },
      (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: incoming.statusCode!, headers: incoming.headers, text, json: () => JSON.parse(text) });
        });
        incoming.on('error', reject);
      },
    );
    outgoing.on('error', reject);
    outgoing.end(options.body);
  });
}

/** The headers of an admin write: the session, its CSRF token, an allowed Origin, JSON, and the version it replaces. */
export function writeHeaders(
  origin: string,
  auth: { cookie: string; csrf: string },
  version: string,
): Record<string, string> {
  return {
    cookie: auth.cookie,
    origin,
    'x-csrf-token': auth.csrf,
    'content-type': 'application/json',
    'if-match': `"${version}"`,
  };
}

/** A running `site serve --admin` with some accounts. */
export async function startAdminServer(
  options: {
    users?: { email: string; role: Role; password: string }[];
    routes?: AdminRoute[];
    dir?: string;
    configPath?: string;
    projectRoot?: string;
    trustProxy?: boolean;
    scrypt?: ScryptParams;
    signInLimits?: SignInLimits;
    eventStreams?: MountOptions['eventStreams'];
    posts?: boolean;
    inbox?: boolean;
    media?: boolean;
    settings?: boolean;
    site?: EditedSite;
    collection?: string;
    /** Changes the loaded config before anything starts (a test's `notifications:`, say). */
    configure?: (config: ResolvedConfig) => void;
    /** The notifier's options besides its config and store: the server and the inbox share it. */
    notify?: Omit<NotifierOptions, 'config' | 'store'>;
  } = {},
) {
  await mkdir(outputRoot, { recursive: true });
  const projectRoot = options.projectRoot ?? (await mkdtemp(join(outputRoot, 'admin-')));
  const config = await loadConfig(options.configPath ?? join(repoRoot, 'site.config.yaml'));
  // The project's own data/ is never a test's: the real config stores into the temp project.
  if (!options.configPath) config.dirs.data = join(projectRoot, 'data');
  options.configure?.(config);
  const store = fixedStoreSource(await openSiteStore({ ...config, root: projectRoot }));
  const notifier =
    options.notify && createNotifier({ ...options.notify, config: () => options.site?.config ?? config, store });
  for (const user of options.users ?? [])
    await addUser(await store.get(), user.email, user.role, user.password, testScrypt);
  // The posts editor of another collection than "blog", on the live site as `site` would give it.
  const site = options.site;
  const collectionPosts =
    site && options.collection
      ? {
          collection: options.collection,
          config: () => site.config,
          lastBuild: () => site.lastBuild,
          afterWrite: site.rebuild && ((file: string | readonly string[]) => site.rebuild!(file)),
        }
      : undefined;
  const admin = createServeAdmin({
    projectRoot,
    store,
    origin: config.site.origin,
    scrypt: options.scrypt ?? testScrypt,
    signInLimits: options.signInLimits,
    eventStreams: options.eventStreams,
    routes: options.routes,
    trustProxy: options.trustProxy,
    posts: collectionPosts ?? (options.posts ? { config: () => config } : undefined),
    inbox: options.inbox ? { store, notifier } : undefined,
    media: options.media ? { config: () => config } : undefined,
    settings: options.settings ? { config: () => config } : undefined,
    site: options.site,
  });
  // The server follows the live site's config, as `site serve --admin` does (src/api.ts).
  const running = await startServer({
    config,
    currentConfig: options.site && (() => options.site!.config),
    store,
    dir: options.dir ?? builtSite,
    port: 0,
    host: '127.0.0.1',
    admin,
    trustProxy: options.trustProxy,
    limits: { shutdownGraceMs: 100 },
    notifier,
  });
  const json = (body: unknown, extra: Record<string, string> = {}) => ({
    headers: { origin: running.url, 'content-type': 'application/json', ...extra },
    body: JSON.stringify(body),
  });
  return {
    url: running.url,
    projectRoot,
    admin,
    config,
    store,
    notifier,
    send: (method: string, path: string, init?: { headers?: Record<string, string>; body?: string | Buffer }) =>
      send(running.url, method, path, init),
    json,
    /** Signs in and returns the cookie and CSRF token. */
    async signIn(email: string, password: string) {
      const answer = await send(running.url, 'POST', '/api/auth/login', json({ email, password }));
      if (answer.status !== 200) throw new Error(`sign-in failed: ${answer.status} ${answer.text}`);
      const cookie = String(answer.headers['set-cookie']).split(';', 1)[0]!;
      return { cookie, csrf: answer.json().csrfToken as string };
    },
    async close() {
      await running.close();
      await store.close();
    },
  };
}

/**
 * `site serve --admin` on a site folder as it runs: the site built into its dist/ by `site build`'s
 * path, the live site started on it (`published`: the files its start wrote), and the admin served.
 */
export async function startLiveAdmin(
  site: Pick<TempSite, 'dir' | 'config'>,
  users: { email: string; role: Role; password: string }[],
  options: { inbox?: true; build?: Partial<BuildOptions>; live?: Partial<LiveSiteOptions> } = {},
) {
  const dist = join(site.dir, 'dist');
  await build({ config: site.config, out: dist, logger: silentLogger, socialImages: false, ...options.build });
  const live = createLiveSite({ config: site.config, dir: dist, ...options.live });
  const published = await live.start();
  const server = await startAdminServer({
    users,
    configPath: site.config,
    projectRoot: site.dir,
    dir: dist,
    site: live,
    ...(options.inbox ? { inbox: true } : {}),
  });
  return {
    dist,
    live,
    server,
    published,
    async close() {
      await server.close();
      await live.dispose();
    },
  };
}

/** A live admin (`startLiveAdmin`) on a temporary copy of the real site, with the files its data folder starts with. */
export async function startLiveAdminServer(
  users: { email: string; role: Role; password: string }[],
  options: { inbox?: true; data?: Record<string, string>; prepare?: (site: TempSite) => Promise<void> } = {},
) {
  const site = await createTempSite();
  // Files of its data folder before it starts (earlier versions' JSON-lines files, imported into the store).
  for (const [name, text] of Object.entries(options.data ?? {})) {
    await mkdir(join(site.dir, 'data'), { recursive: true });
    await writeFile(join(site.dir, 'data', name), text, { mode: 0o600 });
  }
  await options.prepare?.(site);
  const admin = await startLiveAdmin(site, users, { ...(options.inbox ? { inbox: true } : {}) });
  return {
    site,
    server: admin.server,
    async close() {
      await admin.close();
      await site.cleanup();
    },
  };
}
