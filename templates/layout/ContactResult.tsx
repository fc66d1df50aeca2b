/** The page a contact form sent without JavaScript lands on. */
import type { PageMeta, SiteContext } from 'typed-site/template';

export function ContactResult({ site, outcome }: { site: SiteContext; outcome: 'success' | 'error' }) {
  return (
    <div className="container narrow" role="status">
      <div className={`banner banner-${outcome}`}>
        <h1 className="banner-title">{site.t(`contactForm.${outcome}Title`)}</h1>
        <p>{site.t(`contactForm.${outcome}Text`)}</p>
      </div>
      <a className="button button-secondary" href={site.href('/contactus')}>
        {site.t('contactForm.backToForm')}
      </a>
    </div>
  );
}

/** Title and description of a result page. */
export function contactResultMeta(site: SiteContext, outcome: 'success' | 'error'): PageMeta {
  return { title: site.t(`contactForm.${outcome}Title`), description: site.t(`contactForm.${outcome}Text`) };
}
