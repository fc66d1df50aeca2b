/** Pieces of the page copy schemas, shared by the page templates. */
import { z } from 'zod';

const text = z.string().min(1);

export const meta = { title: text, description: text };
/** The copy of every admin page (templates/layout/AdminPage.tsx). */
export const adminPageCopy = { ...meta, heading: text, lead: text, notice: text, nav: text };
export const hero = z.strictObject({ eyebrow: text, heading: text, lead: text });
export const heroWithCtas = z.strictObject({
  eyebrow: text,
  heading: text,
  lead: text,
  primaryCta: text,
  secondaryCta: text,
});
export const heroWithCta = z.strictObject({ eyebrow: text, heading: text, lead: text, primaryCta: text });
export const titledItems = z.array(z.strictObject({ title: text, text })).min(1);
export const claim = z.strictObject({ figure: text, text });
export const closing = z.strictObject({ heading: text, text, primaryCta: text, secondaryCta: text });
export const closingSingle = z.strictObject({ heading: text, text, primaryCta: text });
export const faq = z.strictObject({
  heading: text,
  items: z.array(z.strictObject({ question: text, answer: text })).min(1),
});
export const sections = z
  .array(z.strictObject({ heading: text, paragraphs: z.array(text).min(1), points: z.array(text).optional() }))
  .min(1);

/** One input of the ROI calculator: its starting value and bounds. */
const roiInput = z
  .strictObject({
    default: z.number().nonnegative(),
    min: z.number().nonnegative(),
    max: z.number().positive(),
    step: z.number().positive().default(1),
  })
  .refine((input) => input.min <= input.default && input.default <= input.max, {
    path: ['default'],
    error: (issue) => {
      const input = issue.input as { default: number; min: number; max: number };
      return `default ${input.default} is outside ${input.min}–${input.max}`;
    },
  });

/**
 * The site's own facts, under `data:` in site.config.yaml (the engine passes them to templates as
 * `site.data`): the ROI calculator of the hub pages, its share of time saved and its four inputs;
 * and the audience whose call to action ends a blog post of each category (templates/layout/PostEnd.tsx).
 */
export const siteData = z.strictObject({
  roi: z.strictObject({
    timeSavedShare: z.number().gt(0).lt(1).default(0.35),
    inputs: z.strictObject({
      ordersPerMonth: roiInput,
      minutesPerOrder: roiInput,
      hourlyWage: roiInput,
      revenuePerRepair: roiInput,
    }),
  }),
  blog: z
    .strictObject({
      /** Category → audience id; a category without one ends with the general call to action. */
      categoryAudiences: z.record(z.string(), z.string()).default({}),
    })
    .default({ categoryAudiences: {} }),
});

/** `site.data` as the templates read it. */
export type SiteData = z.output<typeof siteData>;

export { text, z };
