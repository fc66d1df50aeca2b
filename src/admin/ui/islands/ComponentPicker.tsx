/**
 * "Component…" in the Markdown editor's toolbar: a modal dialog of the site's content components
 * (`GET /api/admin/components`: the site's templates/content/ and the engine's callout, figure and
 * video), each with a form made from its props schema (a choice is a select, a number a number
 * field, true/false a checkbox, the rest text), its Markdown inside or its label, and the directive
 * form to write (`:::name` around Markdown, `::name` on a line, `:name[…]` in a sentence). "Insert"
 * hands the directive's text to the editor, which puts it at the cursor; a required attribute left
 * empty is named in the form and nothing is inserted. A native `<dialog>` opened with showModal:
 * focus moves into it and stays there, Escape closes it, and focus returns to the button.
 */
import { useRef, useState } from 'react';
import { callApi } from './admin-client';

/** The picker's copy keys (content/pages/admin/blog/<locale>.yaml, `components:`). */
export const componentPickerText = [
  'open',
  'title',
  'choose',
  'form',
  'container',
  'leaf',
  'text',
  'content',
  'insert',
  'close',
  'loading',
  'none',
  'failed',
  'required',
  'builtIn',
] as const;
export type ComponentPickerText = Record<(typeof componentPickerText)[number], string>;

/** An attribute of a component as the API describes it (content/component-uses.ts ComponentField). */
interface Field {
  name: string;
  type: 'text' | 'number' | 'boolean' | 'choice' | 'url' | 'image';
  required: boolean;
  options?: string[];
  default?: string;
  description?: string;
}

/** A component as `GET /api/admin/components` lists it. */
interface Component {
  name: string;
  kind: 'engine' | 'site';
  description?: string;
  fields: Field[];
}

type Form = 'container' | 'leaf' | 'text';

export interface ComponentPickerProps {
  text: ComponentPickerText;
  disabled?: boolean;
  /** Told the directive's text and whether it is a block (on lines of its own) or in a line. */
  onInsert(markdown: string, block: boolean): void;
}

/** An attribute's value as a directive writes it: quoted, its quotes as character references. */
function quoted(value: string): string {
  return `"${value.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}"`;
}

/** The directive's Markdown for a component, its attributes (those given) and its content. */
export function directiveOf(name: string, form: Form, values: Record<string, string>, content: string): string {
  const attributes = Object.entries(values)
    .filter(([, value]) => value !== '')
    .map(([key, value]) => `${key}=${quoted(value)}`)
    .join(' ');
  const braces = attributes ? `{${attributes}}` : '';
  const label = content.replace(/\n+/g, ' ').replace(/[[\]]/g, (bracket) => `\\${bracket}`);
  if (form === 'container') return `:::${name}${braces}\n${content.trim() || '…'}\n:::`;
  if (form === 'leaf') return `::${name}${label ? `[${label}]` : ''}${braces}`;
  return `:${name}[${label || name}]${braces}`;
}

