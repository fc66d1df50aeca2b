/**
 * The hosts' function signatures around `createWebEndpoint`: what each host passes a function, and
 * where it says who the client is. Bundled into the functions (web APIs only).
 */
import { createWebEndpoint, type EndpointSettings, type Validate, type WebHandler } from './web-endpoint.js';

export { createBookingEndpoint } from './booking-endpoint.js';

/** A form endpoint as a function bundle holds it: its schema check and its settings. */
export interface BundledEndpoint {
  validate: Validate<object>;
  settings: EndpointSettings;
}

/** An endpoint with its handler made already (the booking's): it answers its path and the paths below it. */
export interface HandledEndpoint {
  path: string;
  handle: WebHandler;
}

/** The path and handler of an endpoint, and whether it answers the paths below its own. */
function handlerOf(endpoint: BundledEndpoint | HandledEndpoint): HandledEndpoint & { below: boolean } {
  return 'handle' in endpoint
    ? { ...endpoint, below: true }
    : { path: endpoint.settings.path, handle: createWebEndpoint(endpoint.validate, endpoint.settings), below: false };
}

/** The process environment where there is one (Netlify's and Vercel's runtimes), else nothing. */
function processEnv(): Record<string, unknown> {
  return typeof process === 'object' && process?.env ? process.env : {};
}

/**
 * A Netlify Function (v2: `export default (request, context) => Response`). Netlify gives the
 * client's address as `context.ip` (and the `x-nf-client-connection-ip` header), which a client
 * cannot set.
 */
export function netlifyFunction(
  endpoint: BundledEndpoint | HandledEndpoint,
): (request: Request, context?: { ip?: string }) => Promise<Response> {
  const { handle } = handlerOf(endpoint);
  return (request, context) =>
    handle(request, {
      client: context?.ip ?? request.headers.get('x-nf-client-connection-ip') ?? 'unknown',
      env: processEnv(),
    });
}

/** A Vercel Edge Function (`export default (request) => Response`); Vercel sets `x-real-ip` to the client's address. */
export function vercelFunction(endpoint: BundledEndpoint | HandledEndpoint): (request: Request) => Promise<Response> {
  const { handle } = handlerOf(endpoint);
  return (request) => handle(request, { client: request.headers.get('x-real-ip') ?? 'unknown', env: processEnv() });
}

/** The request and response of Node's http, as far as `vercelNodeFunction` uses them (no Node import: the objects come with the call). */
interface NodeRequest extends AsyncIterable<Uint8Array> {
  method?: string;
  url?: string;
  headers: Record<string, string | string[] | undefined>;
}
interface NodeResponse {
  statusCode: number;
  setHeader(name: string, value: string | string[]): void;
  end(body?: Uint8Array): void;
}

/**
 * A Vercel Serverless Function on Node.js (`launcherType: Nodejs`, a `(req, res)` handler): for
 * the booking, whose Postgres driver needs Node's sockets, which Edge Functions lack. The request
 * becomes a web `Request` (its body streamed, so the size limit still stops reading early) and the
 * `Response` is written back.
 */
export function vercelNodeFunction(
  endpoint: BundledEndpoint | HandledEndpoint,
): (request: NodeRequest, response: NodeResponse) => Promise<void> {
  const { handle } = handlerOf(endpoint);
  return async (request, response) => {
    const headers = new Headers();
    for (const [name, value] of Object.entries(request.headers)) {
      if (value !== undefined) for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
    }
    const method = request.method ?? 'GET';
    const host = headers.get('x-forwarded-host') ?? headers.get('host') ?? 'localhost';
    const protocol = headers.get('x-forwarded-proto') ?? 'https';
    const chunks = request[Symbol.asyncIterator]();
    const body =
      method === 'GET' || method === 'HEAD'
        ? undefined
        : new ReadableStream<Uint8Array>({
            async pull(controller) {
              const { done, value } = await chunks.next();
              if (done) controller.close();
              else controller.enqueue(value);
            },
            async cancel() {
              await chunks.return?.();
            },
          });
    const web = new Request(`${protocol}://${host}${request.url ?? '/'}`, {
      method,
      headers,
      body,
      duplex: 'half',
    } as RequestInit);
    const answer = await handle(web, { client: headers.get('x-real-ip') ?? 'unknown', env: processEnv() });
    response.statusCode = answer.status;
    const cookies = answer.headers.getSetCookie?.() ?? [];
    answer.headers.forEach((value, name) => {
      if (name !== 'set-cookie') response.setHeader(name, value);
    });
    if (cookies.length) response.setHeader('set-cookie', cookies);
    response.end(new Uint8Array(await answer.arrayBuffer()));
  };
}

/**
 * A Cloudflare Pages worker in advanced mode (`_worker.js`): the endpoints by path, every other
 * request to the static files (`env.ASSETS`). `_routes.json` sends only the endpoints' paths here,
 * so pages never cost a function call. Cloudflare sets `cf-connecting-ip` to the client's address.
 */
export function cloudflareWorker(endpoints: readonly (BundledEndpoint | HandledEndpoint)[]): {
  fetch(request: Request, env: Record<string, unknown>): Promise<Response>;
} {
  const handled = endpoints.map(handlerOf);
  return {
    fetch(request, env) {
      const path = new URL(request.url).pathname;
      // A form endpoint answers its path; the booking also the paths below it (slots, the calendar file).
      const handle = handled.find(
        (endpoint) => path === endpoint.path || (endpoint.below && path.startsWith(`${endpoint.path}/`)),
      )?.handle;
      if (handle) return handle(request, { client: request.headers.get('cf-connecting-ip') ?? 'unknown', env });
      const assets = env.ASSETS as { fetch(request: Request): Promise<Response> } | undefined;
      return assets ? assets.fetch(request) : Promise.resolve(new Response('Not found', { status: 404 }));
    },
  };
}
