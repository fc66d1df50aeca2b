/**
 * The page to book a meeting: its copy (content/pages/book/<locale>.yaml) and the built-in
 * booking's form (`booking:` in site.config.yaml), which offers the free times and books one.
 * Where the host cannot answer the booking (GitHub Pages; netlify, cloudflare or vercel without
 * output.functions.booking) it offers the contact form instead, with the meeting as its subject.
 */
import { builtInBookingAnswered, Island, z, type PageProps } from 'typed-site/template';
import { BookingForm, bookingFormProps, ContactForm, contactFormProps } from 'typed-site/islands';

const text = z.string().min(1);

export const content = z.strictObject({
  title: text,
  description: text,
  heading: text,
  lead: text,
  subject: text,
});
type Content = z.infer<typeof content>;

export default function Book({ page, content, site }: PageProps<Content>) {
  return (
    <>
      <section className="hero">
        <h1>{content.heading}</h1>
        <p className="lead">{content.lead}</p>
      </section>
      {builtInBookingAnswered(site.config) ? (
        <Island
          name="BookingForm"
          component={BookingForm}
          props={bookingFormProps({ page, site }, { contactHref: site.href('/contact') })}
        />
      ) : (
        <Island
          name="ContactForm"
          component={ContactForm}
          props={contactFormProps({ page, site }, { subject: content.subject })}
        />
      )}
    </>
  );
}
