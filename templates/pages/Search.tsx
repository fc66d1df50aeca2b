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
  }),
});
type Content = z.infer<typeof content>;

export default function Search({ content }: PageProps<Content>) {
  return (
    <section className="container search-page">
      <h1>{content.heading}</h1>
      <Island name="SiteSearch" component={SiteSearch} props={{ script: searchScriptUrl, text: content.search }} />
    </section>
  );
}
