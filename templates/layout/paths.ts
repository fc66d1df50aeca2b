/** Where a page's audience lives, for links that stay inside the audience's section. */
import type { Page, SiteContext } from 'typed-site/template';

/** The audience's route path ("/hub"), or "" on pages without an audience. */
export function audienceBase(page: Page, site: SiteContext): string {
  return page.audience ? site.config.audiences[page.audience]!.path : '';
}
