/**
 * The `postgres` driver: the store on a Postgres server, through postgres.js, for a team that runs
 * more than one server (DATABASE_URL or `storage.url`). The store's statements are written with
 * `?` placeholders; this driver numbers them ($1, $2 …) and reads rows back as the SQLite driver
 * does (integers as numbers, no Date or boolean values), so the same store code runs on both.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type postgres from 'postgres';
import {
  StoreUnavailable,
  type SqlDriver,
  type SqlExecutor,
  type SqlResult,
  type SqlRow,
  type SqlValue,
  type StoreFault,
} from './driver.js';

/** Limits of a connection pool; the defaults suit `site serve`. */
export interface PostgresOptions {
  /** Connections the pool opens at most. */
  maxConnections?: number;
  /** Seconds to wait for a connection before the store is unavailable. */
  connectTimeoutSeconds?: number;
  /**
   * Milliseconds a statement may run (or wait for a lock) before the server cancels it: a visitor
   * gets a 503 rather than a request that hangs behind a stuck transaction.
   */
  statementTimeoutMs?: number;
}

/**
 * Opens a pool of connections to the Postgres database at `url`
 * (`postgres://user:password@host:port/database`). It connects on the first statement, so a
 * server that is down shows as StoreUnavailable there, not here. The password never appears in
 * a message of this driver.
 */
export async function openPostgres(url: string, options: PostgresOptions = {}): Promise<SqlDriver> {
  const target = describePostgresUrl(url);
  const secrets = passwordsIn(url);
  // Imported here, not at the top: bundled into lib/index.js, a static import would load
  // postgres.js at every start of every site, also the ones on SQLite.
  const { default: connect } = await import('postgres');
  const sql = connect(url, {
    max: options.maxConnections ?? 10,
    connect_timeout: options.connectTimeoutSeconds ?? 10,
    // The store holds no long transactions: an idle connection is closed after a minute, so a
    // quiet site keeps no server slots.
    idle_timeout: 60,
    // Array types are never sent or read, so each new connection spares the query that fetches them.
    fetch_types: false,
    // Notices ("relation already exists, skipping") would go to console.log; only the CLI's
    // logger writes to the terminal.
    onnotice: () => {},
    connection: {
      application_name: 'typed-site',
      statement_timeout: options.statementTimeoutMs ?? 10_000,
      lock_timeout: options.statementTimeoutMs ?? 10_000,
    },
    types: {
      // bigint (count(*), sum of integers) and numeric (sum of bigints) come back as numbers, as
      // SQLite returns them; postgres.js would give strings, which compare and add wrongly.
      int8: { to: 20, from: [20], serialize: (value: bigint | number) => String(value), parse: parseInteger },
      numeric: {
        to: 1700,
        from: [1700],
        serialize: (value: number) => String(value),
        parse: (raw: string) => Number(raw),
      },
    },
  });

  // Statements run inside `transaction(work)` go to the transaction's connection, also when
  // `work` calls the driver rather than the executor it was given: on another connection they
  // would not see its rows, and could wait for its locks for ever.
  const current = new AsyncLocalStorage<postgres.TransactionSql>();

  async function run(
    on: postgres.Sql | postgres.TransactionSql,
    text: string,
    params: readonly SqlValue[],
  ): Promise<SqlResult> {
    try {
      const result = await on.unsafe(toPostgresPlaceholders(text), params as postgres.ParameterOrJSON<never>[]);
      return { rows: result.map(toSqlRow), changes: result.count ?? 0 };
    } catch (error) {
      throw classifyError(error, target, secrets);
    }
  }

  function executorOn(tx: postgres.TransactionSql): SqlExecutor {
    return { dialect: 'postgres', execute: (text, params = []) => run(tx, text, params) };
  }

  return {
    dialect: 'postgres',
    execute(text, params = []) {
      return run(current.getStore() ?? sql, text, params);
    },
    async transaction<T>(work: (tx: SqlExecutor) => Promise<T>): Promise<T> {
      const outer = current.getStore();
      const body = (tx: postgres.TransactionSql) => current.run(tx, () => work(executorOn(tx)));
      try {
        // A transaction inside a transaction is a savepoint of the outer one: its failure rolls
        // back its own statements, and the outer transaction decides about the rest.
        return (await (outer ? outer.savepoint(body) : sql.begin(body))) as T;
      } catch (error) {
        throw classifyError(error, target, secrets);
      }
    },
    async close() {
      await sql.end({ timeout: 5 });
    },
  };
}

/**
 * Rewrites the `?` placeholders of a statement as Postgres's numbered ones ($1, $2 …), leaving
 * alone a `?` inside a string ('…', E'…', $tag$…$tag$), a quoted identifier ("…") or a comment.
 */
