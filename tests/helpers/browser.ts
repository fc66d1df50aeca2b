/**
 * The Chromium the browser tests drive through playwright-core, with the flags this closed network
 * needs. It is found, in order, at CHROMIUM_PATH, where Playwright downloads its own, or where
 * Debian and the Chrome packages install theirs; without one, `npm test` stops at once with one
 * line that says how to install it (see global-setup.ts).
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Places a system browser lives, in order of preference. */
export const systemBrowsers = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
];

/** What the search may look at (tests pass their own). */
export interface BrowserSearch {
  env: Record<string, string | undefined>;
  exists(path: string): boolean;
  /** Where Playwright's own download of Chromium would be, when it knows. */
  playwrightPath?: string;
}

function playwrightChromium(): string | undefined {
  try {
    return chromium.executablePath();
  } catch {
    return undefined;
  }
}

/** The Chromium to use, or why there is none (one line, with the command that installs one). */
export function findChromium(
  search: BrowserSearch = { env: process.env, exists: existsSync, playwrightPath: playwrightChromium() },
): { path: string } | { problem: string } {
  const chosen = search.env.CHROMIUM_PATH;
  if (chosen)
    return search.exists(chosen)
      ? { path: chosen }
      : {
          problem: `CHROMIUM_PATH is set to ${chosen}, which does not exist: point it at a Chromium or Chrome binary, or unset it.`,
        };
  const found = [search.playwrightPath, ...systemBrowsers].find(
    (path): path is string => Boolean(path) && search.exists(path!),
  );
  if (found) return { path: found };
  return {
    problem:
      'npm test needs Chromium for its browser tests and found none: install it with `sudo apt-get install -y chromium` (Debian/Ubuntu), or set CHROMIUM_PATH to a Chromium or Chrome binary.',
  };
}

let located: string | undefined;

/** The binary the tests launch (found once per process). */
export function chromiumPath(): string {
  if (located) return located;
  const found = findChromium();
  if ('problem' in found) throw new Error(found.problem);
  located = found.path;
  return located;
}

/** Launches headless Chromium. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
