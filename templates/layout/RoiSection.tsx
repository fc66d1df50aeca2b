/** The section that holds the ROI calculator island, with its labels from the messages. */
import type { SiteContext } from 'typed-site/template';
import RoiCalculator, { type RoiCalculatorProps } from '../islands/RoiCalculator';
import { Island } from 'typed-site/template';
import type { SiteData } from './schemas';
import { Section } from './ui';

export function RoiSection({ heading, lead, site }: { heading: string; lead: string; site: SiteContext }) {
  const { t, config } = site;
  const { roi } = site.data as SiteData;
  const units = {
    ordersPerMonth: t('roi.units.orders'),
    minutesPerOrder: t('roi.units.minutes'),
    hourlyWage: t('roi.units.eur'),
    revenuePerRepair: t('roi.units.eur'),
  };
  const inputs = Object.fromEntries(
    (Object.keys(units) as (keyof typeof units)[]).map((name) => [
      name,
      { ...roi.inputs[name], label: t(`roi.inputs.${name}`), unit: units[name] },
    ]),
  ) as RoiCalculatorProps['inputs'];
  const props: RoiCalculatorProps = {
    idPrefix: 'roi',
    intl: config.locales[site.locale]!.intl,
    timeSavedShare: roi.timeSavedShare,
    inputs,
    outputs: {
      hoursSaved: t('roi.outputs.hoursSaved'),
      extraCapacity: t('roi.outputs.extraCapacity'),
      salarySaving: t('roi.outputs.salarySaving'),
      extraEarnings: t('roi.outputs.extraEarnings'),
    },
    hoursValue: t('roi.hoursValue'),
    ordersValue: t('roi.ordersValue'),
    heading: t('roi.heading'),
    results: t('roi.results'),
    // Placeholders ({percent}, {hours}, {min}, {max}) are filled in the browser as the visitor types.
    share: { label: t('roi.shareLabel'), unit: t('roi.shareUnit'), hint: t('roi.assumption') },
    alternatives: t('roi.alternatives'),
    impossible: t('roi.impossible'),
    errors: {
      required: t('roi.required'),
      number: t('roi.number'),
      whole: t('roi.whole'),
      positive: t('roi.positive'),
      min: t('roi.min'),
      max: t('roi.max'),
    },
  };
  return (
    <Section id="roi" heading={heading} lead={lead} tone="muted">
      <Island name="RoiCalculator" component={RoiCalculator} props={props} />
    </Section>
  );
}
