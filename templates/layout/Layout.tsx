/** The page layout: skip link, header, breadcrumb, main content and footer. */
import type { LayoutProps } from 'typed-site/template';
import { Footer } from './Footer';
import { Header } from './Header';

// The shape of the config's `data:` block: the engine checks it against this before rendering.
export { siteData as data } from './schemas';

export default function Layout({ page, site, children }: LayoutProps) {
  // A trail of one ("Home" above a level-1 page) says nothing the logo does not.
  const trail = page.ancestors.length > 1 && !page.notFound ? page.ancestors : [];
  return (
    <>
      <a className="skip-link" href="#main">
        {site.t('skipToContent')}
      </a>
      <Header page={page} site={site} />
      {trail.length > 0 && (
        <nav className="breadcrumb container" aria-label={site.t('breadcrumb.label')}>
          <ol>
            {trail.map((url) => (
              <li key={url}>
                <a href={url}>{site.nameOf(url)}</a>
              </li>
            ))}
          </ol>
        </nav>
      )}
      <main id="main" tabIndex={-1}>
        {children}
      </main>
      <Footer page={page} site={site} />
    </>
  );
}
