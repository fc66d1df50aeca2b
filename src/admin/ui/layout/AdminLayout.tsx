/**
 * The layout of the admin's screens, instead of the site's (its header and footer belong to the
 * site's design): a skip link, a bar with the site's name and a link back to it, and the main
 * content. It loads the admin's stylesheet after the site's (see admin.css for the variables of
 * the site's it reads); everything sits inside `.admin-ui`, which scopes those styles.
 */
import type { LayoutProps, PageMeta, PageProps } from 'typed-site/template';

/** The copy the layout shows (every admin screen's copy has it). */
interface LayoutCopy {
  title: string;
  description: string;
  skipToContent: string;
  backToSite: string;
}

/** The head of an admin screen: title and description of its copy, and the admin's stylesheet. */
export function adminMeta({ content, site }: PageProps<LayoutCopy>): PageMeta {
  return {
    title: content.title,
    description: content.description,
    ...(site.assets.admin ? { stylesheets: [site.assets.admin] } : {}),
  };
}

/** The screens show no breadcrumb trail (they have their own navigation), so their JSON-LD has none. */
export const adminBreadcrumbs = false;

export default function AdminLayout({ content, site, children }: LayoutProps) {
  const copy = content as unknown as LayoutCopy;
  return (
    <div className="admin-ui" data-intl={site.config.locales[site.locale]!.intl}>
      <a className="admin-skip-link" href="#main">
        {copy.skipToContent}
      </a>
      <header className="admin-header">
        <p className="admin-site-name">{site.config.site.name}</p>
        <a href={site.href('/')}>{copy.backToSite}</a>
      </header>
      <main id="main" tabIndex={-1} className="admin-main">
        {children}
      </main>
    </div>
  );
}
