/**
 * The presentation of Mendwise Hub (one page per language), as slides: each section fills the
 * window and the page snaps from one to the next (arrow keys, Page Down and the space bar move a
 * slide, with no script), with drawings of their own beside the title and the feature slides (not
 * the product pages' mock-ups), the plans' limits from the config as big numbers, and a print
 * stylesheet that puts one slide on each page.
 */
import type { PageProps, SiteContext } from 'typed-site/template';
import type { ComponentType } from 'react';
import {
  PresentationInvoiceScene,
  PresentationOrdersScene,
  PresentationSmsScene,
  PresentationTitleScene,
} from '../illustrations';
import { closingSingle, hero, meta, sections, z } from '../layout/schemas';
import { ButtonLink } from '../layout/ui';

export const content = z.strictObject({ ...meta, hero, sections, closing: closingSingle });
type Content = z.infer<typeof content>;

/**
 * The drawing beside each section, by position (the sections of content/pages/hub-presentation
 * follow the product: problem, summary, orders, SMS, analytics and invoicing, …).
 */
const sectionVisuals: readonly (ComponentType<{ site: SiteContext }> | undefined)[] = [
  undefined,
  undefined,
  PresentationOrdersScene,
  PresentationSmsScene,
  PresentationInvoiceScene,
];

export default function Presentation({ content, site }: PageProps<Content>) {
  const { t } = site;
  return (
    <div className="presentation">
      <section className="slide slide-title" aria-labelledby="slide-title">
        <div className="container slide-split">
          <div>
            <p className="eyebrow">{content.hero.eyebrow}</p>
            <h1 id="slide-title">{content.hero.heading}</h1>
            <p className="lead">{content.hero.lead}</p>
          </div>
          <div className="slide-visual">
            <PresentationTitleScene site={site} />
          </div>
        </div>
      </section>
      {content.sections.map((section, index) => {
        const Visual = sectionVisuals[index];
        return (
          <section key={section.heading} className="slide" aria-labelledby={`slide-${index + 1}`}>
            <div className={Visual ? 'container slide-split' : 'container'}>
              <div className="slide-text">
                <p className="slide-number" aria-hidden="true">
                  {String(index + 2).padStart(2, '0')}
                </p>
                <h2 id={`slide-${index + 1}`}>{section.heading}</h2>
                {section.paragraphs.map((paragraph) => (
                  <p key={paragraph}>{paragraph}</p>
                ))}
                {section.points && section.points.length > 0 && (
                  <ul className="checklist">
                    {section.points.map((point) => (
                      <li key={point}>{point}</li>
                    ))}
                  </ul>
                )}
              </div>
              {Visual && (
                <div className="slide-visual">
                  <Visual site={site} />
                </div>
              )}
            </div>
          </section>
        );
      })}
      <section className="slide" aria-labelledby="slide-plans">
        <div className="container">
          <h2 id="slide-plans">{t('pricing.plansHeading')}</h2>
          <ul className="slide-figures">
            {site.config.plans.map((plan) => (
              <li key={plan.id}>
                <span className="slide-figure-name">{plan.name[site.locale]}</span>
                <strong className="slide-figure">
                  {plan.limits.ordersPerMonth === 'unlimited' ? '∞' : plan.limits.ordersPerMonth}
                </strong>
                <span className="slide-figure-unit">
                  {plan.limits.ordersPerMonth === 'unlimited'
                    ? t('pricing.unlimitedOrders')
                    : `${t('roi.units.orders')} ${t('pricing.perMonth')}`}
                </span>
              </li>
            ))}
          </ul>
        </div>
      </section>
      <section className="slide slide-closing" aria-labelledby="slide-closing">
        <div className="container closing">
          <h2 id="slide-closing">{content.closing.heading}</h2>
          <p className="lead">{content.closing.text}</p>
          <div className="actions">
            <ButtonLink href={site.href('/hub/book-meeting')}>{content.closing.primaryCta}</ButtonLink>
          </div>
        </div>
      </section>
    </div>
  );
}
