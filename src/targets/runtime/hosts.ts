/**
 * The hosts' function signatures around `createWebEndpoint`: what each host passes a function, and
 * where it says who the client is. Bundled into the functions (web APIs only).
 */
import { createWebEndpoint, type EndpointSettings, type Validate, type WebHandler } from './web-endpoint.js';

/** An endpoint as a function bundle holds it: its schema check and its settings. */
export interface BundledEndpoint {
  validate: Validate<object>;
  settings: EndpointSettings;
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
export function netlifyFunction(endpoint: BundledEndpoint): (request: Request, context?: { ip?: string }) => Promise<Response> {
  const handle = createWebEndpoint(endpoint.validate, endpoint.settings);
  return (request, context) => handle(request, { client: context?.ip ?? request.headers.get('x-nf-client-connection-ip') ?? 'unknown', env: processEnv() });
}

/** A Vercel Edge Function (`export default (request) => Response`); Vercel sets `x-real-ip` to the client's address. */
export function vercelFunction(endpoint: BundledEndpoint): (request: Request) => Promise<Response> {
  const handle = createWebEndpoint(endpoint.validate, endpoint.settings);
  return (request) => handle(request, { client: request.headers.get('x-real-ip') ?? 'unknown', env: processEnv() });
}

/**
 * A Cloudflare Pages worker in advanced mode (`_worker.js`): the endpoints by path, every other
 * request to the static files (`env.ASSETS`). `_routes.json` sends only the endpoints' paths here,
 * so pages never cost a function call. Cloudflare sets `cf-connecting-ip` to the client's address.
 */
export function cloudflareWorker(endpoints: readonly BundledEndpoint[]): { fetch(request: Request, env: Record<string, unknown>): Promise<Response> } {
  const handlers = new Map<string, WebHandler>(endpoints.map((endpoint) => [endpoint.settings.path, createWebEndpoint(endpoint.validate, endpoint.settings)]));
  return {
    fetch(request, env) {
      const handle = handlers.get(new URL(request.url).pathname);
      if (handle) return handle(request, { client: request.headers.get('cf-connecting-ip') ?? 'unknown', env });
      const assets = env.ASSETS as { fetch(request: Request): Promise<Response> } | undefined;
      return assets ? assets.fetch(request) : Promise.resolve(new Response('Not found', { status: 404 }));
    },
  };
}
