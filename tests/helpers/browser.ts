/** Debian's Chromium through playwright-core, with the flags this closed network needs. */
import { chromium, type Browser } from 'playwright-core';

/** The Chromium binary: CHROMIUM_PATH, or Debian's /usr/bin/chromium. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Launches headless Chromium. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}
