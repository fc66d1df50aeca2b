/**
 * A config that asks only for what a site uses (issue 28): `site`, `locales` and `routes` build a
 * site whose pages carry no audience or menu script and no Organization JSON-LD; plans in any
 * currency and period render with Intl; company social links are any named links; an unknown
 * currency is a positioned error with a hint.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load';
import { collectSiteErrors } from '../../src/errors';
import { menuScript } from '../../src/render/head';
import { repoRoot } from '../helpers/paths';

const run = promisify(execFile);

/** Runs the CLI in `cwd`: its exit code and output. */
function site(cwd: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return run('node', [join(repoRoot, 'bin', 'site.js'), ...args], { cwd }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({
      code: error.code,
      stdout: error.stdout,
      stderr: error.stderr,
    }),
  );
}

const minimalConfig = `site: { name: Tiny, origin: https://tiny-site.org }
locales:
  en: { label: English, short: EN, prefix: "", hreflang: en, htmlLang: en, ogLocale: en_GB, intl: en-GB }
routes:
  - { path: /, template: Home, content: home }
`;

const layout = `import type { LayoutProps } from 'typed-site/template';
export default function Layout({ children }: LayoutProps) {
  return <main>{children}</main>;
}
`;

const home = `import { z } from 'zod';
import type { PageProps } from 'typed-site/template';
export const content = z.strictObject({ title: z.string(), description: z.string() });
export default function Home({ content, site }: PageProps<{ title: string; description: string }>) {
  return (
    <>
      <h1>{content.title}</h1>
      <ul>
        {site.config.plans.map((plan) => (
          <li key={plan.id} className="price">
            {plan.price === 'on-request' ? 'on request' : \`\${site.formatPrice(plan.price).amount} \${site.formatPrice(plan.price).period}\`}
          </li>
        ))}
      </ul>
    </>
  );
}
`;

// Every site has a 404 page (src/routes/pages.ts), so it needs this one template besides its own.
const notFound = `import type { PageMeta } from 'typed-site/template';
export function meta(): PageMeta { return { title: 'Not found', description: 'No page here.' }; }
export default function NotFound() { return <h1>Not found</h1>; }
`;

/** Writes a tiny site into a new folder: the config given, a layout, one page template and its copy. */
async function writeTinySite(
  config: string,
  messages = 'pricing:\n  perMonth: per month\n  perYear: per year\n',
): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'site-minimal-'));
  await mkdir(join(root, 'templates', 'layout'), { recursive: true });
  await mkdir(join(root, 'templates', 'pages'), { recursive: true });
  await mkdir(join(root, 'templates', 'styles'), { recursive: true });
  await mkdir(join(root, 'content', 'pages', 'home'), { recursive: true });
  await mkdir(join(root, 'content', 'messages'), { recursive: true });
  await mkdir(join(root, 'public'), { recursive: true });
  await writeFile(join(root, 'site.config.yaml'), config);
  await writeFile(join(root, 'templates', 'layout', 'Layout.tsx'), layout);
  await writeFile(join(root, 'templates', 'pages', 'Home.tsx'), home);
  await writeFile(join(root, 'templates', 'pages', 'NotFound.tsx'), notFound);
  await writeFile(join(root, 'templates', 'styles', 'main.css'), 'body { margin: 0; }\n');
  await writeFile(join(root, 'content', 'pages', 'home', 'en.yaml'), 'title: Welcome\ndescription: A tiny site.\n');
  await writeFile(join(root, 'content', 'messages', 'en.yaml'), messages);
  return root;
}

