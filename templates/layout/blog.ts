/** Blog helpers shared by the blog templates. */
import type { SiteContext } from 'site/template';

/** The URL of the RSS feed of the page's language ("/rss.xml", "/no/rss.xml"). */
export function feedUrl(site: SiteContext): string {
  const home = site.href('/');
  return `${home}rss.xml`;
}
