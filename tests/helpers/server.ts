/** Starts `site serve`'s server in-process on a free port of 127.0.0.1. */
import type { Server } from 'node:http';
import { mkdir, mkdtemp } from 'node:fs/promises';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/load';
import { startServer } from '../../src/serve/server';
import { storeIn } from './store';
import { builtSite, outputRoot, repoRoot } from './paths';

/** A running server and how to stop it. */
export interface TestServer {
  url: string;
  server: Server;
  close(): Promise<void>;
}

/**
 * Serves `dir` (default: the real site built by the global setup) with the API. What visitors send
 * is stored in `dataDir`, by default a new folder of this run: never the project's own data/.
 */
export async function serveSite(
  options: { dir?: string; configPath?: string; dataDir?: string } = {},
): Promise<TestServer> {
  const config = await loadConfig(options.configPath ?? join(repoRoot, 'site.config.yaml'));
  await mkdir(outputRoot, { recursive: true });
  config.dirs.data = options.dataDir ?? (await mkdtemp(join(outputRoot, 'data-')));
  const store = await storeIn(config.dirs.data);
  const { server, url } = await startServer({
    config,
    store,
    dir: options.dir ?? builtSite,
    port: 0,
    host: '127.0.0.1',
  });
  return {
    url,
    server,
    async close() {
      await new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
      await store.close();
    },
  };
}
