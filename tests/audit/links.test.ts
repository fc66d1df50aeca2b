import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { builtSite } from '../helpers/paths';
import { readPages } from '../helpers/site-files';

const origin = 'https://mendwise.example';
let pages: { file: string; url: string; html: string }[];

/** True when a static host serves this URL with status 200 (no redirect hop). */
function servedWith200(url: string): boolean {
  const path = decodeURIComponent(url.split(/[?#]/, 1)[0]!);
  const target = join(builtSite, path);
  if (path.endsWith('/')) return existsSync(join(target, 'index.html'));
  return existsSync(target) && statSync(target).isFile();
}

const attributes = (html: string, tag: string, attribute: string) =>
  [...html.matchAll(new RegExp(`<${tag}\\b[^>]*?\\s${attribute}="([^"]*)"[^>]*>`, 'g'))].map((match) =>
    match[1]!.replace(/&amp;/g, '&'),
  );

function alternatesOf(html: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const match of html.matchAll(/<link rel="alternate" hreflang="([^"]+)" href="([^"]+)"/g))
    out.set(match[1]!, match[2]!);
  return out;
}

beforeAll(async () => {
  pages = await readPages(builtSite);
});

describe('links and alternates', () => {
  it('has no broken internal link, script, stylesheet or canonical', () => {
    const broken: string[] = [];
    for (const page of pages) {
      const targets = [
        ...attributes(page.html, 'a', 'href'),
        ...attributes(page.html, 'link', 'href'),
        ...attributes(page.html, 'script', 'src'),
      ];
      for (const target of targets) {
        const local = target.startsWith(origin) ? target.slice(origin.length) : target;
        if (!local.startsWith('/') || local.startsWith('//')) continue;
        // Answered by `site serve`, not files: the contact and booking APIs (the booking's calendar file), the admin sign-in.
        if (local === '/api/contact' || local === '/api/auth' || local.startsWith('/api/booking/')) continue;
        if (!servedWith200(local)) broken.push(`${page.url} → ${target}`);
      }
      for (const fragment of attributes(page.html, 'a', 'href').filter((href) => href.startsWith('#'))) {
        if (fragment !== '#' && !page.html.includes(`id="${fragment.slice(1)}"`))
          broken.push(`${page.url} → ${fragment}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('uses only URLs with the trailing-slash policy in links', () => {
    const offPolicy: string[] = [];
    for (const page of pages) {
      for (const href of attributes(page.html, 'a', 'href')) {
        // The policy is the path's; a query (?plan=free) may follow it.
        const path = href.split('?', 1)[0]!;
        if (path.startsWith('/') && !path.startsWith('//') && !/\/$|\.[a-z]+$|#/.test(path))
          offPolicy.push(`${page.url} → ${href}`);
      }
    }
    expect(offPolicy).toEqual([]);
  });

  it('has reciprocal hreflang clusters that point at existing, self-canonical pages', () => {
    const byUrl = new Map(pages.map((page) => [origin + page.url, page]));
    const problems: string[] = [];
    let pairs = 0;
    for (const page of pages) {
      const alternates = alternatesOf(page.html);
      if (alternates.size === 0) continue;
      const self = origin + page.url;
      const ownLang = [...alternates.entries()].find(([lang, href]) => lang !== 'x-default' && href === self)?.[0];
      if (!ownLang) problems.push(`${page.url} does not list itself`);
      if (!alternates.has('x-default')) problems.push(`${page.url} has no x-default`);
      for (const [lang, href] of alternates) {
        const target = byUrl.get(href);
        if (!target) {
          problems.push(`${page.url} → ${lang} ${href} does not exist`);
          continue;
        }
        if (!target.html.includes(`<link rel="canonical" href="${href}"`))
          problems.push(`${href} is not self-canonical`);
        if (lang === 'x-default' || href === self) continue;
        pairs++;
        if (alternatesOf(target.html).get(ownLang ?? '') !== self)
          problems.push(`${href} does not link back to ${page.url} as ${ownLang}`);
      }
    }
    expect(problems).toEqual([]);
    expect(pairs).toBeGreaterThan(50);
  });
});
