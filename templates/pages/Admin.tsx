/** Admin pages without an editor of their own yet (settings): shells that ask for sign-in. */
import type { PageProps } from 'site/template';
import { AdminNav } from '../layout/AdminNav';
import { meta, text, z } from '../layout/schemas';
import { ButtonLink } from '../layout/ui';

export const content = z.strictObject({ ...meta, heading: text, lead: text, notice: text, nav: text });
type Content = z.infer<typeof content>;

export default function Admin({ page, content, site }: PageProps<Content>) {
  return (
    <div className="container narrow admin">
      <AdminNav page={page} site={site} label={content.nav} />
      <h1>{content.heading}</h1>
      <p className="lead">{content.lead}</p>
      <div className="banner banner-info">
        <p>{content.notice}</p>
      </div>
      <ButtonLink href={site.href('/auth')}>{site.t('landing.adminAccess')}</ButtonLink>
    </div>
  );
}
