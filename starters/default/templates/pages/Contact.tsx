/**
 * The contact page: its copy (content/pages/contact/<locale>.yaml) and the engine's contact form,
 * which posts to contact.endpoint in site.config.yaml. The form's words are the engine's own, in
 * English or Norwegian; replace any of them with `text`, e.g.
 * contactFormProps({ page, site }, { text: { submit: 'Send' } }).
 */
import { Island, z, type PageProps } from 'typed-site/template';
import { ContactForm, contactFormProps } from 'typed-site/islands';

const text = z.string().min(1);

export const content = z.strictObject({
  title: text,
  description: text,
  heading: text,
  lead: text,
});
type Content = z.infer<typeof content>;

export default function Contact({ page, content, site }: PageProps<Content>) {
  return (
    <>
      <section className="hero">
        <h1>{content.heading}</h1>
        <p className="lead">{content.lead}</p>
      </section>
      <Island name="ContactForm" component={ContactForm} props={contactFormProps({ page, site })} />
    </>
  );
}
