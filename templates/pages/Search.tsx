/** The search page (`search:` of the config): the engine's search island, with the site's copy. */
import { Island, SiteSearch, searchScriptUrl, type PageProps } from 'typed-site/template';
import { meta, text, z } from '../layout/schemas';

export const content = z.strictObject({
  ...meta,
  heading: text,
  search: z.strictObject({
    label: text,
    submit: text,
    noScript: text,
    searching: text,
    none: text,
    one: text,
    many: text,
    failed: text,
    more: text,
  }),
});
type Content = z.infer<typeof content>;

export default function Search({ content, site }: PageProps<Content>) {
  return (
    <section className="container search-page">
      <h1>{content.heading}</h1>
      <Island
        name="SiteSearch"
        component={SiteSearch}
        props={{ script: searchScriptUrl, text: content.search, sections: searchSections(site) }}
      />
    </section>
  );
}

/** The sections a result is labelled with: each audience's pages by its name, the blog's posts as the blog. */
function searchSections(site: PageProps['site']): { path: string; label: string }[] {
  return [
    ...Object.values(site.config.audiences).map((audience) => ({
      path: site.href(audience.path),
      label: audience.label[site.locale]!,
    })),
    { path: site.href('/blog'), label: site.t('blog.title') },
  ];
}
