/**
 * The repairers' launch campaign: what is new and for whom, with one action (book a meeting).
 * What each plan includes comes from the plan data in site.config.yaml, as on the pricing page:
 * a card that names a `feature` shows the plan it starts in, and the free plan's box lists that
 * plan's limits and features, so the page cannot promise more than pricing gives.
 */
import type { PageProps, SiteContext } from 'typed-site/template';
import { LaunchNote } from '../illustrations/LaunchNote';
import { audienceBase } from '../layout/paths';
import { PlanChecklist, planAction, planWithFeature } from '../layout/PlanFeatures';
import { RoiSection } from '../layout/RoiSection';
import { closingSingle, heroWithCta, meta, text, titledItems, z } from '../layout/schemas';
import { featureIcons, listIcons } from '../layout/audience-look';
import { Icon } from '../layout/Icon';
import { ButtonLink, CardGrid, cardGridClass, Closing, Hero, Section } from '../layout/ui';

const featureId = z
  .string()
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'use a feature id from plans[].features in site.config.yaml');

export const content = z.strictObject({
  ...meta,
  hero: heroWithCta,
  news: z.strictObject({
    heading: text,
    lead: text,
    items: z.array(z.strictObject({ title: text, text, feature: featureId })).min(1),
  }),
  start: z.strictObject({ heading: text, text }),
  roi: z.strictObject({ heading: text, lead: text }),
  steps: z.strictObject({ heading: text, items: titledItems }),
  closing: closingSingle,
});
type Content = z.infer<typeof content>;

/** "In every plan" or "Plus and above": where a feature starts, from the config. */
function availability(site: SiteContext, feature: string): string {
  const plan = planWithFeature(site, feature);
  if (!plan)
    throw new Error(
      `no plan in site.config.yaml has the feature "${feature}" (add it to plans[].features, or change the launch copy)`,
    );
  if (plan === site.config.plans[0]) return site.t('pricing.inEveryPlan');
  return site.t('pricing.fromPlan', { plan: plan.name[site.locale] ?? plan.id });
}

export default function LaunchCampaign({ page, content, site }: PageProps<Content>) {
  const base = audienceBase(page, site);
  const bookMeeting = site.href(`${base}/book-meeting`);
  const freePlan = site.config.plans.find((plan) => plan.price !== 'on-request' && plan.price.amount === 0);
  return (
    <>
      <Hero
        eyebrow={content.hero.eyebrow}
        heading={content.hero.heading}
        lead={content.hero.lead}
        visual={<LaunchNote heading={content.news.heading} items={content.news.items.map((item) => item.title)} />}
      >
        <ButtonLink href={bookMeeting}>{content.hero.primaryCta}</ButtonLink>
      </Hero>
      <Section id="whats-new" heading={content.news.heading} lead={content.news.lead}>
        <ul className={cardGridClass(content.news.items.length)}>
          {content.news.items.map((item) => (
            <li className="card" key={item.feature} data-feature={item.feature}>
              <span className="card-icon">
                <Icon name={featureIcons[item.feature] ?? 'badge-check'} />
              </span>
              <h3>{item.title}</h3>
              <p>{item.text}</p>
              <p className="muted">{availability(site, item.feature)}</p>
            </li>
          ))}
        </ul>
      </Section>
      {freePlan && (
        <Section id="start-free" heading={content.start.heading} tone="muted">
          <div className="launch-start" data-plan={freePlan.id}>
            <p>{content.start.text}</p>
            <p className="plan-includes">
              {site.t('pricing.includes', { plan: freePlan.name[site.locale] ?? freePlan.id })}
            </p>
            <PlanChecklist plan={freePlan} site={site} />
            <div className="actions">
              <ButtonLink href={planAction(freePlan, base, site).href}>
                {planAction(freePlan, base, site).label}
              </ButtonLink>
            </div>
          </div>
        </Section>
      )}
      <RoiSection heading={content.roi.heading} lead={content.roi.lead} site={site} />
      <Section id="steps" heading={content.steps.heading}>
        <CardGrid items={content.steps.items} numbered icons={listIcons.launchSteps} />
      </Section>
      <Closing heading={content.closing.heading} text={content.closing.text}>
        <ButtonLink href={bookMeeting}>{content.closing.primaryCta}</ButtonLink>
      </Closing>
    </>
  );
}
