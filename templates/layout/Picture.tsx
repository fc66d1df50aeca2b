/** An entry's image as a `<picture>`: AVIF and WebP at the widths the build makes, with its size so nothing shifts. */
import { pictureOf, type EntryImage } from 'typed-site/template';

export function Picture({
  image,
  sizes,
  priority = false,
  className,
}: {
  image: EntryImage;
  sizes: string;
  priority?: boolean;
  className?: string;
}) {
  const picture = pictureOf(image);
  return (
    <picture className={className}>
      {picture.sources.map((source) => (
        <source key={source.type} type={source.type} srcSet={source.srcset} sizes={sizes} />
      ))}
      <img
        className={picture.className}
        src={picture.src}
        width={picture.width}
        height={picture.height}
        alt={picture.alt}
        loading={priority ? 'eager' : 'lazy'}
        decoding="async"
        fetchPriority={priority ? 'high' : undefined}
      />
    </picture>
  );
}
