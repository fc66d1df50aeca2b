/**
 * The engine's contact form (`typed-site/islands`), an island a site's template renders with
 * `<Island name="ContactForm" component={ContactForm} props={contactFormProps(…)} />`.
 *
 * Without script it is a plain form POST to the endpoint (the browser checks the required fields),
 * which the endpoint answers with a redirect to the thank-you or failed page of the page's
 * language (`contact.results`). Hydrated, it checks the fields with the shared schema
 * (contact-schema.ts, as the endpoint does), marks each field that needs attention, and posts:
 * JSON to the site's own endpoint, a urlencoded form to a form service's address. Its states are
 * idle, sending, success and error; a polite live region says each, and focus goes to the first
 * field to fix, or to the message once sent or failed. Its words are the engine's copy of the
 * page's language (form-copy.ts) with the site's `text` over them.
 */
import { useEffect, useRef, useState, type FormEvent, type ReactElement } from 'react';
import { contactLimits, honeypotField, requiredContactFields, validateContact } from 'typed-site/contact-schema';
import { contactFormText, type ContactFormText } from './form-copy';
import {
  errorText,
  formField,
  Honeypot,
  invalidMessage,
  StatusText,
  type FieldInputProps,
  type StatusMessage,
} from './form-field';

/** What a page gives the contact form (JSON: it is written into the page for hydration). */
export interface ContactFormProps {
  /** Where the form posts: the config's `contact.endpoint` (`/api/contact`, or a form service's https:// address). */
  endpoint: string;
  /** The page's locale: the copy's language, and the result page the endpoint redirects a plain POST to. */
  locale: string;
  /** The page's URL, stored with the message. */
  page: string;
  /** Prefix of the form's element ids, unique on the page (default "contact"). */
  id?: string;
  /** The enquiry types offered ("I am"), type → label, in display order; without any the form asks for none. */
  types?: Record<string, string>;
  /** The type chosen at first; without it the choice starts empty. */
  defaultType?: string;
  /** The subject the form starts with. */
  subject?: string;
  /** The site's words over the engine's (any key of ContactFormText). */
  text?: Partial<ContactFormText>;
}

type FieldName = 'firstName' | 'lastName' | 'email' | 'company' | 'type' | 'subject' | 'message';
type Status = 'idle' | 'sending' | 'success' | 'error';

const required = new Set<string>(requiredContactFields);

