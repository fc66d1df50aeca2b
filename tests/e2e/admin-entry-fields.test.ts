/**
 * The entry form follows the field types (issue 48), in Chromium with `site serve --admin`: a
 * team member's list of links is a repeater (an item added, filled and saved; the file holds it),
 * its object and image fields are groups of their parts (the image with the media library's chooser), its select is named from the messages,
 * and a case study's `lead` is a picker of the team's members by name. axe finds nothing.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLiveSite, type LiveSite } from '../../src/admin/live-site';
import { buildSite } from '../../src/build';
import { writeSite } from '../../src/emit/write';
import { axeViolations } from '../helpers/axe';
import { launchBrowser } from '../helpers/browser';
import { startAdminServer } from '../helpers/admin-server';
import type { TempSite } from '../helpers/fixture-site';
import { createTeamSite } from '../helpers/team-site';
import { signInWithPassword } from './support';

const editor = { email: 'editor@example.com', role: 'editor' as const, password: 'editor password 1' };

describe('the entry form of list, object, image, select and reference fields', () => {
  let site: TempSite;
  let live: LiveSite;
  let server: Awaited<ReturnType<typeof startAdminServer>>;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    site = await createTeamSite();
    const dist = join(site.dir, 'dist');
    await writeSite(dist, (await buildSite({ config: site.config, socialImages: false })).files);
    live = createLiveSite({ config: site.config, dir: dist });
    await live.start();
    server = await startAdminServer({
      users: [editor],
      configPath: site.config,
      projectRoot: site.dir,
      dir: dist,
      site: live,
    });
    browser = await launchBrowser();
    const context = await browser.newContext({ locale: 'en-US', bypassCSP: true });
    context.setDefaultTimeout(15_000);
    page = await context.newPage();
    page.on('pageerror', (error) => problems.push(error.message));
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await live?.dispose();
    await site?.cleanup();
  });

  it("adds a link to a member's repeater and saves it into the file", async () => {
    await signInWithPassword(page, `${server.url}/admin/blog/`, editor);
    await page.getByLabel('Collection').selectOption('team');
    await page
      .getByRole('button', { name: /^Edit: Ada Lovelace/ })
      .first()
      .click();
    await page.getByLabel('Title *').waitFor();
    expect(await page.getByLabel('Role *').locator('option').allTextContents()).toEqual(['—', 'Repairs', 'Sales']);
    expect(await page.getByLabel('Role *').inputValue()).toBe('repair');
    const photo = page.getByRole('group', { name: 'Photo *' });
    expect(await photo.getByLabel('Src *').inputValue()).toBe('ada.png');
    expect(await photo.getByLabel('Alt *').inputValue()).toBe('Ada at the workbench');
    // Beside the file name, the media library's chooser, as beside the cover image.
    expect(await photo.getByRole('button', { name: 'Choose from the library…' }).count()).toBe(1);
    expect(await page.getByRole('group', { name: 'Address *' }).getByLabel('City *').inputValue()).toBe('Oslo');
    const skills = page.getByRole('group', { name: 'Skills *' });
    expect(
      await skills
        .getByRole('textbox')
        .evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value)),
    ).toEqual(['sewing', 'zips']);

    const links = page.getByRole('group', { name: 'Links' });
    await links.getByRole('button', { name: 'Add an item' }).click();
    await links.getByLabel('Label *').nth(1).fill('Workshop');
    await links.getByLabel('Url *').nth(1).fill('https://example.org/workshop');
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    const text = await readFile(join(site.dir, 'content', 'team', 'ada', 'en.md'), 'utf8');
    expect(text).toMatch(/label: Workshop\s+url: https:\/\/example\.org\/workshop/);
    expect(text).toContain('photo: { src: ada.png, alt: "Ada at the workbench" }');
    expect(problems).toEqual([]);
  });

  it("offers a case study's lead as a choice of the team's members by name", async () => {
    await page.goto(`${server.url}/admin/blog/?collection=cases`);
    await page
      .getByRole('button', { name: /^Edit: A bike shop/ })
      .first()
      .click();
    const lead = page.getByLabel('Lead');
    await lead.waitFor();
    expect(await lead.locator('option').allTextContents()).toEqual(['—', 'Ada Lovelace']);
    expect(await lead.inputValue()).toBe('ada');
  });
});
