/**
 * What page and layout templates import from the generator, as `typed-site/template` (package.json
 * `exports`): the props and context they render from, the page records, JSON-LD helpers, HTML
 * escaping, and `templateError` to stop a page with a diagnostic about its content. The islands' models have entries of their own, such as `typed-site/contact-schema`:
 * an island bundle (code-split for the browser) would otherwise share one chunk with every
 * module this file re-exports, and a page with an island of its own (a calculator, say) would load zod.
 */
export type {
  ContentComponentModule,
  ContentComponentProps,
  LayoutProps,
  PageMeta,
  PageProps,
  PageTemplateModule,
  SiteContext,
} from './render/types.js';
export type { CollectionEntryData, CollectionListData, ListedEntry, Page } from './routes/pages.js';
export type { Entry, EntryTranslation } from './content/collections.js';
export type { FrontMatterField } from './content/front-matter-schema.js';
export type { EntryImage } from './content/images.js';
export type { FieldValue } from './content/entry-fields.js';
export { pictureOf, type Picture } from './content/image-variants.js';
export { frontMatterFields } from './content/front-matter-schema.js';
export type { ContactType, PlanConfig } from './config/schema.js';
export { navigationRoutePath } from './config/schema.js';
export { bookingConfirmationMailed, builtInBookingAnswered } from './config/booking.js';
export { slotRulesOf } from './booking/rules.js';
export { slotTimes } from './booking/slots.js';
export {
  article,
  breadcrumbList,
  faqPage,
  localBusiness,
  organization,
  softwareApplication,
} from './render/json-ld.js';
export { escapeHtml, serializeJsonForScript } from './render/html.js';
/** The marker of an island: a component of templates/islands/ rendered here and hydrated in the browser. */
export { Island } from './render/island.js';
/** The engine's search island, for the search page (`search:` of the config). */
export { default as SiteSearch, type SiteSearchProps } from './islands/SiteSearch.js';
export { searchScriptUrl } from './url-paths.js';
export { templateError, TemplateDiagnostic, type TemplateDiagnosticOptions } from './render/template-diagnostic.js';
/** zod, for the `content` schema of a page's copy: the generator's own copy, so a site need not install it. */
export { z } from 'zod';
