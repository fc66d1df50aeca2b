/**
 * The error overlay of `site dev`, as HTML (pure): one entry per problem with its code, title,
 * message, `file:line:col`, field, a few lines of source and the hint. It is an accessible alert
 * dialog (labelled, focusable, dismissed with Escape or its button). Warnings, which do not fail
 * the build, get a small panel in a corner instead, collapsed to its count. Its strings are for
 * developers, not site copy, so they are English only.
 */
import { sep } from 'node:path';
import { errorCatalogue, type SiteError } from '../errors.js';
import { formatCodeFrame } from '../code-frame.js';
import { escapeHtml } from '../render/html.js';

/** What the overlay says about one problem. */
export interface OverlayProblem {
  code: string;
  title: string;
  message: string;
  /** "content/blog/x/en.md:3:7", when the file is known. */
  location?: string;
  field?: string;
  hint?: string;
  /** A few lines of source around the position. */
  frame?: string;
}

/** The id of the overlay element; the client finds it by this id. */
export const overlayId = 'site-dev-overlay';

/** The id of the warnings panel; the client finds it by this id. */
export const warningsId = 'site-dev-warnings';

/** Describes the errors of a failed build (or an unexpected crash); `sourceOf` reads a file's text. */
export function describeProblems(
  errors: readonly SiteError[],
  crash: unknown,
  sourceOf: (file: string) => string | undefined,
): OverlayProblem[] {
  const problems = errors.map((error): OverlayProblem => {
    const text = error.file && error.line !== undefined ? sourceOf(error.file) : undefined;
    return {
      code: error.code,
      title: errorCatalogue[error.code].title,
      message: error.message,
      location: error.file
        ? [error.file, error.line, error.column].filter((part) => part !== undefined).join(':')
        : undefined,
      field: error.field,
      hint: error.hint,
      frame: text === undefined ? undefined : formatCodeFrame(text, error.line!, error.column),
    };
  });
  if (crash !== undefined) {
    problems.push({
      code: 'INTERNAL',
      title: 'Internal error',
      message: crash instanceof Error ? crash.message : String(crash),
      frame: crash instanceof Error ? crash.stack : undefined,
      hint: 'This is a bug in the generator or a template, not in the content; the terminal shows it too.',
    });
  }
  return problems;
}

/**
 * A problem with the given folders (the project, the generator) cut from every path it names, so
 * what the dev server sends to pages says `content/blog/x/en.md`, not where the project lives.
 */
export function withoutAbsolutePaths(problem: OverlayProblem, folders: readonly string[]): OverlayProblem {
  const prefixes = [...new Set(folders)]
    .map((folder) => (folder.endsWith(sep) ? folder : folder + sep))
    .sort((a, b) => b.length - a.length);
  const strip = (text: string | undefined) =>
    text === undefined ? undefined : prefixes.reduce((out, prefix) => out.split(prefix).join(''), text);
  return {
    ...problem,
    message: strip(problem.message)!,
    location: strip(problem.location),
    hint: strip(problem.hint),
    frame: strip(problem.frame),
  };
}

/** One problem as a list item of the overlay or the warnings panel. */
function renderProblem(problem: OverlayProblem): string {
  return [
    '<li class="site-dev-problem">',
    `<p class="site-dev-code"><strong>${escapeHtml(problem.code)}</strong> ${escapeHtml(problem.title)}</p>`,
    problem.location
      ? `<p class="site-dev-location"><code>${escapeHtml(problem.location)}</code>${problem.field ? ` <code>${escapeHtml(problem.field)}</code>` : ''}</p>`
      : '',
    `<p class="site-dev-message">${escapeHtml(problem.message)}</p>`,
    problem.frame ? `<pre class="site-dev-frame"><code>${escapeHtml(problem.frame)}</code></pre>` : '',
    problem.hint ? `<p class="site-dev-hint">Hint: ${escapeHtml(problem.hint)}</p>` : '',
    '</li>',
  ].join('');
}

