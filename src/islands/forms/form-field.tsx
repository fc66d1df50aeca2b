/**
 * What the engine's forms share: a labelled field whose input gets its id, name, `required` and,
 * with an error, `aria-invalid` and the error's id in `aria-describedby`; the marker of a required
 * field (a star hidden from screen readers, a word for them); the message of the live region; the
 * honeypot. Classes only, never a style attribute: the site's stylesheet styles them (the CSP
 * forbids inline styles). Not an island itself.
 */
import type { ReactElement, ReactNode } from 'react';
import { fillText } from './form-copy';

/** The attributes a field's input receives. */
export interface FieldInputProps {
  id: string;
  name: string;
  required: true | undefined;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

/** A field: label, input and its error message; `input` renders the input with the attributes given. */
export function formField(
  field: { id: string; name: string; label: string; required: boolean; requiredWord: string; error?: string },
  input: (props: FieldInputProps) => ReactElement,
): ReactElement {
  const errorId = `${field.id}-error`;
  return (
    <div className={`site-form-field site-form-field-${field.name}`} key={field.name}>
      <label className="site-form-label" htmlFor={field.id}>
        {field.label}
        {field.required && <RequiredMarker word={field.requiredWord} />}
      </label>
      {input({
        id: field.id,
        name: field.name,
        required: field.required || undefined,
        'aria-invalid': field.error ? true : undefined,
        'aria-describedby': field.error ? errorId : undefined,
      })}
      {field.error && <FieldError id={errorId}>{field.error}</FieldError>}
    </div>
  );
}

/** The message under a field that needs attention. */
export function FieldError({ id, children }: { id: string; children: ReactNode }) {
  return (
    <p className="site-form-error" id={id}>
      {children}
    </p>
  );
}

/** The star after a required field's label, and the word screen readers read instead. */
export function RequiredMarker({ word }: { word: string }) {
  return (
    <span className="site-form-required">
      <span aria-hidden="true"> *</span>
      <span className="site-form-visually-hidden"> ({word})</span>
    </span>
  );
}

/** What the live region says: a title and a sentence, in a tone the stylesheet colours. */
export interface StatusMessage {
  tone: 'info' | 'success' | 'error';
  title: string;
  text?: string;
  extra?: ReactNode;
}

/** The content of the live region (`role="status"`: polite). */
export function StatusText({ message }: { message: StatusMessage | undefined }) {
  if (!message) return null;
  return (
    <div className={`site-form-message site-form-message-${message.tone}`}>
      <p className="site-form-message-title">{message.title}</p>
      {message.text && <p className="site-form-message-text">{message.text}</p>}
      {message.extra}
    </div>
  );
}

/**
 * The field only bots fill in (`website`, as the endpoints know it): out of sight, of the keyboard
 * and of the accessibility tree by the `hidden` attribute, so it needs no stylesheet.
 */
export function Honeypot({ id, label, name }: { id: string; label: string; name: string }) {
  return (
    <div className="site-form-honeypot" hidden>
      <label htmlFor={id}>{label}</label>
      <input id={id} name={name} type="text" tabIndex={-1} autoComplete="off" />
    </div>
  );
}

/** The banner of fields that need attention: their labels in `invalidText`'s `{fields}`. */
export function invalidMessage(
  text: { invalidTitle: string; invalidText: string },
  labels: readonly string[],
): StatusMessage {
  return { tone: 'error', title: text.invalidTitle, text: fillText(text.invalidText, { fields: labels.join(', ') }) };
}

/** A field's error message from the schema's key (contact-schema.ts `fieldErrorsOf`). */
export function errorText(
  text: { fieldRequired: string; invalidEmail: string; tooLong: string; invalid: string },
  key: string,
): string {
  return key === 'required'
    ? text.fieldRequired
    : key === 'invalidEmail'
      ? text.invalidEmail
      : key === 'tooLong'
        ? text.tooLong
        : text.invalid;
}
