/**
 * The admin's own navigation, above each admin page: a link to every admin page, named by the
 * page's title, the current one marked. The landmark's name is the page copy's `nav`. The pages
 * only administrators may use are marked `data-role="admin"` (the settings not when the site has
 * review on: editors propose them there); once the session says the reader is
 * an editor (admin-client.ts marks `<html data-admin-role>`), admin.css hides them.
 */
import type { PageProps } from 'typed-site/template';

/** The admin pages, in the order the navigation lists them (the routes the engine adds: admin-pages.ts). */
export const adminPages = [
  '/admin/blog',
  '/admin/media',
  '/admin/pages',
  '/admin/visual',
  '/admin/inbox',
  '/admin/changes',
  '/admin/settings',
] as const;

/** The pages whose API answers administrators only (inbox-api.ts, changes-api.ts, settings-api.ts). */
const administratorsOnly: ReadonlySet<string> = new Set(['/admin/inbox', '/admin/changes', '/admin/settings']);

export function AdminNav({ page, site, label }: Pick<PageProps, 'page' | 'site'> & { label: string }) {
  /** With review on (`admin.review`), editors propose settings: the page is theirs too. */
  const editorsPropose = (path: string) => path === '/admin/settings' && site.config.admin.review;
  return (
    <nav className="admin-nav" aria-label={label}>
      <ul>
        {adminPages.map((path) => {
          const url = site.href(path);
          return (
            <li key={path} data-role={administratorsOnly.has(path) && !editorsPropose(path) ? 'admin' : undefined}>
              <a href={url} aria-current={url === page.url ? 'page' : undefined}>
                {site.nameOf(url)}
              </a>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
