/**
 * Tracked views of plain data (pure): reading through a view reports the path of each value read,
 * so `site dev` can tell whether a change in the data changed anything a render actually read.
 * A read is reported as `<prefix> <path as JSON>` ("page:/blog/ ["blog","pageNumber"]"), a test
 * for a key as `<prefix> has:<path>`, and a listing of keys as `<prefix> keys:<path>`.
 */

/** A view of `data` that calls `track` for every value and every list of keys read through it. */
export function trackedView<T extends object>(data: T, prefix: string, track: (read: string) => void): T {
  const views = new Map<string, object>();
  const view = (target: object, path: readonly string[]): object => {
    const id = JSON.stringify(path);
    const existing = views.get(id);
    if (existing) return existing;
    const proxy = new Proxy(target, {
      get(object, key, receiver) {
        const value: unknown = Reflect.get(object, key, receiver);
        if (typeof key === 'symbol' || typeof value === 'function') return value;
        if (typeof value === 'object' && value !== null) return view(value, [...path, key]);
        track(`${prefix} ${JSON.stringify([...path, key])}`);
        return value;
      },
      has(object, key) {
        if (typeof key === 'string') track(`${prefix} has:${JSON.stringify([...path, key])}`);
        return Reflect.has(object, key);
      },
      ownKeys(object) {
        track(`${prefix} keys:${id}`);
        return Reflect.ownKeys(object);
      },
      getOwnPropertyDescriptor(object, key) {
        // A descriptor hands out the raw value, so count it as a read of everything below.
        if (typeof key === 'string') track(`${prefix} ${JSON.stringify([...path, key])}`);
        return Reflect.getOwnPropertyDescriptor(object, key);
      },
    });
    views.set(id, proxy);
    return proxy;
  };
  return view(data, []) as T;
}

/**
 * What a read reported by `trackedView(…, prefix, …)` sees in `data`, as comparable text; undefined
 * when `read` is not one of that prefix's reads.
 */
export function readTracked(read: string, prefix: string, data: unknown): string | undefined {
  if (!read.startsWith(`${prefix} `)) return undefined;
  const rest = read.slice(prefix.length + 1);
  const mode = /^(keys|has):/.exec(rest)?.[1];
  const path = JSON.parse(mode ? rest.slice(mode.length + 1) : rest) as string[];
  let parent: unknown;
  let value: unknown = data;
  for (const part of path) {
    parent = value;
    value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[part] : undefined;
  }
  if (mode === 'keys') return JSON.stringify(typeof value === 'object' && value !== null ? Object.keys(value) : null);
  if (mode === 'has') return String(typeof parent === 'object' && parent !== null && path.at(-1)! in parent);
  return value === undefined ? 'undefined' : JSON.stringify(value);
}
