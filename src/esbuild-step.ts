/**
 * What the build's esbuild steps (templates, stylesheet, islands) share: how a step runs esbuild,
 * so `site dev` can pass incremental contexts and the build its disk cache, and how esbuild's
 * messages become positioned SiteErrors.
 */
import type { BuildOptions, BuildResult, Message } from 'esbuild';
import { SiteError } from './errors.js';

/** Runs one esbuild build: esbuild's `build`, or in `site dev` a `rebuild()` of a kept context. */
export type RunEsbuild = <Options extends BuildOptions>(options: Options) => Promise<BuildResult<Options>>;

/** How a build step runs esbuild (default: a fresh `build`). */
export interface EsbuildStepOptions {
  run?: RunEsbuild;
}

/** Turns esbuild messages into positioned SiteErrors. */
export function esbuildErrors(messages: readonly Message[], code: 'TEMPLATE_BUILD' | 'ASSET_BUILD'): SiteError[] {
  return messages.map(
    (message) =>
      new SiteError({
        code,
        message: message.text,
        file: message.location?.file,
        line: message.location?.line,
        column: message.location ? message.location.column + 1 : undefined,
      }),
  );
}
