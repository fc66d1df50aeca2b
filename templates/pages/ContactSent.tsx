/** Thank-you page after a contact form sent without JavaScript. */
import type { PageProps } from 'typed-site/template';
import { ContactResult, contactResultMeta } from '../layout/ContactResult';

export default function ContactSent({ site }: PageProps) {
  return <ContactResult site={site} outcome="success" />;
}

export function meta({ site }: PageProps) {
  return contactResultMeta(site, 'success');
}
