/**
 * The booking function's store on Netlify and Vercel: the Postgres database named by the host's
 * environment variable `database.urlEnv` (`DATABASE_URL` by default), through postgres.js, its
 * schema brought up to date by the first request of each function instance. Bundled for Node
 * (postgres.js speaks to the server over Node's sockets). The URL, which holds the password, is
 * never written to the log.
 */
import { StoreUnavailable } from '../../store/driver.js';
import { openPostgres } from '../../store/postgres.js';
import { createStore } from '../../store/store.js';
import type { OpenBookingStore } from './booking-endpoint.js';

/** Opens the store on the database at the URL in the variable `database.urlEnv`. */
export const openUrlStore: OpenBookingStore = async (env, settings) => {
  const url = env[settings.database.urlEnv];
  const name = settings.database.urlEnv;
  if (typeof url !== 'string' || !url)
    throw new StoreUnavailable(
      `the variable ${name} is not set: set it to the postgres:// URL of the booking's database in the host's environment variables`,
    );
  if (!/^postgres(ql)?:\/\//i.test(url))
    throw new StoreUnavailable(
      `the variable ${name} does not hold a postgres:// URL (it starts "${url.split(':')[0]}:")`,
    );
  // A function instance answers one request at a time: one connection is all it uses, and many
  // instances at once must not take the database's every connection slot.
  return createStore(await openPostgres(url, { maxConnections: 1 }));
};
