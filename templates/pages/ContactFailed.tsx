/** Error page after a contact form sent without JavaScript could not be stored or was incomplete. */
import type { PageProps } from 'typed-site/template';
import { ContactResult, contactResultMeta } from '../layout/ContactResult';

export default function ContactFailed({ site }: PageProps) {
  return <ContactResult site={site} outcome="error" />;
}

export function meta({ site }: PageProps) {
  return contactResultMeta(site, 'error');
}
