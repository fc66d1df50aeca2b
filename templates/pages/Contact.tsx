/** Contact pages (generic and per audience): the form and the company's details. */
import { localBusiness, type PageProps } from 'typed-site/template';
import ContactForm, { type ContactFormProps } from '../islands/ContactForm';
import { CompanyDetails } from '../layout/CompanyDetails';
import { Island } from 'typed-site/template';
import { hero, meta, text, z } from '../layout/schemas';
import { Hero } from '../layout/ui';

export const content = z.strictObject({ ...meta, hero, details: z.strictObject({ heading: text, text }) });
type Content = z.infer<typeof content>;

export default function Contact({ page, content, site }: PageProps<Content>) {
  return (
    <>
      <Hero eyebrow={content.hero.eyebrow} heading={content.hero.heading} lead={content.hero.lead} compact />
      <div className="container contact-layout">
        <Island name="ContactForm" component={ContactForm} props={contactFormProps(page.url, page.audience, site)} />
        <CompanyDetails site={site} heading={content.details.heading} text={content.details.text} />
      </div>
    </>
  );
}

/** The form's props: labels in the page's language, the endpoint, and the audience's enquiry type. */
export function contactFormProps(
  pageUrl: string,
  audience: string | undefined,
  site: PageProps['site'],
): ContactFormProps {
  const { t, config } = site;
  const defaultType: string | undefined = audience ? config.audiences[audience]!.contactType : undefined;
  const label = (key: string) => t(`contactForm.${key}`);
  return {
    idPrefix: 'contact',
    endpoint: config.contact.endpoint,
    locale: site.locale,
    page: pageUrl,
    defaultType,
    labels: {
      legend: label('legend'),
      firstName: label('firstName'),
      lastName: label('lastName'),
      email: label('email'),
      company: label('company'),
      type: label('type'),
      subject: label('subject'),
      message: label('message'),
      requiredMarker: label('requiredMarker'),
      requiredNote: label('requiredNote'),
      submit: label('submit'),
      sending: label('sending'),
      honeypot: label('honeypot'),
      chooseType: label('chooseType'),
      sendAnother: label('sendAnother'),
    },
    types: Object.fromEntries(config.contact.types.map((type) => [type, t(`contactForm.types.${type}`)])),
    plans: Object.fromEntries(
      config.plans.map((plan) => [plan.id, t('contactForm.planSubject', { plan: plan.name[site.locale] ?? plan.id })]),
    ),
    topics: { meeting: t('contactForm.meetingSubject') },
    messages: {
      missingTitle: label('missingTitle'),
      missingText: label('missingText'),
      checkTitle: label('checkTitle'),
      checkText: label('checkText'),
      successTitle: label('successTitle'),
      successText: label('successText'),
      errorTitle: label('errorTitle'),
      errorText: label('errorText'),
      required: label('fieldRequired'),
      invalidEmail: label('invalidEmail'),
      tooLong: label('tooLong'),
    },
  };
}

export function structuredData({ page, site }: PageProps<Content>) {
  return [localBusiness(site.config, site.config.site.origin + page.url)];
}
