/**
 * The booking function's store on Cloudflare: the D1 database bound as `database.d1Binding`
 * (`DB` by default), its schema brought up to date by the first request of each worker instance
 * (the store's migrations, the same ones `site serve` applies to SQLite). Web APIs only.
 */
import { StoreUnavailable } from '../../store/driver.js';
import { isD1Database, openD1 } from '../../store/d1.js';
import { createStore } from '../../store/store.js';
import type { OpenBookingStore } from './booking-endpoint.js';

/** Opens the store on the D1 binding of the request's environment. */
export const openD1Store: OpenBookingStore = async (env, settings) => {
  const binding = env[settings.database.d1Binding];
  if (!isD1Database(binding))
    throw new StoreUnavailable(
      `no D1 database is bound as ${settings.database.d1Binding}: bind one to the Pages project (Settings → Bindings → D1 database) under that name`,
    );
  return createStore(openD1(binding));
};
