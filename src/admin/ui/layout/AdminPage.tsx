/**
 * The frame of an admin page: the admin navigation, the heading and lead of its copy, the notice
 * shown without JavaScript, and the page's island.
 */
import type { ReactNode } from 'react';
import type { PageProps } from 'typed-site/template';
import { AdminNav } from './AdminNav';

/** The copy every admin page has. */
export interface AdminPageCopy {
  heading: string;
  lead: string;
  notice: string;
  nav: string;
}

export function AdminPage({
  page,
  site,
  content,
  children,
}: Pick<PageProps, 'page' | 'site'> & { content: AdminPageCopy; children: ReactNode }) {
  return (
    <div className="container admin">
      <AdminNav page={page} site={site} label={content.nav} />
      <h1>{content.heading}</h1>
      <p className="lead">{content.lead}</p>
      <noscript>
        <p className="banner banner-info">{content.notice}</p>
      </noscript>
      {children}
    </div>
  );
}
