/** The site header: logo, audience pills, navigation, search box, language switch and the mobile menu. */
import { navigationRoutePath, type PageProps } from 'typed-site/template';
import { Logo } from './Logo';

export function Header({ page, site }: Pick<PageProps, 'page' | 'site'>) {
  const { config, t } = site;
  const audience = page.audience ? config.audiences[page.audience] : undefined;
  const navigation = config.navigation.map((item) => {
    const routePath = audience ? navigationRoutePath(item.path, audience.path) : item.fallback;
    return { label: t(`nav.${item.label}`), path: item.path, href: routePath ? site.href(routePath) : undefined };
  });
  const audiences = Object.entries(config.audiences).map(([id, entry]) => ({
    id,
    label: entry.label[site.locale]!,
    href: site.href(entry.path),
    active: id === page.audience,
  }));
  const home = site.href('/');

  return (
    <header className="site-header">
      <div className="container header-bar">
        <a className="brand" href={home} aria-label={t('header.homeLink')}>
          <Logo />
          <span className="brand-name">{config.site.name}</span>
        </a>
        <nav className="audience-pills" aria-label={t('header.audiences')}>
          <ul>
            {audiences.map((item) => (
              <li key={item.id}>
                <a
                  className={item.active ? 'pill is-active' : 'pill'}
                  href={item.href}
                  aria-current={item.active ? (page.url === item.href ? 'page' : 'true') : undefined}
                >
                  {item.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <button type="button" className="menu-toggle" data-menu-toggle aria-expanded="false" aria-controls="site-menu">
          <span className="menu-icon" aria-hidden="true" />
          <span className="menu-label-closed">{t('header.menu')}</span>
          <span className="menu-label-open">{t('header.closeMenu')}</span>
        </button>
        <div className="site-menu" id="site-menu">
          <nav className="main-nav" aria-label={t('header.mainNavigation')}>
            <ul>
              {navigation.map((item) => (
                <li key={item.label}>
                  {item.href ? (
                    <a
                      className="nav-link"
                      href={item.href}
                      aria-current={isCurrent(page.url, item.href) ? 'page' : undefined}
                    >
                      {item.label}
                    </a>
                  ) : (
                    <AudienceChoice
                      label={item.label}
                      path={item.path}
                      remember={page.template !== 'Landing'}
                      site={site}
                    />
                  )}
                </li>
              ))}
            </ul>
          </nav>
          <nav className="menu-audiences" aria-label={t('header.audiencesMenu')}>
            <ul>
              {audiences.map((item) => (
                <li key={item.id}>
                  <a
                    className={item.active ? 'nav-link is-active' : 'nav-link'}
                    href={item.href}
                    aria-current={item.active ? (page.url === item.href ? 'page' : 'true') : undefined}
                  >
                    {item.label}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
          {config.search.enabled && (
            <form className="header-search" role="search" method="get" action={site.href(config.search.path)}>
              <input type="search" name="q" aria-label={t('header.search')} placeholder={t('header.search')} />
              <button type="submit">
                <svg
                  className="header-search-icon"
                  viewBox="0 0 24 24"
                  width="20"
                  height="20"
                  aria-hidden="true"
                  focusable="false"
                >
                  <circle cx="10.5" cy="10.5" r="6.5" fill="none" stroke="currentColor" strokeWidth="2" />
                  <path d="M15.5 15.5 21 21" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
                </svg>
                <span className="header-search-text">{t('header.searchSubmit')}</span>
              </button>
            </form>
          )}
          <LanguageSwitch page={page} site={site} />
        </div>
      </div>
    </header>
  );
}

/**
 * A navigation item that needs an audience, on a page without one: greyed, and a disclosure (works
 * by touch, keyboard and without script) that says why and offers the item for each audience.
 * With `remember`, the language script swaps it for the link of the visitor's last audience, when
 * one is stored (`data-remember`; not on the landing page, where the visitor is choosing).
 */
function AudienceChoice({
  label,
  path,
  remember,
  site,
}: {
  label: string;
  path: string;
  remember: boolean;
  site: PageProps['site'];
}) {
  return (
    <details className="nav-choice" data-remember={remember ? '' : undefined}>
      <summary className="nav-link is-disabled">{label}</summary>
      <div className="nav-choice-panel">
        <p>{site.t('nav.unavailable')}</p>
        <ul>
          {Object.entries(site.config.audiences).map(([id, entry]) => (
            <li key={id}>
              <a className="nav-choice-link" href={site.href(navigationRoutePath(path, entry.path))} data-audience={id}>
                {entry.label[site.locale]}
              </a>
            </li>
          ))}
        </ul>
      </div>
    </details>
  );
}

/** The current page is the nav target itself, or a page below it (a blog post under the blog). */
function isCurrent(url: string, href: string): boolean {
  return url === href || (href.split('/').length > 3 && url.startsWith(href));
}

/**
 * EN / NO links to the page's counterpart (or the other language's home when it has none). On a
 * 404 page the current language is not a link: its "counterpart" is the 404 file itself.
 */
function LanguageSwitch({ page, site }: Pick<PageProps, 'page' | 'site'>) {
  const { config, t } = site;
  return (
    <div className="language-switch" role="group" aria-label={t('header.language')}>
      {page.languageLinks.map((link) => {
        const locale = config.locales[link.locale]!;
        const label = (
          <>
            <span className="language-short">{locale.short}</span>
            <span className="language-long"> {locale.label}</span>
          </>
        );
        if (link.current && page.notFound) {
          return (
            <span
              key={link.locale}
              className="language is-current"
              lang={locale.htmlLang}
              aria-current="true"
              data-locale={link.locale}
            >
              {label}
            </span>
          );
        }
        return (
          <a
            key={link.locale}
            className={link.current ? 'language is-current' : 'language'}
            href={link.url}
            hrefLang={locale.htmlLang}
            lang={locale.htmlLang}
            aria-current={link.current ? 'true' : undefined}
            data-locale={link.locale}
          >
            {label}
          </a>
        );
      })}
    </div>
  );
}
