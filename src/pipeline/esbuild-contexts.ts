/**
 * Incremental esbuild for a pipeline that runs many times (`site dev`): each build step (templates, stylesheet, islands) keeps an
 * esbuild context, and running the step again is a `rebuild()` that re-parses only the files that
 * changed. The options are exactly those `site build` passes, so the output is the same.
 */
import type { BuildContext, BuildOptions } from 'esbuild';
import type { RunEsbuild } from '../esbuild-step.js';

/** A runner for the build steps, and the contexts behind it. */
export interface EsbuildContexts {
  run: RunEsbuild;
  dispose(): Promise<void>;
}

/** JSON of build options, without the functions of plugins (their names stay). */
function stringify(options: BuildOptions): string {
  return JSON.stringify(options, (_key, value: unknown) => (typeof value === 'function' ? undefined : value));
}

/**
 * The step a build belongs to: its options without its entries, so a step whose entries change
 * (a template or island added) replaces its context instead of keeping two.
 */
function stepOf(options: BuildOptions): string {
  const { entryPoints: _entries, stdin, ...rest } = options;
  return stringify({ ...rest, stdin: stdin && { ...stdin, contents: '' } });
}

/** Creates the runner; a context is created on the first run of each step. */
export function createEsbuildContexts(): EsbuildContexts {
  const steps = new Map<string, { options: string; context: Promise<BuildContext> }>();
  const disposeOf = (entry: { context: Promise<BuildContext> } | undefined) =>
    entry?.context.then(
      (context) => context.dispose(),
      () => undefined,
    );

  const run = (async (options: BuildOptions) => {
    const { context } = await import('esbuild');
    const step = stepOf(options);
    const key = stringify(options);
    let entry = steps.get(step);
    if (entry?.options !== key) {
      void disposeOf(entry);
      entry = { options: key, context: context(options) };
      steps.set(step, entry);
      const created = entry;
      // A context that cannot be created (a bad option) is not kept.
      created.context.catch(() => {
        if (steps.get(step) === created) steps.delete(step);
      });
    }
    return (await entry.context).rebuild();
  }) as RunEsbuild;

  return {
    run,
    async dispose() {
      const entries = [...steps.values()];
      steps.clear();
      await Promise.all(entries.map(disposeOf));
    },
  };
}