/**
 * The warnings panel for a list of warnings: not a dialog (the page stays usable), a labelled
 * region in a corner whose list opens from its count, with a button that hides it.
 */
export function renderWarnings(warnings: readonly OverlayProblem[]): string {
  const count = `${warnings.length} ${warnings.length === 1 ? 'warning' : 'warnings'}`;
  return [
    `<aside id="${warningsId}" class="site-dev-warnings" aria-label="site dev: ${count}">`,
    `<details><summary>Build succeeded with ${count}</summary>`,
    `<ol class="site-dev-problems">${warnings.map(renderProblem).join('')}</ol>`,
    '</details>',
    '<button type="button" class="site-dev-dismiss" data-site-dev-hide-warnings>Hide</button>',
    '</aside>',
  ].join('');
}

/** The overlay element for a list of problems. */
export function renderOverlay(problems: readonly OverlayProblem[]): string {
  const count = `${problems.length} ${problems.length === 1 ? 'problem' : 'problems'}`;
  const items = problems.map(renderProblem);
  return [
    `<div id="${overlayId}" class="site-dev-overlay" role="alertdialog" aria-modal="true" aria-labelledby="${overlayId}-title" aria-describedby="${overlayId}-summary" tabindex="-1">`,
    '<div class="site-dev-panel">',
    `<h2 id="${overlayId}-title">Build failed: ${count}</h2>`,
    `<p id="${overlayId}-summary">The site below is the last good build. This message goes away by itself once the ${problems.length === 1 ? 'problem is' : 'problems are'} fixed. Press Escape to hide it.</p>`,
    `<ol class="site-dev-problems">${items.join('')}</ol>`,
    '<button type="button" class="site-dev-dismiss" data-site-dev-dismiss>Hide</button>',
    '</div>',
    '</div>',
  ].join('');
}

/** What the injected client needs to know about the page it runs in. */
export interface InjectOptions {
  /** The build the page belongs to. */
  build: string;
  /** The output file served ("hub/index.html"). */
  file: string;
  /** The overlay to show at once, when the current build has failed. */
  overlay?: string;
  /** The warnings panel to show at once, when the current build has warnings. */
  warnings?: string;
}

/** The tags that load the dev client and its styles (never part of `site build` output). */
export function devClientTags(options: Pick<InjectOptions, 'build' | 'file'>): string {
  const query = new URLSearchParams({ build: options.build, file: options.file }).toString();
  return `<link rel="stylesheet" href="/__site/dev-client.css" /><script type="module" src="/__site/dev-client.js?${escapeHtml(query)}"></script>`;
}

/** Adds the dev client (and the overlay, if any) to a page served by `site dev`. */
export function injectDevClient(html: string, options: InjectOptions): string {
  const tags = devClientTags(options);
  let out = html.includes('</head>') ? html.replace('</head>', `${tags}</head>`) : tags + html;
  if (options.overlay) {
    const body = /<body[^>]*>/.exec(out);
    out = body
      ? out.slice(0, body.index + body[0].length) + options.overlay + out.slice(body.index + body[0].length)
      : out + options.overlay;
  }
  // Last in the page, so it comes after the page's own content in the focus order (the skip link stays first).
  if (options.warnings) {
    const end = out.lastIndexOf('</body>');
    out = end === -1 ? out + options.warnings : out.slice(0, end) + options.warnings + out.slice(end);
  }
  return out;
}

/** The page served for every path while there has not been a good build yet. */
export function renderErrorPage(options: InjectOptions & { overlay: string }): string {
  return [
    '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8" />',
    '<meta name="viewport" content="width=device-width, initial-scale=1" />',
    '<title>Build failed · site dev</title>',
    devClientTags(options),
    `</head><body><main class="site-dev-waiting"><h1>Waiting for a good build</h1><p>The site has not built yet.</p></main>${options.overlay}</body></html>\n`,
  ].join('');
}
