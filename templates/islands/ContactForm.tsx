/**
 * The contact form. Without script it is a plain form POST to the endpoint; hydrated, it checks
 * the fields with the shared schema, posts JSON and shows the sending, success and error states.
 */
import { useEffect, useRef, useState, type FormEvent, type ReactElement } from 'react';
import { contactLimits, contactTypes, honeypotField, requiredContactFields, validateContact } from 'site/contact-schema';

type Status = 'idle' | 'sending' | 'success' | 'error' | 'invalid';
type FieldName = 'firstName' | 'lastName' | 'email' | 'company' | 'type' | 'subject' | 'message';

/** Labels and messages in the page's language, and where to send. */
export interface ContactFormProps {
  /** Prefix of element ids, unique on the page. */
  idPrefix: string;
  endpoint: string;
  locale: string;
  page: string;
  defaultType: (typeof contactTypes)[number];
  labels: Record<FieldName, string> & { legend: string; requiredMarker: string; requiredNote: string; submit: string; sending: string; honeypot: string };
  types: Record<(typeof contactTypes)[number], string>;
  messages: {
    missingTitle: string;
    missingText: string;
    successTitle: string;
    successText: string;
    errorTitle: string;
    errorText: string;
    required: string;
    invalidEmail: string;
    tooLong: string;
  };
}

const required = new Set<string>(requiredContactFields);

export default function ContactForm(props: ContactFormProps) {
  const id = props.idPrefix;
  const formRef = useRef<HTMLFormElement>(null);
  const statusRef = useRef<HTMLDivElement>(null);
  const [status, setStatus] = useState<Status>('idle');
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const { labels, messages } = props;

  // Without script the browser checks required fields itself; once hydrated, the form does.
  useEffect(() => {
    if (formRef.current) formRef.current.noValidate = true;
  }, []);

  const errorMessage = (key: string) => (key === 'invalidEmail' ? messages.invalidEmail : key === 'tooLong' ? messages.tooLong : messages.required);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = Object.fromEntries(new FormData(form).entries()) as Record<string, string>;
    if (data[honeypotField]) {
      form.reset();
      setStatus('success');
      return;
    }
    const checked = validateContact(data);
    if ('fieldErrors' in checked) {
      setFieldErrors(checked.fieldErrors);
      setStatus('invalid');
      const first = form.querySelector<HTMLElement>(`[name="${Object.keys(checked.fieldErrors)[0]}"]`);
      first?.focus();
      return;
    }
    setFieldErrors({});
    setStatus('sending');
    try {
      // A form service on another origin gets a plain urlencoded form: every service takes it, and
      // it is a simple request (no CORS preflight). The site's own endpoint gets JSON.
      const external = /^https?:\/\//.test(props.endpoint);
      const response = await fetch(props.endpoint, {
        method: 'POST',
        headers: { 'content-type': external ? 'application/x-www-form-urlencoded' : 'application/json', accept: 'application/json' },
        body: external ? new URLSearchParams(checked.data as Record<string, string>) : JSON.stringify(checked.data),
      });
      if (!response.ok) throw new Error(`status ${response.status}`);
      form.reset();
      setStatus('success');
    } catch {
      setStatus('error');
    }
    statusRef.current?.focus();
  }

  const field = (name: FieldName, input: (common: Record<string, unknown>) => ReactElement) => {
    const inputId = `${id}-${name}`;
    const error = fieldErrors[name];
    const common = {
      id: inputId,
      name,
      required: required.has(name) || undefined,
      'aria-invalid': error ? true : undefined,
      'aria-describedby': error ? `${inputId}-error` : undefined,
    };
    return (
      <div className={`field field-${name}`}>
        <label htmlFor={inputId}>
          {labels[name]}
          {required.has(name) && (
            <span className="required-marker">
              <span aria-hidden="true"> *</span>
              <span className="visually-hidden"> ({labels.requiredMarker})</span>
            </span>
          )}
        </label>
        {input(common)}
        {error && (
          <p className="field-error" id={`${inputId}-error`}>
            {errorMessage(error)}
          </p>
        )}
      </div>
    );
  };

  const banner =
    status === 'success' ? { title: messages.successTitle, text: messages.successText, tone: 'success' }
    : status === 'error' ? { title: messages.errorTitle, text: messages.errorText, tone: 'error' }
    : status === 'invalid' ? { title: messages.missingTitle, text: messages.missingText, tone: 'error' }
    : undefined;

  return (
    <form ref={formRef} className="contact-form" method="post" action={props.endpoint} onSubmit={submit} aria-describedby={`${id}-note`}>
      <fieldset>
        <legend>{labels.legend}</legend>
        <p className="form-note" id={`${id}-note`}>{labels.requiredNote}</p>
        <div className="form-grid">
          {field('firstName', (common) => <input {...common} type="text" autoComplete="given-name" maxLength={contactLimits.name} />)}
          {field('lastName', (common) => <input {...common} type="text" autoComplete="family-name" maxLength={contactLimits.name} />)}
          {field('email', (common) => <input {...common} type="email" autoComplete="email" maxLength={contactLimits.email} />)}
          {field('company', (common) => <input {...common} type="text" autoComplete="organization" maxLength={contactLimits.company} />)}
          {field('type', (common) => (
            <select {...common} defaultValue={props.defaultType}>
              {contactTypes.map((type) => (
                <option key={type} value={type}>{props.types[type]}</option>
              ))}
            </select>
          ))}
          {field('subject', (common) => <input {...common} type="text" maxLength={contactLimits.subject} />)}
          {field('message', (common) => <textarea {...common} rows={6} maxLength={contactLimits.message} />)}
        </div>
        <div className="honeypot" aria-hidden="true">
          <label htmlFor={`${id}-${honeypotField}`}>{labels.honeypot}</label>
          <input id={`${id}-${honeypotField}`} name={honeypotField} type="text" tabIndex={-1} autoComplete="off" />
        </div>
        <input type="hidden" name="locale" value={props.locale} />
        <input type="hidden" name="page" value={props.page} />
        <div className="form-status" role="status" aria-live="polite" tabIndex={-1} ref={statusRef}>
          {banner && (
            <div className={`banner banner-${banner.tone}`}>
              <p className="banner-title">{banner.title}</p>
              <p>{banner.text}</p>
            </div>
          )}
        </div>
        <button type="submit" className="button button-primary" disabled={status === 'sending'}>
          {status === 'sending' ? labels.sending : labels.submit}
        </button>
      </fieldset>
    </form>
  );
}
