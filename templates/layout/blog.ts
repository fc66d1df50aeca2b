/** Blog helpers shared by the blog templates. */
import type { Page, PageMeta, SiteContext } from 'typed-site/template';

/** The feed to link from the head of a blog page, when the blog has one. */
export function feedMeta(page: Page, site: SiteContext): PageMeta['feed'] {
  const url = page.collection?.feedUrl;
  return url ? { url, title: `${site.config.site.name} · ${site.t('blog.title')}` } : undefined;
}
