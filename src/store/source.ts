/**
 * One store per process: `site serve` opens it at start (migrations applied, the old JSON-lines
 * files imported) and closes it at stop; `site dev`, whose data folder follows the config being
 * edited, opens the store of the config of the moment when first asked, and a new one when the
 * config names another database. Everything that stores asks a `StoreSource` for the store at
 * each request.
 */
import type { ResolvedConfig } from '../config/load.js';
import { SiteError } from '../errors.js';
import { StoreUnavailable, type StoreFault } from './driver.js';
import { importLegacyFiles, type ImportReport } from './legacy-import.js';
import type { StoreHealthChange } from './health.js';
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
  /** Told when the database starts failing (requests answered 503) and when it answers again, with its description. */
  health?(change: StoreHealthChange, database: string): void;
}

/**
 * Opens the store of a config, checked (open.ts: a damaged database is refused), and imports the
 * old JSON-lines files into it when it is empty.
 */
export async function openSiteStore(config: ResolvedConfig, options: OpenSiteStoreOptions = {}): Promise<Store> {
  const { health } = options;
  const database = describeDatabase(databaseOf(config));
  const store = await openStoreFor(config, health ? { health: (change) => health(change, database) } : {});
  try {
    const report = await importLegacyFiles(store, { dataDir: config.dirs.data, projectRoot: config.root });
    if (report) options.imported?.(report, database);
  } catch (error) {
    await store.close().catch(() => undefined);
    throw error;
  }
  return store;
}

/** A source following a config that may change (`site dev`): the store of its database, opened when first asked. */
export function followingStoreSource(
  currentConfig: () => ResolvedConfig | undefined,
  options: OpenSiteStoreOptions = {},
): StoreSource {
  const opened = new Map<string, Promise<Store>>();
  // A database that cannot be opened is tried again at each request: said once, and once more when it opens.
  const failedOpens = new Map<string, { fault: StoreFault; since: number; failures: number }>();
  return {
    get() {
      const config = currentConfig();
      if (!config)
        return Promise.reject(new StoreUnavailable('the site has not built yet: fix the errors site dev shows'));
      const key = describeDatabase(databaseOf(config));
      let store = opened.get(key);
      if (!store) {
        store = openSiteStore(config, options);
        opened.set(key, store);
        store.then(
          () => {
            const failed = failedOpens.get(key);
            if (!failed) return;
            failedOpens.delete(key);
            options.health?.(
              { state: 'recovered', fault: failed.fault, failures: failed.failures, ms: Date.now() - failed.since },
              key,
            );
          },
          (error: unknown) => {
            // A failed open is tried again at the next request (the folder may be fixed meanwhile).
            opened.delete(key);
            const fault: StoreFault =
              error instanceof SiteError && error.code === 'STORE_DAMAGED'
                ? 'corrupt'
                : error instanceof StoreUnavailable
                  ? error.fault
                  : 'down';
            const failed = failedOpens.get(key);
            if (failed?.fault === fault) failed.failures++;
            else {
              failedOpens.set(key, { fault, since: Date.now(), failures: 1 });
              options.health?.(
                { state: 'failing', fault, detail: error instanceof Error ? error.message : String(error) },
                key,
              );
            }
          },
        );
      }
      return store.catch((error) => {
        throw error instanceof SiteError
          ? new StoreUnavailable(error.message, {
              cause: error,
              fault: error.code === 'STORE_DAMAGED' ? 'corrupt' : 'down',
            })
          : error;
      });
    },
    async close() {
      const stores = [...opened.values()];
      opened.clear();
      await Promise.all(
        stores.map((store) =>
          store.then(
            (open) => open.close(),
            () => undefined,
          ),
        ),
      );
    },
  };
}
