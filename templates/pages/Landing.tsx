/** The root page: the visitor picks an audience. */
import type { PageProps } from 'typed-site/template';
import { HeroVisual } from '../illustrations';
import { claim, hero, meta, text, z } from '../layout/schemas';
import { ButtonLink, cardGridClass, Claim, Hero, Section } from '../layout/ui';

const card = z.strictObject({ title: text, text, cta: text });
export const content = z.strictObject({
  ...meta,
  hero,
  // The hero's calls to action: first choose a solution (the cards below), or talk to us.
  actions: z.strictObject({ primary: text, secondary: text }),
  chooser: z.strictObject({ heading: text, cards: z.strictObject({ hub: card, shop: card, workwear: card }) }),
  claim,
});
type Content = z.infer<typeof content>;

export default function Landing({ content, site }: PageProps<Content>) {
  const cards = (['hub', 'shop', 'workwear'] as const).map((id) => ({
    id,
    ...content.chooser.cards[id],
    href: site.href(site.config.audiences[id]!.path),
  }));
  return (
    <>
      <Hero
        eyebrow={content.hero.eyebrow}
        heading={content.hero.heading}
        lead={content.hero.lead}
        visual={<HeroVisual audience={undefined} site={site} />}
      >
        <ButtonLink href="#audiences">{content.actions.primary}</ButtonLink>
        <ButtonLink href={site.href('/contactus')} variant="secondary">
          {content.actions.secondary}
        </ButtonLink>
      </Hero>
      <Section id="audiences" heading={content.chooser.heading}>
        <ul className={`${cardGridClass(cards.length)} audience-cards`}>
          {cards.map((card) => (
            <li key={card.id} className={`audience-card audience-${card.id}`}>
              <h3>
                <a href={card.href}>{card.title}</a>
              </h3>
              <p>{card.text}</p>
              <span className="card-cta" aria-hidden="true">
                {card.cta} →
              </span>
            </li>
          ))}
        </ul>
        <p className="admin-access">
          <a href={site.href('/auth')}>{site.t('landing.adminAccess')}</a>
        </p>
      </Section>
      <Claim figure={content.claim.figure} text={content.claim.text} />
    </>
  );
}