export default function ComponentPicker(props: ComponentPickerProps) {
  const { text } = props;
  const dialog = useRef<HTMLDialogElement>(null);
  const [components, setComponents] = useState<Component[] | undefined>();
  const [problem, setProblem] = useState('');
  const [chosen, setChosen] = useState('');
  const [form, setForm] = useState<Form>('container');
  const [values, setValues] = useState<Record<string, string>>({});
  const [content, setContent] = useState('');
  const [missing, setMissing] = useState<string[]>([]);

  async function open() {
    setProblem('');
    setMissing([]);
    dialog.current?.showModal();
    if (components) return;
    const answer = await callApi<Component[] & { message?: string }>('GET', '/api/admin/components');
    if (answer.status !== 200)
      return setProblem(text.failed.replace('{reason}', answer.body?.message ?? `HTTP ${answer.status}`));
    setComponents(answer.body);
    if (answer.body[0]) choose(answer.body[0]);
  }

  function choose(component: Component) {
    setChosen(component.name);
    setValues(Object.fromEntries(component.fields.map((field) => [field.name, ''])));
    setMissing([]);
    // A component with a required image or address reads best on a line of its own; one with none, around Markdown.
    setForm(component.fields.some((field) => field.required) ? 'leaf' : 'container');
  }

  const component = components?.find((each) => each.name === chosen);

  function insert() {
    if (!component) return;
    const absent = component.fields.filter((field) => field.required && !values[field.name]).map((field) => field.name);
    setMissing(absent);
    if (absent.length) return;
    props.onInsert(directiveOf(component.name, form, values, content), form !== 'text');
    dialog.current?.close();
    setContent('');
  }

  const id = (name: string) => `component-field-${name}`;
  return (
    <>
      <button type="button" className="button button-secondary" disabled={props.disabled} onClick={() => void open()}>
        {text.open}
      </button>
      <dialog ref={dialog} className="media-picker component-picker" aria-labelledby="component-picker-title">
        <form
          method="dialog"
          onSubmit={(event) => {
            event.preventDefault();
            insert();
          }}
        >
          <div className="media-picker-head">
            <h2 id="component-picker-title">{text.title}</h2>
          </div>
          {problem && <p role="alert">{problem}</p>}
          {!components && !problem && <p>{text.loading}</p>}
          {components && !components.length && <p>{text.none}</p>}
          {components && component && (
            <>
              <div className="field">
                <label htmlFor="component-choice">{text.choose}</label>
                <select
                  id="component-choice"
                  value={chosen}
                  onChange={(event) => choose(components.find((each) => each.name === event.currentTarget.value)!)}
                >
                  {components.map((each) => (
                    <option key={each.name} value={each.name}>
                      {each.name}
                      {each.kind === 'engine' ? ` (${text.builtIn})` : ''}
                    </option>
                  ))}
                </select>
                {component.description && <p className="muted">{component.description}</p>}
              </div>
              {component.fields.map((field) => (
                <div className="field" key={`${component.name}.${field.name}`}>
                  {field.type === 'boolean' ? (
                    <label>
                      <input
                        type="checkbox"
                        checked={values[field.name] === 'true'}
                        onChange={(event) =>
                          setValues({ ...values, [field.name]: event.currentTarget.checked ? 'true' : '' })
                        }
                      />{' '}
                      {field.name}
                    </label>
                  ) : (
                    <label htmlFor={id(field.name)}>
                      {field.name}
                      {field.required ? ' *' : ''}
                    </label>
                  )}
                  {field.type === 'choice' ? (
                    <select
                      id={id(field.name)}
                      value={values[field.name] ?? ''}
                      onChange={(event) => setValues({ ...values, [field.name]: event.currentTarget.value })}
                    >
                      <option value="">{field.default !== undefined ? `(${field.default})` : '—'}</option>
                      {field.options!.map((option) => (
                        <option key={option} value={option}>
                          {option}
                        </option>
                      ))}
                    </select>
                  ) : field.type === 'boolean' ? null : (
                    <input
                      id={id(field.name)}
                      type={field.type === 'number' ? 'number' : field.type === 'url' ? 'url' : 'text'}
                      value={values[field.name] ?? ''}
                      placeholder={field.default}
                      aria-invalid={missing.includes(field.name) || undefined}
                      aria-describedby={field.description ? `${id(field.name)}-about` : undefined}
                      onInput={(event) => setValues({ ...values, [field.name]: event.currentTarget.value })}
                    />
                  )}
                  {field.description && (
                    <p id={`${id(field.name)}-about`} className="muted">
                      {field.description}
                    </p>
                  )}
                  {missing.includes(field.name) && (
                    <p className="field-error" role="alert">
                      {text.required.replace('{label}', field.name)}
                    </p>
                  )}
                </div>
              ))}
              <fieldset className="field">
                <legend>{text.form}</legend>
                {(['container', 'leaf', 'text'] as const).map((each) => (
                  <label key={each}>
                    <input
                      type="radio"
                      name="component-form"
                      value={each}
                      checked={form === each}
                      onChange={() => setForm(each)}
                    />{' '}
                    {text[each]}
                  </label>
                ))}
              </fieldset>
              <div className="field">
                <label htmlFor="component-content">{text.content}</label>
                <textarea
                  id="component-content"
                  rows={4}
                  value={content}
                  onInput={(event) => setContent(event.currentTarget.value)}
                />
              </div>
            </>
          )}
          <p className="admin-actions">
            {component && (
              <button type="submit" className="button button-primary">
                {text.insert}
              </button>
            )}{' '}
            <button type="button" className="button button-secondary" onClick={() => dialog.current?.close()}>
              {text.close}
            </button>
          </p>
        </form>
      </dialog>
    </>
  );
}
