/**
 * "Choose from the library": a button that opens a modal dialog of the media library's images
 * (`GET /api/admin/media`), each a button named by its alt text in the editor's language (the
 * library's, else an entry's `imageAlt`, else its file name), with its thumbnail. Choosing one copies it into the entry's folder
 * (`POST /api/admin/media/<id>/use`) and hands its file name to the editor, which saves it in the
 * front matter as an upload's. A native `<dialog>` opened with showModal: focus moves into it and
 * stays there, Escape closes it, and focus returns to the button.
 */
import { useId, useRef, useState } from 'react';
import { callApi } from './admin-client';

/** The picker's copy keys (content/pages/admin/blog/<locale>.yaml, `picker:`). */
export const mediaPickerText = ['choose', 'title', 'close', 'loading', 'empty', 'failed', 'noAlt', 'chosen'] as const;
export type MediaPickerText = Record<(typeof mediaPickerText)[number], string>;

/** An image of the library, as the picker shows it. */
interface PickerImage {
  id: string;
  file: string;
  alt: Record<string, string>;
  uses: { locale: string; imageAlt?: string }[];
}

export interface MediaPickerProps {
  text: MediaPickerText;
  csrf: string;
  collection: string;
  slug: string;
  /** The language of the entry being edited: the images are named by their alt text in it. */
  locale: string;
  disabled?: boolean;
  /** The id of the text that says what the button needs (why it is off). */
  describedBy?: string;
  /** Told the file name for the front matter's `image`. */
  onChosen(path: string): void;
  /** Told what happened, for the editor's status line. */
  onNotice(message: string): void;
}

export default function MediaPicker(props: MediaPickerProps) {
  const { text } = props;
  // One per image field of a form: each dialog is named by its own heading.
  const titleId = useId();
  const dialog = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const [images, setImages] = useState<PickerImage[] | undefined>();
  const [problem, setProblem] = useState('');

  async function open() {
    setImages(undefined);
    setProblem('');
    dialog.current?.showModal();
    const answer = await callApi<{ images: PickerImage[]; message?: string }>('GET', '/api/admin/media');
    if (answer.status !== 200)
      return setProblem(text.failed.replace('{reason}', answer.body?.message ?? `HTTP ${answer.status}`));
    setImages(answer.body.images);
  }
  function close() {
    dialog.current?.close();
  }
  async function choose(image: PickerImage) {
    const answer = await callApi<{ path?: string; message?: string }>('POST', `/api/admin/media/${image.id}/use`, {
      csrf: props.csrf,
      body: { collection: props.collection, slug: props.slug },
    });
    if (answer.status !== 200 || !answer.body?.path)
      return setProblem(text.failed.replace('{reason}', answer.body?.message ?? `HTTP ${answer.status}`));
    close();
    props.onChosen(answer.body.path);
    props.onNotice(text.chosen);
  }

  /** Its description in the entry's language: the library's, else that of an entry in that language that shows it. */
  const nameOf = (image: PickerImage) =>
    image.alt[props.locale] ??
    image.uses.find((use) => use.locale === props.locale && use.imageAlt)?.imageAlt ??
    text.noAlt.replace('{file}', image.file);
  return (
    <>
      <button
        ref={opener}
        type="button"
        className="button button-secondary"
        disabled={props.disabled}
        aria-describedby={props.describedBy}
        onClick={() => void open()}
      >
        {text.choose}
      </button>
      <dialog ref={dialog} className="media-picker" aria-labelledby={titleId} onClose={() => opener.current?.focus()}>
        <div className="media-picker-head">
          <h2 id={titleId}>{text.title}</h2>
          <button type="button" className="button button-secondary" onClick={close}>
            {text.close}
          </button>
        </div>
        {problem ? (
          <p className="banner banner-error" role="alert">
            {problem}
          </p>
        ) : !images ? (
          <p role="status">{text.loading}</p>
        ) : images.length === 0 ? (
          <p role="status">{text.empty}</p>
        ) : (
          <ul className="media-picker-grid">
            {images.map((image) => (
              <li key={image.id}>
                <button type="button" className="media-picker-choice" onClick={() => void choose(image)}>
                  <img src={`/api/admin/media/${image.id}/thumbnail`} alt="" width={160} height={90} loading="lazy" />
                  <span>{nameOf(image)}</span>
                </button>
              </li>
            ))}
          </ul>
        )}
      </dialog>
    </>
  );
}
