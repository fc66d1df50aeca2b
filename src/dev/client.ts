/**
 * The browser side of `site dev`, served as /__site/dev-client.js (a same-origin file, so the
 * site's Content-Security-Policy, which allows only `'self'` and hashed inline scripts, lets it
 * run) and its overlay styles as /__site/dev-client.css. The client listens to /__site/events and
 * reloads the page when its file changed, swaps the stylesheet when only CSS changed, shows or
 * hides the error overlay, and shows the warnings panel of the current build (or removes it).
 */

/** What the client is told when it starts (from its own URL's query). */
interface ClientOptions {
  build: string;
  file: string;
}

/**
 * Runs in the page. It is sent as its own source text (`String(runDevClient)`), so it must not
 * refer to anything outside itself.
 */
function runDevClient(options: ClientOptions): void {
  const overlayId = 'site-dev-overlay';
  const warningsId = 'site-dev-warnings';
  let build = options.build;
  let returnFocus: HTMLElement | undefined;

  const hide = () => {
    const overlay = document.getElementById(overlayId);
    if (!overlay) return;
    overlay.remove();
    returnFocus?.focus();
    returnFocus = undefined;
  };
  const attach = (overlay: HTMLElement) => {
    if (!returnFocus && document.activeElement instanceof HTMLElement && document.activeElement !== document.body)
      returnFocus = document.activeElement;
    const dismiss = overlay.querySelector<HTMLElement>('[data-site-dev-dismiss]');
    dismiss?.addEventListener('click', hide);
    overlay.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') {
        event.preventDefault();
        hide();
      } else if (event.key === 'Tab') {
        // The dialog is modal: focus stays on it and its one button.
        event.preventDefault();
        (document.activeElement === dismiss ? overlay : dismiss)?.focus();
      }
    });
    overlay.focus();
  };
  const show = (html: string) => {
    const template = document.createElement('template');
    template.innerHTML = html;
    const overlay = template.content.firstElementChild;
    if (!(overlay instanceof HTMLElement)) return;
    const existing = document.getElementById(overlayId);
    if (existing) existing.replaceWith(overlay);
    else document.body.prepend(overlay);
    attach(overlay);
  };
  const hookWarnings = (panel: HTMLElement) =>
    panel.querySelector('[data-site-dev-hide-warnings]')?.addEventListener('click', () => panel.remove());
  const showWarnings = (html: unknown) => {
    const existing = document.getElementById(warningsId);
    if (typeof html !== 'string') return existing?.remove();
    const template = document.createElement('template');
    template.innerHTML = html;
    const panel = template.content.firstElementChild;
    if (!(panel instanceof HTMLElement)) return;
    if (existing) existing.replaceWith(panel);
    else document.body.append(panel);
    hookWarnings(panel);
  };
  const swapStylesheet = (from: string, to: string) => {
    const links = [...document.querySelectorAll<HTMLLinkElement>('link[rel="stylesheet"]')].filter(
      (link) => link.getAttribute('href') === from,
    );
    if (links.length === 0) location.reload();
    for (const link of links) {
      const next = link.cloneNode() as HTMLLinkElement;
      next.setAttribute('href', to);
      // The old sheet stays until the new one has loaded, so the page never shows unstyled.
      next.addEventListener('load', () => link.remove(), { once: true });
      link.after(next);
    }
  };

  const initial = document.getElementById(overlayId);
  if (initial) attach(initial);
  const initialWarnings = document.getElementById(warningsId);
  if (initialWarnings) hookWarnings(initialWarnings);

  // The page's file tells the server which pages to render first after a change.
  const events = new EventSource(`/__site/events?file=${encodeURIComponent(options.file)}`);
  const on = (name: string, handle: (data: Record<string, unknown>) => void) =>
    events.addEventListener(name, (event) =>
      handle(JSON.parse((event as MessageEvent<string>).data) as Record<string, unknown>),
    );
  // Marks the document while the stream is open (for tests and a glance in the inspector).
  events.addEventListener('error', () => document.documentElement.setAttribute('data-site-dev', 'disconnected'));
  on('state', (data) => {
    document.documentElement.setAttribute('data-site-dev', 'connected');
    if (typeof data.overlay === 'string') show(data.overlay);
    else if (data.build !== build) location.reload();
    else hide();
    showWarnings(data.warnings);
  });
  on('problem', (data) => {
    show(String(data.overlay));
    showWarnings(data.warnings);
  });
  on('fixed', (data) => {
    build = String(data.build);
    hide();
    showWarnings(data.warnings);
  });
  on('reload', (data) => {
    build = String(data.build);
    hide();
    const files = data.files as string[] | null;
    const urls = data.urls as string[];
    if (files === null || files.includes(options.file) || urls.includes(location.pathname)) location.reload();
    else showWarnings(data.warnings);
  });
  on('css', (data) => {
    build = String(data.build);
    hide();
    showWarnings(data.warnings);
    swapStylesheet(String(data.from), String(data.to));
  });
}

