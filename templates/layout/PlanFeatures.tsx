/**
 * What each Hub plan includes, from the plan data in site.config.yaml: its limits and the features
 * it adds to the plan before it. The pricing page and the launch campaign both render plans with
 * this, so neither can promise a feature in a plan that the other puts elsewhere.
 */
import { contactPlanParameter } from 'typed-site/contact-schema';
import type { SiteContext } from 'typed-site/template';

type Plan = SiteContext['config']['plans'][number];

/**
 * Where a plan's button leads and what its label promises: the plan's sign-up page when config
 * has one; else the contact form with the plan preselected (`?plan=`, read by the form): to start
 * on a free plan, or to ask for the price of an on-request one; a plan with a price books a meeting.
 */
export function planAction(plan: Plan, base: string, site: SiteContext): { href: string; label: string } {
  const { t } = site;
  const free = plan.price !== 'on-request' && plan.price.amount === 0;
  const name = plan.name[site.locale] ?? plan.id;
  if (plan.signupUrl) return { href: plan.signupUrl, label: free ? t('pricing.startFree') : t('pricing.signUp') };
  const contact = `${site.href(`${base}/contactus`)}?${contactPlanParameter}=${encodeURIComponent(plan.id)}`;
  if (free) return { href: contact, label: t('pricing.startFreeContact') };
  if (plan.price === 'on-request') return { href: contact, label: t('pricing.requestOffer', { plan: name }) };
  return { href: site.href(`${base}/book-meeting`), label: t('pricing.choosePlan') };
}

/** The plan that first includes a feature (plans are cumulative), or undefined. */
export function planWithFeature(site: SiteContext, feature: string): Plan | undefined {
  return site.config.plans.find((plan) => plan.features.includes(feature));
}

/** A plan's limits (`limits.ordersPerMonth`, `limits.users`) and the features it adds, as a checklist. */
export function PlanChecklist({ plan, site }: { plan: Plan; site: SiteContext }) {
  const { t } = site;
  const { ordersPerMonth, users } = plan.limits;
  return (
    <ul className="checklist">
      {ordersPerMonth !== undefined && (
        <li className="plan-limit">
          {ordersPerMonth === 'unlimited'
            ? t('pricing.unlimitedOrders')
            : t('pricing.ordersPerMonth', { count: ordersPerMonth })}
        </li>
      )}
      {users !== undefined && (
        <li className="plan-limit">
          {users === 'unlimited' ? t('pricing.unlimitedUsers') : t('pricing.users', { count: users })}
        </li>
      )}
      {plan.features.map((feature) => (
        <li key={feature} data-feature={feature}>
          {t(`planFeatures.${feature}`)}
        </li>
      ))}
    </ul>
  );
}

/** "Everything in Basic, plus:" above the checklist of every plan but the first. */
export function PlanIncludes({ plan, site }: { plan: Plan; site: SiteContext }) {
  const plans = site.config.plans;
  const previous = plans[plans.indexOf(plan) - 1];
  return (
    <>
      {previous && (
        <p className="plan-includes">
          {site.t('pricing.everythingIn', { plan: previous.name[site.locale] ?? previous.id })}
        </p>
      )}
      <PlanChecklist plan={plan} site={site} />
    </>
  );
}
