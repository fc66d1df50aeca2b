/**
 * The parts the contact and booking forms share: a labelled field whose input gets its id, name,
 * `required` and, when it has an error, `aria-invalid` and the error's id; and the marker of a
 * required field (a visible star, a word for screen readers). Not an island itself.
 */
import type { ReactElement } from 'react';

/** The attributes a field's input receives. */
export type FieldInputProps = {
  id: string;
  name: string;
  required: true | undefined;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
};

/** A field: label, input and error message; `input` renders the input with the props given. */
export function formField(
  field: { id: string; name: string; label: string; required: boolean; requiredLabel: string; error?: string },
  input: (props: FieldInputProps) => ReactElement,
): ReactElement {
  const errorId = `${field.id}-error`;
  return (
    <div className={`field field-${field.name}`}>
      <label htmlFor={field.id}>
        {field.label}
        {field.required && <RequiredMarker label={field.requiredLabel} />}
      </label>
      {input({
        id: field.id,
        name: field.name,
        required: field.required || undefined,
        'aria-invalid': field.error ? true : undefined,
        'aria-describedby': field.error ? errorId : undefined,
      })}
      {field.error && (
        <p className="field-error" id={errorId}>
          {field.error}
        </p>
      )}
    </div>
  );
}

/** The star after a required field's label, with the word for screen readers. */
export function RequiredMarker({ label }: { label: string }) {
  return (
    <span className="required-marker">
      <span aria-hidden="true"> *</span>
      <span className="visually-hidden"> ({label})</span>
    </span>
  );
}
