/**
 * The contact form. Without script it is a plain form POST to the endpoint; hydrated, it checks
 * the fields with the shared schema, posts JSON and shows the sending and error states; once
 * sent, a thank-you panel takes the form's place.
 */
import { useEffect, useRef, useState, type FormEvent, type ReactElement } from 'react';
import {
  contactLimits,
  contactPlanParameter,
  contactTopicParameter,
  honeypotField,
  requiredContactFields,
  validateContact,
} from 'typed-site/contact-schema';
import { formField, type FieldInputProps } from './form-field';

type Status = 'idle' | 'sending' | 'success' | 'error' | 'invalid';
type FieldName = 'firstName' | 'lastName' | 'email' | 'company' | 'type' | 'subject' | 'message';

/** Labels and messages in the page's language, and where to send. */
export interface ContactFormProps {
  /** Prefix of element ids, unique on the page. */
  idPrefix: string;
  endpoint: string;
  locale: string;
  page: string;
  /** The enquiry type the audience decides; without one "I am a" starts on an empty choice. */
  defaultType?: string;
  labels: Record<FieldName, string> & {
    legend: string;
    requiredMarker: string;
    requiredNote: string;
    submit: string;
    sending: string;
    honeypot: string;
    chooseType: string;
    sendAnother: string;
  };
  /** The site's enquiry types (contact.types), in display order, with their labels. */
  types: Record<string, string>;
  /**
   * Subjects a link may preselect: `?plan=<id>` picks `plans[id]`, `?topic=meeting` picks
   * `topics.meeting`. Read once hydrated; without script the subject starts empty.
   */
  plans: Record<string, string>;
  topics: { meeting: string };
  /** The subject the form starts with (the booking's fallback preselects the meeting). */
  subject?: string;
  messages: {
    missingTitle: string;
    missingText: string;
    /** Shown when every required field is filled but some are not valid; `{fields}` lists their labels. */
    checkTitle: string;
    checkText: string;
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
  const panelRef = useRef<HTMLDivElement>(null);

  // Without script the browser checks required fields itself; once hydrated, the form does.
  useEffect(() => {
    if (formRef.current) formRef.current.noValidate = true;
  }, [status]);

  // A link such as "Start for free" (…/contactus/?plan=free) preselects what the message is about.
  useEffect(() => {
    const query = new URLSearchParams(window.location.search);
    const plan = query.get(contactPlanParameter);
    const subject =
      plan !== null && Object.hasOwn(props.plans, plan)
        ? props.plans[plan]
        : query.get(contactTopicParameter) === 'meeting'
          ? props.topics.meeting
          : undefined;
    const input = formRef.current?.elements.namedItem('subject');
    if (subject && input instanceof HTMLInputElement && input.value === '') input.value = subject;
  }, [props.plans, props.topics]);

  // The thank-you panel replaces the form: focus moves to it so screen readers announce it.
  useEffect(() => {
    if (status === 'success') panelRef.current?.focus();
  }, [status]);

  const errorMessage = (key: string) =>
    key === 'invalidEmail' ? messages.invalidEmail : key === 'tooLong' ? messages.tooLong : messages.required;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = Object.fromEntries(new FormData(form).entries()) as Record<string, string>;
    if (data[honeypotField]) {
      setStatus('success');
      return;
    }
    const checked = validateContact(data, Object.keys(props.types));
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
        headers: {
          'content-type': external ? 'application/x-www-form-urlencoded' : 'application/json',
          accept: 'application/json',
        },
        body: external ? new URLSearchParams(checked.data as Record<string, string>) : JSON.stringify(checked.data),
      });
      if (!response.ok) throw new Error(`status ${response.status}`);
      setStatus('success');
    } catch {
      setStatus('error');
    }
    statusRef.current?.focus();
  }

  const field = (name: FieldName, input: (common: FieldInputProps) => ReactElement) =>
    formField(
      {
        id: `${id}-${name}`,
        name,
        label: labels[name],
        required: required.has(name),
        requiredLabel: labels.requiredMarker,
        error: fieldErrors[name] && errorMessage(fieldErrors[name]),
      },
      input,
    );

  const invalidFields = Object.keys(fieldErrors);
  const missing = invalidFields.some((name) => fieldErrors[name] === 'required');
  const fieldList = invalidFields.map((name) => labels[name as FieldName] ?? name).join(', ');
  const banner =
    status === 'error'
      ? { title: messages.errorTitle, text: messages.errorText, tone: 'error' }
      : status === 'invalid' && missing
        ? { title: messages.missingTitle, text: messages.missingText, tone: 'error' }
        : status === 'invalid'
          ? { title: messages.checkTitle, text: messages.checkText.replace('{fields}', fieldList), tone: 'error' }
          : undefined;

  if (status === 'success') {
    return (
      <div className="contact-form thank-you" role="status" tabIndex={-1} ref={panelRef}>
        <h2 className="thank-you-title">{messages.successTitle}</h2>
        <p>{messages.successText}</p>
        <button type="button" className="button button-secondary" onClick={() => setStatus('idle')}>
          {labels.sendAnother}
        </button>
      </div>
    );
  }

  return (
    <form
      ref={formRef}
      className="contact-form"
      method="post"
      action={props.endpoint}
      onSubmit={submit}
      aria-describedby={`${id}-note`}
    >
      <fieldset>
        <legend>{labels.legend}</legend>
        <p className="form-note" id={`${id}-note`}>
          {labels.requiredNote}
        </p>
        <div className="form-grid">
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
          {/* A site without enquiry types (contact.types) asks for none. */}
          {Object.keys(props.types).length > 0 &&
            field('type', (common) => (
              <select {...common} defaultValue={props.defaultType ?? ''}>
                {!props.defaultType && <option value="">{labels.chooseType}</option>}
                {Object.entries(props.types).map(([type, label]) => (
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