describe('a site whose config is only site, locales and routes', () => {
  let root: string;
  let built: { code: number; stdout: string; stderr: string };
  let html: string;

  beforeAll(async () => {
    root = await writeTinySite(minimalConfig);
    built = await site(root, 'build', '--no-social-images');
    html = await readFile(join(root, 'dist', 'index.html'), 'utf8').catch(() => '');
  }, 120_000);
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('builds, and passes site check', async () => {
    expect(built.stderr).not.toMatch(/error/i);
    expect(built.code).toBe(0);
    expect(html).toContain('<h1>Welcome</h1>');
    const checked = await site(root, 'check');
    expect(checked.stderr).not.toMatch(/error/i);
    expect(checked.code).toBe(0);
  }, 120_000);

  it('gives its pages no audience handling, no menu script and no Organization JSON-LD', () => {
    expect(html).toContain("s.setItem('preferredLanguage'");
    expect(html).not.toContain('preferredAudience');
    expect(html).not.toContain('data-audience');
    expect(html).not.toContain(menuScript);
    expect(html).not.toContain('data-menu-toggle');
    expect(html).not.toContain('"@type":"Organization"');
    expect(html).not.toContain('taxID');
  });
});

describe('plans, company and their checks', () => {
  const config = (extra: string) => parseConfig(minimalConfig + extra, 'site.config.yaml', repoRoot);
  const errorsOf = (extra: string) => {
    try {
      config(extra);
      return [];
    } catch (error) {
      return collectSiteErrors(error) ?? [];
    }
  };

  it('renders a price in NOK per year with Intl.NumberFormat and the per-year message', async () => {
    const root = await writeTinySite(
      `${minimalConfig}plans:\n  - { id: team, name: { en: Team }, price: { amount: 1200, currency: NOK, period: year } }\n`,
    );
    try {
      const result = await site(root, 'build', '--no-social-images');
      expect(result.code).toBe(0);
      const page = await readFile(join(root, 'dist', 'index.html'), 'utf8');
      const amount = new Intl.NumberFormat('en-GB', {
        style: 'currency',
        currency: 'NOK',
        maximumFractionDigits: 0,
      }).format(1200);
      expect(page).toContain(`<li class="price">${amount} per year</li>`);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  }, 120_000);

  it('accepts any named social links, without an org number or opening hours', () => {
    const loaded = config(
      'company:\n  legalName: Tiny AS\n  address: { street: Gate 1, postalCode: "0150", city: Oslo, country: "NO" }\n  email: hi@tiny.no\n  social: { mastodon: "https://mastodon.social/@tiny", github: "https://github.com/tiny" }\n',
    );
    expect(loaded.company?.social).toEqual({
      mastodon: 'https://mastodon.social/@tiny',
      github: 'https://github.com/tiny',
    });
    expect(loaded.company?.orgNumber).toBeUndefined();
  });

  it('refuses an unknown currency at its line, with an example in the hint', () => {
    const extra =
      'plans:\n  - id: team\n    name: { en: Team }\n    price: { amount: 5, currency: XYZ, period: month }\n';
    const errors = errorsOf(extra);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({
      code: 'CONFIG_INVALID',
      field: 'plans[0].price.currency',
      file: 'site.config.yaml',
      line: (minimalConfig + extra).split('\n').findIndex((line) => line.includes('XYZ')) + 1,
    });
    expect(errors[0]!.message).toContain('"XYZ"');
    expect(errors[0]!.hint).toContain('currency: EUR');
  });

  it('refuses an audience whose contactType is not one of contact.types, naming the known ones', () => {
    const extra =
      'contact: { types: [customer, other] }\naudiences:\n  pros: { path: /pros, label: { en: Pros }, contactType: partner }\n';
    const [error] = errorsOf(extra);
    expect(error).toMatchObject({
      field: 'audiences.pros.contactType',
      line: (minimalConfig + extra).split('\n').findIndex((line) => line.includes('contactType: partner')) + 1,
    });
    expect(error!.hint).toContain('customer, other');
  });

  it('asks for company.openingHours only when the built-in booking is used', () => {
    expect(errorsOf('booking: { url: "https://cal.example/tiny" }\n')).toEqual([]);
    const [error] = errorsOf('booking: { minutes: 30 }\n');
    expect(error).toMatchObject({ field: 'booking' });
    expect(error!.message).toContain('built-in booking needs company.openingHours');
  });
});
