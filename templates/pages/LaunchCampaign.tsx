/** The repairers' launch campaign, with the ROI calculator. */
import type { PageProps } from 'site/template';
import { listIcons } from '../layout/audience-look';
import { audienceBase } from '../layout/paths';
import { RoiSection } from '../layout/RoiSection';
import { closing, heroWithCta, meta, text, titledItems, z } from '../layout/schemas';
import { ButtonLink, CardGrid, Closing, Hero, Section } from '../layout/ui';

export const content = z.strictObject({
  ...meta,
  hero: heroWithCta,
  offer: z.strictObject({ heading: text, items: titledItems }),
  roi: z.strictObject({ heading: text, lead: text }),
  steps: z.strictObject({ heading: text, items: titledItems }),
  closing,
});
type Content = z.infer<typeof content>;

export default function LaunchCampaign({ page, content, site }: PageProps<Content>) {
  const base = audienceBase(page, site);
  return (
    <>
      <Hero eyebrow={content.hero.eyebrow} heading={content.hero.heading} lead={content.hero.lead}>
        <ButtonLink href={site.href(`${base}/book-meeting`)}>{content.hero.primaryCta}</ButtonLink>
      </Hero>
      <Section id="offer" heading={content.offer.heading}>
        <CardGrid items={content.offer.items} icons={listIcons.launchOffer} />
      </Section>
      <RoiSection heading={content.roi.heading} lead={content.roi.lead} site={site} />
      <Section id="steps" heading={content.steps.heading}>
        <CardGrid items={content.steps.items} numbered icons={listIcons.launchSteps} />
      </Section>
      <Closing heading={content.closing.heading} text={content.closing.text}>
        <ButtonLink href={site.href(`${base}/book-meeting`)}>{content.closing.primaryCta}</ButtonLink>
        <ButtonLink href={site.href(`${base}/pricing`)} variant="secondary">{content.closing.secondaryCta}</ButtonLink>
      </Closing>
    </>
  );
}
