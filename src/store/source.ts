/**
 * One store per process: `site serve` opens it at start (migrations applied, the old JSON-lines
 * files imported) and closes it at stop; `site dev`, whose data folder follows the config being
 * edited, opens the store of the config of the moment when first asked, and a new one when the
 * config names another database. Everything that stores asks a `StoreSource` for the store at
 * each request.
 */
import type { ResolvedConfig } from '../config/load.js';
import { SiteError } from '../errors.js';
import { StoreUnavailable } from './driver.js';
import { importLegacyFiles, type ImportReport } from './legacy-import.js';
import { databaseOf, describeDatabase, openStoreFor } from './open.js';
import type { Store } from './store.js';

/** Gives the store of the moment. */
export interface StoreSource {
  /** The store; rejects with StoreUnavailable while there is none (no config yet, or the database cannot be opened). */
  get(): Promise<Store>;
  /** Closes every store it opened. */
  close(): Promise<void>;
}

/** A source that always gives `store` (and closes it). */
export function fixedStoreSource(store: Store): StoreSource {
  return { get: () => Promise.resolve(store), close: () => store.close() };
}

/** Options of `openSiteStore`. */
export interface OpenSiteStoreOptions {
  /** Told what the first start imported from the JSON-lines files. */
  imported?(report: ImportReport, database: string): void;
}

/** Opens the store of a config and imports the old JSON-lines files into it when it is empty. */
export async function openSiteStore(config: ResolvedConfig, options: OpenSiteStoreOptions = {}): Promise<Store> {
  const store = await openStoreFor(config);
  try {
    const report = await importLegacyFiles(store, { dataDir: config.dirs.data, projectRoot: config.root });
    if (report) options.imported?.(report, describeDatabase(databaseOf(config)));
  } catch (error) {
    await store.close().catch(() => undefined);
    throw error;
  }
  return store;
}

/** A source following a config that may change (`site dev`): the store of its database, opened when first asked. */
export function followingStoreSource(currentConfig: () => ResolvedConfig | undefined, options: OpenSiteStoreOptions = {}): StoreSource {
  const opened = new Map<string, Promise<Store>>();
  return {
    get() {
      const config = currentConfig();
      if (!config) return Promise.reject(new StoreUnavailable('the site has not built yet: fix the errors site dev shows'));
      const key = describeDatabase(databaseOf(config));
      let store = opened.get(key);
      if (!store) {
        store = openSiteStore(config, options);
        opened.set(key, store);
        // A failed open is tried again at the next request (the folder may be fixed meanwhile).
        store.catch(() => opened.delete(key));
      }
      return store.catch((error) => {
        throw error instanceof SiteError ? new StoreUnavailable(error.message, { cause: error }) : error;
      });
    },
    async close() {
      const stores = [...opened.values()];
      opened.clear();
      await Promise.all(stores.map((store) => store.then((open) => open.close(), () => undefined)));
    },
  };
}
