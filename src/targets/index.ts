/**
 * The one door into the host targets (`site build --target`, `output.target`): the host files
 * and functions of a build, where the site's own files go, and whether to precompress. The files
 * stage of the pipeline (src/pipeline/files-stage.ts) asks for the files and functions; the CLI's
 * write step for the folder and the siblings.
 */
import type { ResolvedConfig } from '../config/load.js';
import type { HostTarget as HostTargetName } from '../config/schema.js';
import type { RunEsbuild } from '../esbuild-step.js';
import { SiteError } from '../errors.js';
import { copyFiles, type OutputFiles } from '../output-files.js';
import { pluginHeadOf, type CspAdditions } from '../render/plugin-head.js';
import { isSearchPage } from '../render/csp.js';
import { inlineScriptHashes } from '../render/head.js';
import type { Page } from '../routes/pages.js';
import { siteRedirects } from '../routes/redirects.js';
import { searchIndexFolder } from '../url-paths.js';
import { cloudflareTarget } from './cloudflare.js';
import { bookingWarnings } from './booking-warnings.js';
import { bundleFunction, siteBooking, siteEndpoints } from './functions.js';
import type { MessageTree } from '../content/messages.js';
import { githubPagesTarget, githubPagesWarnings } from './github-pages.js';
import { netlifyTarget } from './netlify.js';
import { nodeTarget } from './node.js';
import type { HostTarget, TargetInput } from './shared.js';
import { vercelTarget } from './vercel.js';

const targets: Record<HostTargetName, HostTarget> = {
  node: nodeTarget,
  netlify: netlifyTarget,
  cloudflare: cloudflareTarget,
  vercel: vercelTarget,
  'github-pages': githubPagesTarget,
};

function inputOf(
  config: ResolvedConfig,
  pages: readonly Page[],
  messages?: Readonly<Record<string, MessageTree>>,
  frameSources: readonly string[] = [],
): TargetInput {
  // The index's worker runs under the policy its own script is sent with: it compiles the WebAssembly.
  const searchPages = pages.filter((page) => isSearchPage(config, page.route.path)).map((page) => page.url);
  const searchUrls = searchPages.length ? [...searchPages, `/${searchIndexFolder}/pagefind-worker.js`].sort() : [];
  return {
    config,
    pages,
    redirects: siteRedirects(config),
    scriptHashes: inlineScriptHashes(config),
    csp: withFrames(pluginHeadOf(config, pages)?.csp, frameSources),
    searchUrls,
    endpoints: siteEndpoints(config),
    booking: siteBooking(config, messages),
  };
}

/** The policy's additions with `frames` allowed in frame-src too (the content's video players). */
function withFrames(csp: CspAdditions | undefined, frames: readonly string[]): CspAdditions | undefined {
  if (!frames.length) return csp;
  const base = csp ?? { scriptSrc: [], styleSrc: [], connectSrc: [], imgSrc: [], frameSrc: [] };
  return { ...base, frameSrc: [...new Set([...base.frameSrc, ...frames])].sort() };
}

/**
 * The host files of the config's target (headers, redirects, routes), as text; `frameSources`
 * are what the site's content shows in frames (the video players, when its Markdown uses `video`).
 */
export function createHostFiles(
  config: ResolvedConfig,
  pages: readonly Page[],
  frameSources: readonly string[] = [],
): Map<string, string> {
  return targets[config.output.target].files(inputOf(config, pages, undefined, frameSources));
}

/** Whether the output of `config` has a booking function (`output.functions.booking` on netlify, cloudflare or vercel). */
export function hasBookingFunction(config: ResolvedConfig): boolean {
  return siteBooking(config) !== undefined;
}

/**
 * The functions of the config's target, bundled (none for node and github-pages). `messages` are
 * the build's, for the words of the booking's calendar file.
 */
export async function createHostFunctions(
  config: ResolvedConfig,
  options: { messages?: Readonly<Record<string, MessageTree>>; run?: RunEsbuild } = {},
): Promise<OutputFiles> {
  const sources = targets[config.output.target].functions(inputOf(config, [], options.messages));
  const files: OutputFiles = new Map();
  // One entry written to several paths (Vercel's booking, one function per path) is bundled once.
  const bundles = new Map<string, Promise<string>>();
  for (const [path, { name, entry, platform }] of sources) {
    const key = `${platform ?? 'neutral'}\n${entry}`;
    if (!bundles.has(key)) bundles.set(key, bundleFunction(entry, name, options.run, platform));
    files.set(path, await bundles.get(key)!);
  }
  return files;
}

/**
 * A base path (`site.base`) for a host that serves the output at its domain's root: refused, since
 * every link would name a path the host does not have. GitHub Pages serves a project site's output
 * at "/<repo>/", and `site serve` serves under the base itself.
 */
export function targetBaseProblem(config: ResolvedConfig): SiteError | undefined {
  const target = config.output.target;
  if (!config.site.base || target === 'node' || target === 'github-pages') return undefined;
  return new SiteError({
    code: 'CONFIG_INVALID',
    file: config.file,
    field: 'site.base',
    message: `site.base is ${config.site.base}, but the ${target} target publishes the output at the domain's root, where no page would be found under it`,
    hint: `Leave site.base out for ${target} (or set it to "" with --base /), or build with --target github-pages or node, whose output is served under the base.`,
  });
}

/** What a target has to say about the config (a form endpoint the host cannot answer, a booking it falls back from). */
export function targetWarnings(config: ResolvedConfig): SiteError[] {
  return [...(config.output.target === 'github-pages' ? githubPagesWarnings(config) : []), ...bookingWarnings(config)];
}

/** The folder of the output the pages, assets and feeds go into ('' for the output itself; 'static/' for Vercel). */
export function staticFolderOf(config: ResolvedConfig): string {
  return targets[config.output.target].staticFolder;
}

/** Whether to write .br and .gz siblings: `output.precompress` when set, else only for `site serve` (node). */
export function precompressOf(config: ResolvedConfig): boolean {
  return config.output.precompress ?? config.output.target === 'node';
}

/**
 * The output files of a target whose site files live in a folder of the output (Vercel's
 * `static/`): every file moved there but the host's own.
 */
export function placeOutput(config: ResolvedConfig, files: OutputFiles): OutputFiles {
  const folder = staticFolderOf(config);
  if (!folder) return files;
  const target = targets[config.output.target];
  const input = inputOf(config, []);
  const hostPaths = new Set([...target.files(input).keys(), ...target.functions(input).keys()]);
  return copyFiles(files, (path) => (hostPaths.has(path) ? path : folder + path));
}
