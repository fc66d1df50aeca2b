/**
 * `::video[Caption]{src="https://www.youtube.com/watch?v=…"}`: a YouTube or Vimeo video as a link
 * to it, with a poster beside the document (`poster="still.jpg"`) or a plain one. Nothing is asked
 * of the video's site before the click: the engine's script (render/component-files.ts) then puts
 * the player (youtube-nocookie.com, player.vimeo.com) in the link's place; without JavaScript the
 * link leads to the video.
 */
import { z } from 'zod';
import type { ContentComponentProps } from 'typed-site/template';
import { componentWords } from './words.js';

/** The provider, the page and the player of a video address, or undefined for one neither YouTube nor Vimeo serves. */
export function videoOf(src: string): { provider: 'YouTube' | 'Vimeo'; page: string; embed: string } | undefined {
  let url: URL;
  try {
    url = new URL(src);
  } catch {
    return undefined;
  }
  const host = url.hostname.replace(/^(www|m)\./, '');
  const youtube =
    host === 'youtu.be'
      ? url.pathname.slice(1)
      : host === 'youtube.com' || host === 'youtube-nocookie.com'
        ? (url.searchParams.get('v') ?? /^\/(?:embed|shorts|live)\/([^/]+)/.exec(url.pathname)?.[1])
        : undefined;
  if (youtube && /^[\w-]{6,20}$/.test(youtube)) {
    return {
      provider: 'YouTube',
      page: `https://www.youtube.com/watch?v=${youtube}`,
      embed: `https://www.youtube-nocookie.com/embed/${youtube}?autoplay=1`,
    };
  }
  const vimeo =
    host === 'vimeo.com' ? /^\/(\d+)/.exec(url.pathname)?.[1] : host === 'player.vimeo.com' ? /^\/video\/(\d+)/.exec(url.pathname)?.[1] : undefined;
  if (vimeo) return { provider: 'Vimeo', page: `https://vimeo.com/${vimeo}`, embed: `https://player.vimeo.com/video/${vimeo}?autoplay=1&dnt=1` };
  return undefined;
}

export const description = 'A YouTube or Vimeo video that loads only when the visitor plays it.';

export const props = z.object({
  src: z
    .string()
    .refine((value) => videoOf(value) !== undefined, 'give the address of a YouTube or Vimeo video')
    .describe('the address of a YouTube or Vimeo video'),
  title: z.string().min(1).optional().describe('what the video is, for the play button'),
  poster: z
    .string()
    .regex(/^(?:\.\/)?\w[\w.-]*\.(?:png|jpe?g|webp|avif|gif)$/i, 'name an image file beside the Markdown file, as in still.jpg')
    .optional()
    .describe('a still beside the Markdown file, shown until the video plays'),
});

export default function Video({ src, title, children, images, site }: ContentComponentProps<z.output<typeof props>>) {
  const video = videoOf(src)!;
  const words = componentWords(site);
  const name = title ?? words.play;
  return (
    <figure className="site-video">
      <a className="site-video-facade" href={video.page} data-video-embed={video.embed} data-video-title={name}>
        {images.poster ?? <span className="site-video-poster" />}
        <span className="site-video-play">
          <span className="site-video-icon" aria-hidden="true" />
          <span>{`${title ? `${words.play}: ${title}` : words.play} (${words.on} ${video.provider})`}</span>
        </span>
      </a>
      {children ? <figcaption>{children}</figcaption> : null}
    </figure>
  );
}
