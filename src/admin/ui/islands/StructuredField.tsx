/**
 * The inputs of a collection's list, object and image fields in the entry form (issue 48): a list
 * is a repeater (one row per item, with add and remove), an object a group of its fields, an
 * image its file name and its alt text. Each part follows the field's declaration, as the build
 * checks it; the server's 422 names the part (`links[1].url`).
 */
import type { ReactElement } from 'react';

/** A field as the config declares it (`collections.<c>.fields.<name>`), as the collections API hands it on. */
export interface DeclaredField {
  type: string;
  required: boolean;
  label?: string;
  options?: string[];
  of?: 'string' | 'number' | Record<string, DeclaredField>;
  fields?: Record<string, DeclaredField>;
}

/** The words of the repeater's buttons, from the admin's copy. */
export interface StructuredFieldText {
  addItem: string;
  removeItem: string;
}

/** "authorRole" → "Author role": a part's label when its declaration has none. */
export function wordsOf(name: string): string {
  const words = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The empty value of a declared field: what a new item of a list starts as. */
export function emptyValue(field: DeclaredField): unknown {
  if (field.type === 'list') return [];
  if (field.type === 'object' || field.type === 'image') return {};
  return '';
}

/**
 * The value as the front matter takes it: empty texts and items left out (an optional part left
 * empty is not written), numbers as numbers; undefined when nothing is left.
 */
export function prunedValue(field: DeclaredField, value: unknown): unknown {
  if (field.type === 'list') {
    const item: DeclaredField =
      typeof field.of === 'object'
        ? { type: 'object', required: true, fields: field.of }
        : { type: field.of ?? 'string', required: true };
    const items = (Array.isArray(value) ? value : [])
      .map((each) => prunedValue(item, each))
      .filter((each) => each !== undefined);
    return items.length ? items : undefined;
  }
  if (field.type === 'object' || field.type === 'image') {
    const parts: Record<string, DeclaredField> =
      field.type === 'image'
        ? { src: { type: 'string', required: true }, alt: { type: 'string', required: true } }
        : (field.fields ?? {});
    const source = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
    const kept = Object.entries(parts).flatMap(([name, part]) => {
      const each = prunedValue(part, source[name]);
      return each === undefined ? [] : [[name, each] as const];
    });
    return kept.length ? Object.fromEntries(kept) : undefined;
  }
  if (value === '' || value === undefined || value === null || (field.type === 'boolean' && value === false))
    return undefined;
  if (field.type === 'number' && typeof value === 'string' && !Number.isNaN(Number(value))) return Number(value);
  return value;
}

const structured = (field: DeclaredField) => field.type === 'list' || field.type === 'object' || field.type === 'image';

/** The inputs of one list, object or image field (or of a part of one), named after its path; `labelledBy`: the id of the text that names it. */
export default function StructuredField(props: {
  id: string;
  labelledBy: string;
  /** An item of a list: named by the list's name, as it has no label of its own. */
  item?: boolean;
  field: DeclaredField;
  value: unknown;
  text: StructuredFieldText;
  /** The media library's chooser of an image for an image field, told where the chosen file's name goes. */
  imagePicker?: (onChosen: (name: string) => void) => ReactElement | null;
  onChange(value: unknown): void;
}): ReactElement {
  const { id, labelledBy, field, value, text, imagePicker, onChange } = props;
  const named = props.item ? { 'aria-labelledby': labelledBy } : {};
  if (field.type === 'list') {
    const items = Array.isArray(value) ? value : [];
    const item: DeclaredField =
      typeof field.of === 'object'
        ? { type: 'object', required: true, fields: field.of }
        : { type: field.of ?? 'string', required: true };
    const replace = (index: number, next: unknown) => onChange(items.map((each, at) => (at === index ? next : each)));
    return (
      <div className="field-list" id={id} role="group" aria-labelledby={labelledBy}>
        <ol>
          {items.map((each, index) => (
            <li key={index}>
              <StructuredField
                id={`${id}-${index}`}
                labelledBy={labelledBy}
                item
                imagePicker={imagePicker}
                field={item}
                value={each}
                text={text}
                onChange={(next) => replace(index, next)}
              />
              <button
                type="button"
                className="button button-secondary"
                onClick={() => onChange(items.filter((_, at) => at !== index))}
              >
                {text.removeItem}
              </button>
            </li>
          ))}
        </ol>
        <button
          type="button"
          className="button button-secondary"
          onClick={() => onChange([...items, emptyValue(item)])}
        >
          {text.addItem}
        </button>
      </div>
    );
  }
  if (field.type === 'object' || field.type === 'image') {
    const parts: Record<string, DeclaredField> =
      field.type === 'image'
        ? { src: { type: 'string', required: true }, alt: { type: 'string', required: true } }
        : (field.fields ?? {});
    const current = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
    return (
      <div className="field-group" id={id} role="group" aria-labelledby={labelledBy}>
        {Object.entries(parts).map(([name, part]) => (
          <div key={name} className="field">
            {structured(part) ? (
              <p id={`${id}-${name}-label`} className="field-legend">
                {part.label ?? wordsOf(name)}
                {part.required ? ' *' : ''}
              </p>
            ) : (
              <label htmlFor={`${id}-${name}`}>
                {part.label ?? wordsOf(name)}
                {part.required ? ' *' : ''}
              </label>
            )}
            <StructuredField
              id={`${id}-${name}`}
              labelledBy={`${id}-${name}-label`}
              field={part}
              value={current[name]}
              text={text}
              imagePicker={imagePicker}
              onChange={(next) => onChange({ ...current, [name]: next })}
            />
          </div>
        ))}
        {field.type === 'image' && imagePicker?.((name) => onChange({ ...current, src: name }))}
      </div>
    );
  }
  if (field.type === 'select' && field.options)
    return (
      <select id={id} {...named} value={String(value ?? '')} onChange={(event) => onChange(event.currentTarget.value)}>
        <option value="">—</option>
        {field.options.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
    );
  if (field.type === 'boolean')
    return (
      <input
        id={id}
        {...named}
        type="checkbox"
        checked={value === true}
        onChange={(event) => onChange(event.currentTarget.checked)}
      />
    );
  if (field.type === 'markdown')
    return (
      <textarea
        id={id}
        {...named}
        rows={3}
        value={String(value ?? '')}
        onInput={(event) => onChange(event.currentTarget.value)}
      />
    );
  return (
    <input
      id={id}
      {...named}
      type={field.type === 'number' ? 'number' : field.type === 'date' ? 'date' : 'text'}
      value={String(value ?? '')}
      onInput={(event) => onChange(event.currentTarget.value)}
    />
  );
}