export default function ContactForm(props: ContactFormProps) {
  const id = props.id ?? 'contact';
  const text = contactFormText(props.locale, props.text);
  const types = props.types ?? {};
  const formRef = useRef<HTMLFormElement>(null);
  const statusRef = useRef<HTMLDivElement>(null);
  const [status, setStatus] = useState<Status>('idle');
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  // Bumped by each send that ends (sent or failed): focus then moves to the message.
  const [settled, setSettled] = useState(0);

  // Without script the browser checks the required fields; once hydrated, the form does (and says more).
  useEffect(() => {
    if (formRef.current) formRef.current.noValidate = true;
  }, [status]);

  useEffect(() => {
    if (settled > 0) statusRef.current?.focus();
  }, [settled]);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (status === 'sending') return;
    const form = event.currentTarget;
    const data = Object.fromEntries(new FormData(form).entries()) as Record<string, string>;
    // A bot's submission gets the look of a success, as the endpoint gives it.
    if (data[honeypotField]) {
      setStatus('success');
      setSettled((count) => count + 1);
      return;
    }
    const { [honeypotField]: _honeypot, ...fields } = data;
    const checked = validateContact(fields, Object.keys(types));
    if ('fieldErrors' in checked) {
      setFieldErrors(checked.fieldErrors);
      setStatus('idle');
      form.querySelector<HTMLElement>(`[name="${Object.keys(checked.fieldErrors)[0]}"]`)?.focus();
      return;
    }
    setFieldErrors({});
    setStatus('sending');
    let outcome: Status = 'error';
    try {
      // A form service on another origin gets a plain urlencoded form: every service takes it, and
      // it is a simple request (no CORS preflight). The site's own endpoint gets JSON.
      const external = /^https?:\/\//.test(props.endpoint);
      const body = Object.fromEntries(
        Object.entries(checked.data).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
      );
      const response = await fetch(props.endpoint, {
        method: 'POST',
        headers: {
          'content-type': external ? 'application/x-www-form-urlencoded' : 'application/json',
          accept: 'application/json',
        },
        body: external ? new URLSearchParams(body) : JSON.stringify(body),
      });
      if (response.ok) outcome = 'success';
      else if (response.status === 400) {
        // The endpoint disagrees about a field (a rule the browser cannot know): shown at the field.
        const answer = (await response.json().catch(() => ({}))) as { fields?: Record<string, string> };
        const known = Object.fromEntries(
          Object.entries(answer.fields ?? {}).filter(([name]) => name in fieldLabels(text)),
        );
        if (Object.keys(known).length > 0) {
          setFieldErrors(known);
          setStatus('idle');
          form.querySelector<HTMLElement>(`[name="${Object.keys(known)[0]}"]`)?.focus();
          return;
        }
      }
    } catch {
      // The network failed: the error state says so, and everything typed stays.
    }
    setStatus(outcome);
    setSettled((count) => count + 1);
  }

  const labels = fieldLabels(text);
  const invalid = Object.keys(fieldErrors);
  const message: StatusMessage | undefined =
    status === 'sending'
      ? { tone: 'info', title: text.sendingText }
      : status === 'success'
        ? { tone: 'success', title: text.successTitle, text: text.successText }
        : status === 'error'
          ? { tone: 'error', title: text.errorTitle, text: text.errorText }
          : invalid.length > 0
            ? invalidMessage(
                text,
                invalid.map((name) => labels[name as FieldName] ?? name),
              )
            : undefined;

  const field = (name: FieldName, input: (common: FieldInputProps) => ReactElement) =>
    formField(
      {
        id: `${id}-${name}`,
        name,
        label: labels[name],
        required: required.has(name),
        requiredWord: text.requiredWord,
        error: fieldErrors[name] && errorText(text, fieldErrors[name]),
      },
      input,
    );

  return (
    <div className="site-form site-form-contact" data-state={status}>
      <div className="site-form-status" role="status" aria-live="polite" tabIndex={-1} ref={statusRef}>
        <StatusText message={message} />
      </div>
      {status === 'success' ? (
        <button type="button" className="site-form-again" onClick={() => setStatus('idle')}>
          {text.sendAnother}
        </button>
      ) : (
        <form
          ref={formRef}
          className="site-form-form"
          method="post"
          action={props.endpoint}
          onSubmit={submit}
          aria-describedby={`${id}-required-note`}
        >
          <fieldset className="site-form-fieldset">
            <legend className="site-form-legend">{text.legend}</legend>
            <p className="site-form-note" id={`${id}-required-note`}>
              {text.requiredNote}
            </p>
            <div className="site-form-fields">
              {field('firstName', (common) => (
                <input {...common} type="text" autoComplete="given-name" maxLength={contactLimits.name} />
              ))}
              {field('lastName', (common) => (
                <input {...common} type="text" autoComplete="family-name" maxLength={contactLimits.name} />
              ))}
              {field('email', (common) => (
                <input {...common} type="email" autoComplete="email" maxLength={contactLimits.email} />
              ))}
              {field('company', (common) => (
                <input {...common} type="text" autoComplete="organization" maxLength={contactLimits.company} />
              ))}
              {Object.keys(types).length > 0 &&
                field('type', (common) => (
                  <select {...common} defaultValue={props.defaultType ?? ''}>
                    {!props.defaultType && <option value="">{text.chooseType}</option>}
                    {Object.entries(types).map(([type, label]) => (
                      <option key={type} value={type}>
                        {label}
                      </option>
                    ))}
                  </select>
                ))}
              {field('subject', (common) => (
                <input {...common} type="text" maxLength={contactLimits.subject} defaultValue={props.subject} />
              ))}
              {field('message', (common) => (
                <textarea {...common} rows={6} maxLength={contactLimits.message} />
              ))}
            </div>
            <Honeypot id={`${id}-${honeypotField}`} name={honeypotField} label={text.honeypot} />
            <input type="hidden" name="locale" value={props.locale} />
            <input type="hidden" name="page" value={props.page} />
            <button type="submit" className="site-form-submit" disabled={status === 'sending'}>
              {status === 'sending' ? text.sending : text.submit}
            </button>
          </fieldset>
        </form>
      )}
    </div>
  );
}

/** The label of each field, by its name. */
function fieldLabels(text: ContactFormText): Record<FieldName, string> {
  return {
    firstName: text.firstName,
    lastName: text.lastName,
    email: text.email,
    company: text.company,
    type: text.type,
    subject: text.subject,
    message: text.message,
  };
}
