/**
 * The admin's own navigation, above each admin page: a link to every admin page, named by the
 * page's title, the current one marked. The landmark's name is the page copy's `nav`.
 */
import type { PageProps } from 'typed-site/template';

/** The admin pages, in the order the navigation lists them (the routes the engine adds: admin-pages.ts). */
export const adminPages = [
  '/admin/blog',
  '/admin/media',
  '/admin/pages',
  '/admin/inbox',
  '/admin/changes',
  '/admin/settings',
] as const;

export function AdminNav({ page, site, label }: Pick<PageProps, 'page' | 'site'> & { label: string }) {
  return (
    <nav className="admin-nav" aria-label={label}>
      <ul>
        {adminPages.map((path) => {
          const url = site.href(path);
          return (
            <li key={path}>
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
