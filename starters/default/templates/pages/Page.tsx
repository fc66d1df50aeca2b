/** A page of Markdown copy (content/pages/<name>/<locale>.md): its title and text. */
import { z, type PageProps } from 'typed-site/template';

export const content = z.strictObject({
  title: z.string().min(1),
  description: z.string().min(1),
  html: z.string(),
});
type Content = z.infer<typeof content>;

export default function Page({ content }: PageProps<Content>) {
  return (
    <article className="prose">
      <h1>{content.title}</h1>
      <div dangerouslySetInnerHTML={{ __html: content.html }} />
    </article>
  );
}
