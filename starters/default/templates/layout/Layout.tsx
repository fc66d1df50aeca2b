/** Every page's frame: a skip link, the header with the menu and languages, the page, the footer. */
import type { LayoutProps } from 'typed-site/template';

export default function Layout({ page, site, children }: LayoutProps) {
  const links = [
    { path: '/', label: site.t('nav.home') },
    { path: '/blog', label: site.t('nav.blog') },
    { path: '/about', label: site.t('nav.about') },
    { path: '/contact', label: site.t('nav.contact') },
    // The booking page (templates/pages/Book.tsx), while the config offers meetings.
    ...(site.config.booking ? [{ path: '/book', label: site.t('nav.book') }] : []),
  ];
  const languages = page.languageLinks.length > 1 ? page.languageLinks : [];
  return (
    <>
      <a className="skip" href="#main">
        {site.t('nav.skip')}
      </a>
      <header className="header">
        <div className="container header-inner">
          <a className="brand" href={site.href('/')}>
            {site.config.site.name}
          </a>
          <nav className="menu" aria-label={site.t('nav.main')}>
            {links.map((link) => {
              const url = site.href(link.path);
              const current = page.url === url || (link.path !== '/' && page.url.startsWith(url));
              return (
                <a key={link.path} href={url} aria-current={current ? 'page' : undefined}>
                  {link.label}
                </a>
              );
            })}
          </nav>
          {languages.length > 0 && (
            <nav className="languages" aria-label={site.t('nav.languages')}>
              {languages.map((link) => (
                <a
                  key={link.locale}
                  href={link.url}
                  hrefLang={site.config.locales[link.locale]!.hreflang}
                  lang={site.config.locales[link.locale]!.htmlLang}
                  aria-current={link.current ? 'true' : undefined}
                >
                  {site.config.locales[link.locale]!.short}
                </a>
              ))}
            </nav>
          )}
        </div>
      </header>
      <main id="main" className="container main">
        {children}
      </main>
      <footer className="footer">
        <div className="container">
          <p>
            © {site.config.site.name} · {site.t('footer.madeWith')}
          </p>
        </div>
      </footer>
    </>
  );
}
