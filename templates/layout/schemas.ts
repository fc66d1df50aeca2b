/** Pieces of the page copy schemas, shared by the page templates. */
import { z } from 'zod';

const text = z.string().min(1);

export const meta = { title: text, description: text };
/** The copy of every admin page (templates/layout/AdminPage.tsx). */
export const adminPageCopy = { ...meta, heading: text, lead: text, notice: text, nav: text };
export const hero = z.strictObject({ eyebrow: text, heading: text, lead: text });
export const heroWithCtas = z.strictObject({ eyebrow: text, heading: text, lead: text, primaryCta: text, secondaryCta: text });
export const heroWithCta = z.strictObject({ eyebrow: text, heading: text, lead: text, primaryCta: text });
export const titledItems = z.array(z.strictObject({ title: text, text })).min(1);
export const claim = z.strictObject({ figure: text, text });
export const closing = z.strictObject({ heading: text, text, primaryCta: text, secondaryCta: text });
export const closingSingle = z.strictObject({ heading: text, text, primaryCta: text });
export const faq = z.strictObject({ heading: text, items: z.array(z.strictObject({ question: text, answer: text })).min(1) });
export const sections = z.array(z.strictObject({ heading: text, paragraphs: z.array(text).min(1), points: z.array(text).optional() })).min(1);
export { text, z };
