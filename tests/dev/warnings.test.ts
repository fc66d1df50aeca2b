/**
 * Warnings in `site dev`: a build with warnings (the engine fixture's untranslated entries and
 * .example domains) still serves its pages, and the warnings reach the browser as a panel in the
 * page, in the event stream's state and in /__site/status, next to `ok: true`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { startDevServer, type DevServer } from '../../src/dev/server';
import { repoRoot } from '../helpers/paths';

let dev: DevServer;
beforeAll(async () => {
  dev = await startDevServer({
    config: join(repoRoot, 'tests', 'fixtures', 'engine-site', 'site.config.yaml'),
    port: 0,
    host: '127.0.0.1',
  });
}, 120_000);
afterAll(() => dev?.close());

describe('site dev with warnings', () => {
  it('serves the pages with a warnings panel, and reports ok with the warnings', async () => {
    const status = (await (await fetch(`${dev.url}/__site/status`)).json()) as {
      ok: boolean;
      problems: unknown[];
      warnings: { code: string; location?: string; field?: string; message: string }[];
    };
    expect(status.ok).toBe(true);
    expect(status.problems).toEqual([]);
    expect(status.warnings).toContainEqual(
      expect.objectContaining({
        code: 'CONFIG_PLACEHOLDER',
        location: expect.stringMatching(/^tests\/fixtures\/engine-site\/site\.config\.yaml:\d+:\d+$/),
        field: 'company.email',
      }),
    );
    expect(status.warnings).toContainEqual(
      expect.objectContaining({
        code: 'ENTRY_UNTRANSLATED',
        location: 'tests/fixtures/engine-site/content/news/english-only',
      }),
    );

    const response = await fetch(`${dev.url}/`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).not.toContain('id="site-dev-overlay"');
    const panel = /<aside id="site-dev-warnings"[\s\S]*?<\/aside>/.exec(html)?.[0];
    expect(panel).toContain(`Build succeeded with ${status.warnings.length} warnings`);
    expect(panel).toContain('ENTRY_UNTRANSLATED');
    expect(panel).toContain('news entry &quot;english-only&quot; is not translated into nb, de');
  });

  it('sends the warnings panel in the state event of a new connection', async () => {
    const controller = new AbortController();
    const response = await fetch(`${dev.url}/__site/events`, { signal: controller.signal });
    const reader = response.body!.getReader();
    let text = '';
    while (!/event: state\ndata: .*\n\n/.test(text)) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    controller.abort();
    const data = JSON.parse(/event: state\ndata: (.*)\n\n/.exec(text)![1]!) as {
      overlay: string | null;
      warnings: string | null;
    };
    expect(data.overlay).toBeNull();
    expect(data.warnings).toContain('CONFIG_PLACEHOLDER');
  });

  it('reports the warnings of inputs kept from the last build again after a change elsewhere', async () => {
    const outcome = await dev.builder.rebuild([
      { path: join(repoRoot, 'tests', 'fixtures', 'engine-site', 'content', 'messages', 'en.yaml') },
    ]);
    expect(outcome.ok).toBe(true);
    // The config was not loaded again, and its placeholders are still reported; so is the untranslated entry.
    expect(outcome.reloaded).not.toContain('config');
    expect(outcome.warnings.map((warning) => warning.code)).toContain('CONFIG_PLACEHOLDER');
    expect(outcome.warnings.map((warning) => warning.code)).toContain('ENTRY_UNTRANSLATED');
  });
});