export function toPostgresPlaceholders(text: string): string {
  let out = '';
  let count = 0;
  let i = 0;
  while (i < text.length) {
    const char = text[i]!;
    const next = text[i + 1];
    let end = i + 1;
    if (char === '?') {
      out += `$${++count}`;
      i += 1;
      continue;
    }
    if (char === "'") {
      // An E'…' string escapes with backslashes; a standard string only by doubling the quote.
      const escapes = /[eE]/.test(text[i - 1] ?? '') && !/[\w$]/.test(text[i - 2] ?? '');
      end = endOfQuoted(text, i, "'", escapes);
    } else if (char === '"') {
      end = endOfQuoted(text, i, '"', false);
    } else if (char === '-' && next === '-') {
      const newline = text.indexOf('\n', i);
      end = newline === -1 ? text.length : newline;
    } else if (char === '/' && next === '*') {
      end = endOfBlockComment(text, i);
    } else if (char === '$' && !/[\w$]/.test(text[i - 1] ?? '')) {
      const tag = /^\$([A-Za-z_][\w]*)?\$/.exec(text.slice(i));
      if (tag) {
        const close = text.indexOf(tag[0], i + tag[0].length);
        end = close === -1 ? text.length : close + tag[0].length;
      }
    }
    out += text.slice(i, end);
    i = end;
  }
  return out;
}

/** The index just past the quote that closes the string or identifier opened at `start`. */
function endOfQuoted(text: string, start: number, quote: string, backslashEscapes: boolean): number {
  let i = start + 1;
  while (i < text.length) {
    const char = text[i];
    if (backslashEscapes && char === '\\') i += 2;
    else if (char === quote && text[i + 1] === quote) i += 2;
    else if (char === quote) return i + 1;
    else i += 1;
  }
  return text.length;
}

/** The index just past a block comment opened at `start`; Postgres's block comments nest. */
function endOfBlockComment(text: string, start: number): number {
  let depth = 0;
  let i = start;
  while (i < text.length) {
    if (text.startsWith('/*', i)) {
      depth += 1;
      i += 2;
    } else if (text.startsWith('*/', i)) {
      depth -= 1;
      i += 2;
      if (depth === 0) return i;
    } else {
      i += 1;
    }
  }
  return text.length;
}

/**
 * `host:port/database` of a Postgres URL, for messages: never its user's password. Refuses a URL
 * that is not one, without repeating it (it may hold the password).
 */
export function describePostgresUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new StoreUnavailable(
      'The Postgres URL cannot be read: write it as postgres://user:password@host:5432/database (percent-encode @, : and / inside the password).',
    );
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') {
    throw new StoreUnavailable(`The Postgres URL starts with ${parsed.protocol}// where postgres:// is expected.`);
  }
  const host = parsed.host || 'localhost';
  return `${host.includes(':') ? host : `${host}:5432`}${parsed.pathname || '/'}`;
}

/** The password of a URL as written and decoded, to scrub from messages that might echo it. */
function passwordsIn(url: string): string[] {
  const raw = new URL(url).password;
  if (!raw) return [];
  let decoded = raw;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    // A malformed escape leaves the password as written, which postgres.js will refuse in turn.
  }
  return [...new Set([raw, decoded])];
}

/** An int8 as a number when it is exact as one, else as a bigint (which SqlValue allows). */
function parseInteger(raw: string): number | bigint {
  const value = Number(raw);
  return Number.isSafeInteger(value) ? value : BigInt(raw);
}

/** A row of postgres.js as the store reads rows: only text, numbers, bytes and null. */
function toSqlRow(row: Record<string, unknown>): SqlRow {
  const out: SqlRow = {};
  for (const [name, value] of Object.entries(row)) out[name] = toSqlValue(value);
  return out;
}

function toSqlValue(value: unknown): SqlValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint') return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Uint8Array) return value;
  return JSON.stringify(value);
}

/** Error codes of Node and postgres.js that mean the server could not be reached or went away. */
const connectionCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
  'CONNECT_TIMEOUT',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
]);

/**
 * SQLSTATE classes and codes that are a problem of the database, not of the statement: connection
 * (08), sign-in refused (28), no such database (3D000), deadlock or serialization (40), out of
 * disk, memory or connections (53), cancelled by a timeout or an operator (57), system errors (58),
 * a lock not granted within lock_timeout (55P03).
 */
function isUnavailableState(state: string): boolean {
  return (
    /^(08|28|40|53|57|58)/.test(state) ||
    state === '3D000' ||
    state === '55P03' ||
    state === 'XX001' ||
    state === 'XX002'
  );
}

/** What a SQLSTATE (or a connection's error code, without one) says is wrong with the database. */
function faultOf(state: string | undefined): StoreFault {
  if (state === '53100') return 'full';
  if (state === 'XX001' || state === 'XX002') return 'corrupt';
  if (state !== undefined && (/^40/.test(state) || state === '55P03' || state === '57014')) return 'busy';
  return 'down';
}

/** StoreUnavailable for a problem of the database itself; any other error as it was. */
function classifyError(error: unknown, target: string, secrets: readonly string[]): unknown {
  if (error instanceof StoreUnavailable) return error;
  const { code, name } = (error ?? {}) as { code?: unknown; name?: unknown };
  const state = name === 'PostgresError' && typeof code === 'string' ? code : undefined;
  const unavailable = state ? isUnavailableState(state) : typeof code === 'string' && connectionCodes.has(code);
  if (!unavailable) return error;
  let reason = error instanceof Error ? error.message : String(error);
  for (const secret of secrets) reason = reason.split(secret).join('***');
  return new StoreUnavailable(`The Postgres database at ${target} is unavailable (${String(code)}): ${reason}`, {
    cause: error,
    fault: faultOf(state),
  });
}
