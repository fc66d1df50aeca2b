/** Pricing for retail and workwear: custom quotes after a meeting. */
import { faqPage, type PageProps } from 'typed-site/template';
import { featureIconsOf, listIcons } from '../layout/audience-look';
import { audienceBase } from '../layout/paths';
import { closingSingle, faq, hero, meta, text, titledItems, z } from '../layout/schemas';
import { ButtonLink, CardGrid, Closing, Faq, Hero, Section } from '../layout/ui';

export const content = z.strictObject({
  ...meta,
  hero,
  included: z.strictObject({ heading: text, items: titledItems }),
  process: z.strictObject({ heading: text, steps: titledItems }),
  faq,
  closing: closingSingle,
});
type Content = z.infer<typeof content>;

export default function QuotePricing({ page, content, site }: PageProps<Content>) {
  const base = audienceBase(page, site);
  return (
    <>
      <Hero eyebrow={content.hero.eyebrow} heading={content.hero.heading} lead={content.hero.lead}>
        <ButtonLink href={site.href(`${base}/book-meeting`)}>{content.closing.primaryCta}</ButtonLink>
      </Hero>
      <Section id="included" heading={content.included.heading}>
        <CardGrid
          items={content.included.items}
          icons={[...featureIconsOf(page.audience), listIcons.quoteOnboarding]}
        />
      </Section>
      <Section id="process" heading={content.process.heading} tone="muted">
        <CardGrid items={content.process.steps} numbered icons={listIcons.quoteSteps} />
      </Section>
      <Faq heading={content.faq.heading} items={content.faq.items} />
      <Closing heading={content.closing.heading} text={content.closing.text}>
        <ButtonLink href={site.href(`${base}/book-meeting`)}>{content.closing.primaryCta}</ButtonLink>
      </Closing>
    </>
  );
}

export function structuredData({ content }: PageProps<Content>) {
  return [faqPage(content.faq.items)];
}
