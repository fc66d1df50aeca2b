/** The home page of one audience (/hub, /shop, /workwear). */
import type { PageProps } from 'typed-site/template';
import { HeroVisual } from '../illustrations';
import { featureIconsOf, flowOf, showsWasteClaim } from '../layout/audience-look';
import { claim, closing, heroWithCtas, meta, text, titledItems, z } from '../layout/schemas';
import { ButtonLink, CardGrid, Claim, Closing, Flow, Hero, Section } from '../layout/ui';

export const content = z.strictObject({
  ...meta,
  hero: heroWithCtas,
  features: z.strictObject({ heading: text, lead: text, items: titledItems }),
  claim,
  closing,
});
type Content = z.infer<typeof content>;

export default function AudienceHome({ page, content, site }: PageProps<Content>) {
  const base = page.route.path;
  const flow = flowOf(page.audience, site);
  return (
    <>
      <Hero
        eyebrow={content.hero.eyebrow}
        heading={content.hero.heading}
        lead={content.hero.lead}
        visual={<HeroVisual audience={page.audience} site={site} />}
      >
        <ButtonLink href={site.href(`${base}/book-meeting`)}>{content.hero.primaryCta}</ButtonLink>
        <ButtonLink href={site.href(`${base}/pricing`)} variant="secondary">
          {content.hero.secondaryCta}
        </ButtonLink>
      </Hero>
      {flow && <Flow id="how-it-works" heading={flow.heading} steps={flow.steps} />}
      <Section id="features" heading={content.features.heading} lead={content.features.lead}>
        <CardGrid items={content.features.items} icons={featureIconsOf(page.audience)} />
      </Section>
      {showsWasteClaim(page) && <Claim figure={content.claim.figure} text={content.claim.text} />}
      <Closing heading={content.closing.heading} text={content.closing.text}>
        <ButtonLink href={site.href(`${base}/book-meeting`)}>{content.closing.primaryCta}</ButtonLink>
        <ButtonLink href={site.href(`${base}/contactus`)} variant="secondary">
          {content.closing.secondaryCta}
        </ButtonLink>
      </Closing>
    </>
  );
}
