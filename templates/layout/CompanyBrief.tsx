/**
 * Our story's card "Mendwise in brief": why, where, what, now and what it believes, from what the
 * site knows (the company block of the config, the products, the page's claim and values), so it
 * names no person, customer or figure the site does not. The audience's own product comes first.
 */
import type { SiteContext } from 'typed-site/template';

export function CompanyBrief(props: {
  site: SiteContext;
  audience: string | undefined;
  figure: string;
  beliefs: readonly string[];
}) {
  const { site } = props;
  const t = (key: string, values?: Record<string, string>) => site.t(`story.brief.${key}`, values);
  const { company } = site.config;
  const products = Object.keys(site.config.audiences).sort((a, b) =>
    a === props.audience ? -1 : b === props.audience ? 1 : 0,
  );
  const country = company?.address.country
    ? (new Intl.DisplayNames([site.config.locales[site.locale]!.intl], { type: 'region' }).of(
        company.address.country,
      ) ?? company.address.country)
    : '';
  return (
    <aside className="company-brief" aria-labelledby="company-brief-heading">
      <h2 id="company-brief-heading">{t('heading')}</h2>
      <dl>
        <div>
          <dt>{t('why')}</dt>
          <dd>{t('whyText', { figure: props.figure })}</dd>
        </div>
        {company && (
          <div>
            <dt>{t('where')}</dt>
            <dd>{t('whereText', { legalName: company.legalName, city: company.address.city, country })}</dd>
          </div>
        )}
        <div>
          <dt>{t('what')}</dt>
          <dd>
            <ul>
              {products.map((id) => (
                <li key={id}>{t(`products.${id}`)}</li>
              ))}
            </ul>
          </dd>
        </div>
        <div>
          <dt>{t('now')}</dt>
          <dd>{t('nowText')}</dd>
        </div>
        <div>
          <dt>{t('believe')}</dt>
          <dd>{props.beliefs.join(' · ')}</dd>
        </div>
      </dl>
    </aside>
  );
}
