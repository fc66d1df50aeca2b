/** The site footer: address, org number, product, company and legal links, e-mail and social links. */
import type { PageProps } from 'typed-site/template';
import { Logo } from './Logo';
import { companyOf } from './site-facts';

export function Footer({ page, site }: Pick<PageProps, 'page' | 'site'>) {
  const { config, t } = site;
  const company = companyOf(site);
  const audience = page.audience ? config.audiences[page.audience]!.path : '';
  const companyHref = (path: string) => site.href(`${audience}${path}`);
  return (
    <footer className="site-footer">
      <div className="container footer-grid">
        <div className="footer-brand">
          <p className="brand">
            <Logo />
            <span className="brand-name">{config.site.name}</span>
          </p>
          <p>{t('footer.tagline')}</p>
          <address>
            {company.legalName}, {company.address.street}, {company.address.postalCode} {company.address.city}
            <br />
            {company.orgNumber !== undefined && (
              <>
                {t('footer.orgNumber', { number: company.orgNumber })}
                <br />
              </>
            )}
            <a href={`mailto:${company.email}`}>{company.email}</a>
          </address>
        </div>
        <nav aria-labelledby="footer-products">
          <h2 id="footer-products">{t('footer.products')}</h2>
          <ul>
            {Object.entries(config.audiences).map(([id, entry]) => (
              <li key={id}>
                <a href={site.href(entry.path)}>{t(`products.${id}`)}</a>
              </li>
            ))}
          </ul>
        </nav>
        <nav aria-labelledby="footer-company">
          <h2 id="footer-company">{t('footer.company')}</h2>
          <ul>
            <li>
              <a href={companyHref('/ourstory')}>{t('nav.ourStory')}</a>
            </li>
            <li>
              <a href={companyHref('/blog')}>{t('nav.blog')}</a>
            </li>
            <li>
              <a href={companyHref('/contactus')}>{t('nav.contact')}</a>
            </li>
          </ul>
        </nav>
        <nav aria-labelledby="footer-legal">
          <h2 id="footer-legal">{t('footer.legal')}</h2>
          <ul>
            <li>
              <a href={site.href('/privacy')}>{t('footer.privacy')}</a>
            </li>
            <li>
              <a href={site.href('/terms')}>{t('footer.terms')}</a>
            </li>
            {/* Only while analytics: waits for consent (site.consent): shows the banner again. */}
            {site.consent && (
              <li>
                <button type="button" data-consent-open>
                  {t('consent.settings')}
                </button>
              </li>
            )}
          </ul>
        </nav>
        <div>
          <h2>{t('footer.social')}</h2>
          <ul>
            {Object.entries(company.social).map(([name, url]) => (
              <li key={name}>
                <a href={url} rel="noopener">
                  {t(`footer.${name}`)}
                </a>
              </li>
            ))}
          </ul>
        </div>
      </div>
    </footer>
  );
}
