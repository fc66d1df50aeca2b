/** Hub pricing: the plans from site.config.yaml (limits and cumulative features), the '100 tickets' add-on, the ROI calculator and an FAQ. */
import { faqPage, softwareApplication, type PageProps } from 'typed-site/template';
import { audienceBase } from '../layout/paths';
import { closing, faq, hero, meta, text, z } from '../layout/schemas';
import { ButtonLink, cardGridClass, Closing, Faq, Hero, Section } from '../layout/ui';
import { RoiSection } from '../layout/RoiSection';
import { PlanIncludes, planAction } from '../layout/PlanFeatures';

const planCopy = z.strictObject({ tagline: text });
export const content = z.strictObject({
  ...meta,
  hero,
  plans: z.record(z.string(), planCopy),
  addon: z.strictObject({ heading: text, text }),
  roi: z.strictObject({ heading: text, lead: text }),
  faq,
  closing,
});
type Content = z.infer<typeof content>;

export default function PlanPricing({ page, content, site }: PageProps<Content>) {
  const { t, config } = site;
  const base = audienceBase(page, site);
  return (
    <>
      <Hero eyebrow={content.hero.eyebrow} heading={content.hero.heading} lead={content.hero.lead} />
      <Section id="plans" heading={t('pricing.plansHeading')}>
        <ul className={`plans ${cardGridClass(config.plans.length)}`}>
          {config.plans.map((plan) => {
            const copy = content.plans[plan.id];
            if (!copy)
              throw new Error(`content has no copy for plan "${plan.id}" (add plans.${plan.id} to the pricing copy)`);
            const action = planAction(plan, base, site);
            return (
              <li key={plan.id} className={plan.highlighted ? 'plan is-highlighted' : 'plan'}>
                {plan.highlighted && <p className="plan-badge">{t('pricing.popular')}</p>}
                <h3>{plan.name[site.locale]}</h3>
                <p className={plan.price === 'on-request' ? 'plan-price is-on-request' : 'plan-price'}>
                  {plan.price === 'on-request' ? (
                    <>
                      <strong>{t('pricing.onRequest')}</strong>
                      <span className="plan-offer">{t('pricing.onRequestOffer')}</span>
                    </>
                  ) : (
                    <>
                      <strong>{site.formatPrice(plan.price).amount}</strong> {site.formatPrice(plan.price).period}
                    </>
                  )}
                </p>
                <p className="plan-tagline">{copy.tagline}</p>
                <PlanIncludes plan={plan} site={site} />
                <ButtonLink href={action.href} variant={plan.highlighted ? 'primary' : 'secondary'}>
                  {action.label}
                </ButtonLink>
              </li>
            );
          })}
        </ul>
        <div className="addon">
          <p className="eyebrow">{t('pricing.addonLabel')}</p>
          <h3>{content.addon.heading}</h3>
          <p>{content.addon.text}</p>
        </div>
      </Section>
      <RoiSection heading={content.roi.heading} lead={content.roi.lead} site={site} />
      <Faq heading={content.faq.heading} items={content.faq.items} />
      <Closing heading={content.closing.heading} text={content.closing.text}>
        <ButtonLink href={site.href(`${base}/book-meeting`)}>{content.closing.primaryCta}</ButtonLink>
        <ButtonLink href={site.href(`${base}/contactus`)} variant="secondary">
          {content.closing.secondaryCta}
        </ButtonLink>
      </Closing>
    </>
  );
}

export function structuredData({ page, content, site }: PageProps<Content>) {
  const url = site.config.site.origin + page.url;
  return [
    softwareApplication(site.config, {
      name: site.t(`products.${page.audience ?? 'hub'}`),
      description: content.description,
      url,
      locale: site.locale,
    }),
    faqPage(content.faq.items),
  ];
}