/** The script served as /__site/dev-client.js; it reads its options from its own URL. */
export const devClientScript = [
  '// site dev: live reload and the error overlay. Never part of `site build` output.',
  `const params = new URL(import.meta.url).searchParams;`,
  `(${String(runDevClient)})({ build: params.get('build') ?? '', file: params.get('file') ?? '' });`,
  '',
].join('\n');

/** The overlay's styles, served as /__site/dev-client.css (the site's CSP forbids inline styles). */
export const devClientStyles = `
.site-dev-overlay{position:fixed;inset:0;z-index:2147483647;display:flex;align-items:flex-start;justify-content:center;padding:4vh 1rem;overflow:auto;background:rgb(15 20 18 / 0.72);font:16px/1.5 system-ui,sans-serif;color:#1b1f1d}
.site-dev-overlay:focus{outline:none}
.site-dev-overlay:focus-visible .site-dev-panel{outline:3px solid #f2c94c;outline-offset:2px}
.site-dev-panel{width:min(60rem,100%);background:#fff;border-top:6px solid #b3261e;border-radius:8px;padding:1.25rem 1.5rem;box-shadow:0 12px 40px rgb(0 0 0 / 0.35)}
.site-dev-panel h2{margin:0 0 .25rem;font-size:1.25rem;color:#8c1d18}
.site-dev-problems{margin:1rem 0;padding-left:1.25rem}
.site-dev-problem+.site-dev-problem{margin-top:1rem;padding-top:1rem;border-top:1px solid #ddd}
.site-dev-problem p{margin:.25rem 0}
.site-dev-code strong{font-family:ui-monospace,monospace;color:#8c1d18}
.site-dev-location code{font-family:ui-monospace,monospace;background:#f4f4f4;padding:0 .25rem;border-radius:3px}
.site-dev-frame{margin:.5rem 0;padding:.75rem;overflow:auto;background:#1b1f1d;color:#f4f4f4;border-radius:6px;font:13px/1.45 ui-monospace,monospace}
.site-dev-hint{color:#3d4541}
.site-dev-dismiss{font:inherit;padding:.4rem 1rem;border:2px solid #1b1f1d;border-radius:6px;background:#fff;color:#1b1f1d;cursor:pointer}
.site-dev-dismiss:focus-visible{outline:3px solid #0f5132;outline-offset:2px}
.site-dev-warnings{position:fixed;right:1rem;bottom:1rem;z-index:2147483646;width:min(40rem,calc(100% - 2rem));max-height:60vh;overflow:auto;background:#fff;border-left:6px solid #b7791f;border-radius:8px;padding:.5rem 1rem;box-shadow:0 6px 24px rgb(0 0 0 / 0.3);font:14px/1.45 system-ui,sans-serif;color:#1b1f1d}
.site-dev-warnings summary{cursor:pointer;font-weight:600;color:#7a4d0b}
.site-dev-warnings .site-dev-code strong{color:#7a4d0b}
.site-dev-warnings .site-dev-dismiss{margin-top:.5rem;font-size:.875rem;padding:.2rem .75rem}
.site-dev-waiting{max-width:40rem;margin:10vh auto;padding:0 1rem;font:16px/1.5 system-ui,sans-serif}
`.trimStart();
