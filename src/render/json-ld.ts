/** Builders for schema.org structured data (JSON-LD). Pure functions of the config and page data. */
import type { ResolvedConfig } from '../config/load.js';
import type { CompanyConfig } from '../config/schema.js';
import { siteRootOf } from '../routes/urls.js';

type Thing = Record<string, unknown>;

/** The Organization, on every page of a site that configures its `company`; undefined without one. */
export function organization(config: ResolvedConfig): Thing | undefined {
  const { company, site } = config;
  if (!company) return undefined;
  const root = siteRootOf(config);
  return {
    '@context': 'https://schema.org',
    '@type': 'Organization',
    '@id': `${root}/#organization`,
    name: site.name,
    legalName: company.legalName,
    url: `${root}/`,
    logo: `${root}/logo.svg`,
    email: company.email,
    ...(company.orgNumber !== undefined ? { taxID: company.orgNumber } : {}),
    address: postalAddress(company),
    sameAs: Object.values(company.social),
  };
}

function postalAddress(company: CompanyConfig): Thing {
  const { address } = company;
  return {
    '@type': 'PostalAddress',
    streetAddress: address.street,
    postalCode: address.postalCode,
    addressLocality: address.city,
    addressCountry: address.country,
  };
}

/** The publisher of a page's thing: the Organization, when the site has one. */
function publisherOf(config: ResolvedConfig): Thing {
  return config.company ? { publisher: { '@id': `${siteRootOf(config)}/#organization` } } : {};
}

/** A BreadcrumbList from (name, absolute URL) pairs, root first. */
export function breadcrumbList(items: readonly { name: string; url: string }[]): Thing {
  return {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: items.map((item, index) => ({
      '@type': 'ListItem',
      position: index + 1,
      name: item.name,
      item: item.url,
    })),
  };
}

/** An FAQPage from question/answer pairs. */
export function faqPage(items: readonly { question: string; answer: string }[]): Thing {
  return {
    '@context': 'https://schema.org',
    '@type': 'FAQPage',
    mainEntity: items.map((item) => ({
      '@type': 'Question',
      name: item.question,
      acceptedAnswer: { '@type': 'Answer', text: item.answer },
    })),
  };
}

/** The product as a SoftwareApplication, with an Offer for each plan whose price is known. */
export function softwareApplication(
  config: ResolvedConfig,
  input: { name: string; description: string; url: string; locale: string },
): Thing {
  const offers = config.plans.flatMap((plan) =>
    plan.price === 'on-request'
      ? []
      : [
          {
            '@type': 'Offer',
            name: plan.name[input.locale] ?? plan.id,
            price: plan.price.amount.toFixed(2),
            priceCurrency: plan.price.currency,
            url: input.url,
          },
        ],
  );
  return {
    '@context': 'https://schema.org',
    '@type': 'SoftwareApplication',
    name: input.name,
    description: input.description,
    applicationCategory: 'BusinessApplication',
    operatingSystem: 'Web',
    url: input.url,
    ...(offers.length ? { offers } : {}),
    ...publisherOf(config),
  };
}

/**
 * The company as a LocalBusiness with its address and, when configured, its opening hours.
 * Throws for a site without `company`: a template that shows the company needs one.
 */
export function localBusiness(config: ResolvedConfig, url: string): Thing {
  const { company } = config;
  if (!company) throw new Error('localBusiness needs `company:` in the config');
  const hours = company.openingHours;
  return {
    '@context': 'https://schema.org',
    '@type': 'LocalBusiness',
    name: config.site.name,
    url,
    email: company.email,
    address: postalAddress(company),
    ...(hours
      ? {
          openingHours: `${hours.days[0]}-${hours.days.at(-1)} ${hours.opens}-${hours.closes}`,
          openingHoursSpecification: [
            {
              '@type': 'OpeningHoursSpecification',
              dayOfWeek: hours.days.map(dayName),
              opens: hours.opens,
              closes: hours.closes,
            },
          ],
        }
      : {}),
  };
}

const dayNames: Record<string, string> = {
  Mo: 'Monday',
  Tu: 'Tuesday',
  We: 'Wednesday',
  Th: 'Thursday',
  Fr: 'Friday',
  Sa: 'Saturday',
  Su: 'Sunday',
};
function dayName(day: string): string {
  return `https://schema.org/${dayNames[day]}`;
}

/** A blog post as an Article (BlogPosting). */
export function article(
  config: ResolvedConfig,
  input: {
    headline: string;
    description: string;
    url: string;
    datePublished: string;
    dateModified?: string;
    author: string;
    section: string;
    inLanguage: string;
  },
): Thing {
  return {
    '@context': 'https://schema.org',
    '@type': 'BlogPosting',
    headline: input.headline,
    description: input.description,
    url: input.url,
    mainEntityOfPage: input.url,
    datePublished: input.datePublished,
    dateModified: input.dateModified ?? input.datePublished,
    author: { '@type': 'Organization', name: input.author },
    ...publisherOf(config),
    articleSection: input.section,
    inLanguage: input.inLanguage,
  };
}
