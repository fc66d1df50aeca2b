/** `::figure[The caption]{src="jacket.jpg" alt="…"}`: an image beside the document, with its caption. */
import { z } from 'zod';
import type { ContentComponentProps } from 'typed-site/template';

export const description = 'An image beside the Markdown file, with a caption.';

export const props = z.object({
  src: z
    .string()
    .regex(/^(?:\.\/)?\w[\w.-]*\.(?:png|jpe?g|webp|avif|gif)$/i, 'name an image file beside the Markdown file, as in jacket.jpg')
    .describe('an image file beside the Markdown file'),
  alt: z.string().trim().min(1, 'describe the image for those who cannot see it').describe('what the image shows'),
});

export default function Figure({ children, images }: ContentComponentProps<z.output<typeof props>>) {
  return (
    <figure className="site-figure">
      {images.src}
      {children ? <figcaption>{children}</figcaption> : null}
    </figure>
  );
}
