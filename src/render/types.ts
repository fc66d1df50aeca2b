/** The contract between the generator and the templates in templates/. */
import type { ComponentType, ReactNode } from 'react';
import type { z } from 'zod';
import type { ResolvedConfig } from '../config/load.js';
import type { Entry, EntryTranslation } from '../content/collections.js';
import type { EntryImage } from '../content/images.js';
import type { Page } from '../routes/pages.js';

/** What every template receives about the site, bound to the page's locale. */
export interface SiteContext {
  config: ResolvedConfig;
  locale: string;
  /**
   * The site's own facts: the config's `data:` block as the layout's `data` schema parsed it
   * (defaults filled in), or as written when the layout exports none.
   */
  data: Record<string, unknown>;
  /**
   * Whether the pages carry the consent banner (`analytics:` with a counter that sets cookies):
   * the footer then offers a `[data-consent-open]` button ("Cookie settings", message
   * `consent.settings`) that shows it again.
   */
  consent: boolean;
  /** A UI message from content/messages/<locale>.yaml; `{name}` placeholders are filled from `values`, and the site's own (`{minutes}`, booking.minutes) from the config. */
  t(key: string, values?: Record<string, string | number>): string;
  /** The URL of the page at a route path in the current locale ("/hub/pricing" → "/no/hub/pricing/"); throws for a page that does not exist. */
  href(routePath: string): string;
  /** The short name of a page for breadcrumbs. */
  nameOf(url: string): string;
  formatDate(isoDate: string): string;
  /** An amount in a currency (ISO 4217), as the locale writes it, in whole units ("€30", "kr 1 200"). */
  formatMoney(amount: number, currency: string): string;
  /**
   * A plan's price in the locale's words: the amount with Intl.NumberFormat, and the period from
   * the messages `pricing.perMonth` or `pricing.perYear` ("€0" and "per month").
   */
  formatPrice(price: { amount: number; currency: string; period: 'month' | 'year' }): {
    amount: string;
    period: string;
  };
  /** The entries of a collection, newest first ([] for a collection without entries). */
  entries(collection: string): readonly Entry[];
  /** One entry of a collection. */
  entry(collection: string, slug: string): Entry | undefined;
  /** The translation of an entry a page in this locale shows: its own, or the one the collection's fallback rules pick. */
  translationOf(entry: Entry): EntryTranslation;
  /**
   * The entry a reference field of `entry` names (`type: reference`), read from the translation
   * this locale shows; undefined when the field has no value. The build has checked that it exists.
   * A reference inside an object or list is a slug: read it with `entry(collection, slug)`.
   */
  reference(entry: Entry, field: string): Entry | undefined;
  /** URLs of the built assets: the site's stylesheet, the admin's while the admin is on, and highlighted code's while highlighting is on. */
  assets: { stylesheet: string; admin?: string; code?: string };
}

/** The props of a page template. */
export interface PageProps<Content = Record<string, unknown>> {
  page: Page;
  content: Content;
  site: SiteContext;
}

/** The props of the layout: a page's props plus the rendered page. */
export interface LayoutProps extends PageProps {
  children: ReactNode;
}

/** What the head says about a page. */
export interface PageMeta {
  title: string;
  description: string;
  /** `lang` of the main content when it differs from the page's locale (an untranslated post). */
  contentLang?: string;
  og?: { type: 'website' | 'article'; publishedTime?: string; modifiedTime?: string; section?: string };
  /** URL of a feed to link from the head. */
  feed?: { url: string; title: string };
  /** The title on the page's social image when not `title`: the pages of a list share its first page's card. */
  card?: { title: string };
  /** The page's own image (a post's): its social image is that photo rather than a drawn card. */
  image?: EntryImage;
  /** Stylesheets the page loads after the site's (the admin's screens load the admin's). */
  stylesheets?: string[];
}

/** A module in templates/pages/. */
export interface PageTemplateModule<Content = any> {
  default: ComponentType<PageProps<Content>>;
  /** The schema of the page's copy file; required for templates used with `content:`. */
  content?: z.ZodType<Content>;
  /** Title and description; defaults to the copy's `title` and `description`. */
  meta?(props: PageProps<Content>): PageMeta;
  /** JSON-LD objects besides Organization and BreadcrumbList. */
  structuredData?(props: PageProps<Content>): Record<string, unknown>[];
  /** A layout of the page's own, used instead of the site's (the admin's screens bring the engine's). */
  Layout?: ComponentType<LayoutProps>;
  /** false: the page shows no breadcrumb trail, so its JSON-LD has no BreadcrumbList either (the admin's screens). */
  breadcrumbs?: false;
}

/**
 * The props of a content component (`templates/content/<Name>.tsx`, named in Markdown by a
 * directive): its attributes as its `props` schema outputs them, and what the engine adds.
 */
export type ContentComponentProps<Attributes = Record<string, string>> = Attributes & {
  /** The Markdown inside a container (`:::name` … `:::`), or the label of `::name[…]` and `:name[…]`, rendered and sanitised; undefined when there is none. */
  children?: ReactNode;
  /** The pictures of the attributes that name an image file beside the document (`src="jacket.jpg"`), by attribute. */
  images: Record<string, ReactNode>;
  /** The site, in the language of the page that shows the component. */
  site: SiteContext;
};

/** A module in templates/content/: a component Markdown names by directive (`:::callout` → Callout.tsx). */
export interface ContentComponentModule<Attributes = any> {
  default: ComponentType<ContentComponentProps<Attributes>>;
  /** The schema of its attributes, which Markdown writes as text (z.coerce.number() for a number); without one, any attribute is taken as it is. */
  props?: z.ZodType<Attributes>;
  /** What the admin's editor says of it. */
  description?: string;
}

/** The templates after loading. */
export interface TemplateSet {
  pages: Record<string, PageTemplateModule>;
  /** The content components by file name (`Callout`): the site's templates/content/ and the engine's built-ins it does not replace. */
  components: Record<string, ContentComponentModule>;
  /** The names (file names) of `components` that are the engine's own. */
  engineComponents: readonly string[];
  Layout: ComponentType<LayoutProps>;
  /** The schema of the config's `data:` block, exported by the layout module as `data`; optional. */
  data?: z.ZodType<Record<string, unknown>>;
}
