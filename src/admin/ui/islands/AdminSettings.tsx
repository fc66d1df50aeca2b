/**
 * The settings of /admin/settings: the facts marketers own in site.config.yaml (company, booking,
 * plans, contact form, blog, and the groups the site declares in `admin.settings`), in forms. "Review changes" shows the change as the
 * diff of the file; "Save changes" writes it (If-Match) and the site is rebuilt. Errors come back
 * from the server's check (the config's own schema, the messages `site check` gives) and are
 * shown at their fields and in a summary whose links move focus there. Admins only.
 */
import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import History, { ChangeList, type ChangeInWords, type HistoryProps } from './History';
import { callApi, type AdminSession } from './admin-client';
import { AdminBar, usePageSession } from './admin-bar';
import { plainProblem } from './plain-errors';
import { matchesPattern, type ScreenField, type ScreenGroup } from './setting-paths';

/** The copy keys of the settings page (content/pages/admin/settings/en.yaml, `settings:`). */
export const adminSettingsText = [
  'loading',
  'unavailable',
  'signedInAs',
  'signOut',
  'forbidden',
  'failed',
  'company',
  'booking',
  'plans',
  'plan',
  'contact',
  'collections',
  'onRequest',
  'unlimited',
  'priced',
  'perMonth',
  'perYear',
  'review',
  'reviewing',
  'noChanges',
  'diffHeading',
  'diffHelp',
  'save',
  'saving',
  'keepEditing',
  'saved',
  'savedDev',
  'stale',
  'reload',
  'errorSummary',
  'categories',
  'category',
  'newCategory',
  'newCategoryId',
  'remove',
  'keep',
  'toBeRemoved',
  'copy',
  'propose',
  'proposed',
] as const;

/** Values as `GET /api/admin/settings` gives them. */
interface Values {
  company: {
    legalName: string;
    orgNumber: string;
    email: string;
    address: Record<string, string>;
    social: Record<string, string>;
    openingHours: Record<string, string>;
  };
  booking: { url: string | null; minutes: number };
  plans: {
    id: string;
    name: Record<string, string>;
    price: Price | string;
    highlighted: boolean;
    signupUrl: string | null;
  }[];
  contact: { endpoint: string };
  collections: Record<string, { pageSize: number; wordsPerMinute: number }>;
  /** Each categorised collection's categories: id, name per language, the posts that use it. */
  categories: Record<string, { id: string; names: Record<string, string>; posts: string[] }[]>;
  /** The page texts of `admin.copy`: content folder, dotted key, text per language. */
  copy: { content: string; key: string; values: Record<string, string> }[];
  /** The settings of `admin.settings`: each path the config holds, its value, and under a `*` its row. */
  declared: { path: string; value: unknown; row?: string }[];
}

/** A plan's price as the config holds it (a string, `on-request`, is a plan priced on request). */
interface Price {
  amount: number;
  currency: string;
  period: 'month' | 'year';
}

interface SettingsError {
  path: string | null;
  message: string;
  hint?: string;
}

/** Everything the page shows, from the config and its copy. */
export interface AdminSettingsProps {
  signIn: string;
  /** The site's languages (plan names per language), by id. */
  languages: Record<string, string>;
  /** The groups of settings the site declares (`admin.settings`), in the screen's language. */
  settings: ScreenGroup[];
  text: Record<(typeof adminSettingsText)[number], string>;
  /** Field labels by generic path ("company.legalName", "plans.signupUrl", "collections.pageSize"). */
  fields: Record<string, string>;
  /** Help under a field, by the same keys. */
  hints: Record<string, string>;
  history: HistoryProps['text'];
  /** What to do about a problem at a field (plain-errors.ts). */
  problems: Record<string, string>;
}

/** The engine's paths whose empty field removes the key (the config's optional values). */
const optional = /^(?:booking\.url|plans\.\d+\.signupUrl)$/;
/** The engine's paths of numbers. */
const numeric = /^(?:booking\.minutes|plans\.\d+\.price\.amount|collections\.[^.]+\.(?:pageSize|wordsPerMinute))$/;
/** The fields of a plan's price (kind: `on-request` or `price`), which are sent together as `plans.<i>.price`. */
const priceField = /^plans\.(\d+)\.price\.(?:kind|amount|currency|period)$/;

/** The declared field a path is shown in (a text per language: the path of one language), or undefined for the engine's own. */
function declaredFieldOf(groups: readonly ScreenGroup[], path: string): ScreenField | undefined {
  const parent = path.slice(0, path.lastIndexOf('.'));
  return groups
    .flatMap((group) => group.fields)
    .find((field) =>
      field.type === 'localized-text' ? matchesPattern(field.path, parent) : matchesPattern(field.path, path),
    );
}

/** The fields that hold a time of day (HH:MM). */
const clockTime = /^company\.openingHours\.(?:opens|closes)$/;

/** A declared share's value (0 to 1) as the percentage its field shows. */
const percentOf = (value: number) => String(Number((value * 100).toFixed(6)));

/** The editable leaves of the values, as the text of their fields (booleans as "true"/"false"). */
function fieldsOf(
  values: Values,
  groups: readonly ScreenGroup[],
  locales: readonly string[],
  unlimitedWord: string,
): Map<string, string> {
  const out = new Map<string, string>();
  const text = (value: unknown) => (value === null || value === undefined ? '' : String(value));
  const walk = (value: unknown, path: string) => {
    if (path.match(/^plans\.\d+\.(?:id|price)$/) || path === 'categories' || path === 'copy' || path === 'declared')
      return;
    if (value !== null && typeof value === 'object')
      for (const [key, inner] of Object.entries(value)) walk(inner, path ? `${path}.${key}` : key);
    else out.set(path, text(value));
  };
  walk(values, '');
  for (const { path, value } of values.declared ?? []) {
    const field = groups.flatMap((group) => group.fields).find((declared) => matchesPattern(declared.path, path));
    if (field?.type === 'localized-text')
      for (const locale of locales)
        out.set(`${path}.${locale}`, text((value as Record<string, unknown> | null)?.[locale]));
    else
      out.set(
        path,
        field?.percent && typeof value === 'number'
          ? percentOf(value)
          : field?.unlimited && value === 'unlimited'
            ? unlimitedWord
            : text(value),
      );
  }
  // A plan on request gets an empty price to switch to: the currency of the first priced plan, per month.
  const example = values.plans.map((plan) => plan.price).find((price): price is Price => typeof price === 'object');
  values.plans.forEach((plan, index) => {
    const price = typeof plan.price === 'object' ? plan.price : undefined;
    out.set(`plans.${index}.price.kind`, price ? 'price' : 'on-request');
    out.set(`plans.${index}.price.amount`, price ? String(price.amount) : '');
    out.set(`plans.${index}.price.currency`, price?.currency ?? example?.currency ?? 'EUR');
    out.set(`plans.${index}.price.period`, price?.period ?? 'month');
  });
  (values.copy ?? []).forEach((item, index) => {
    for (const [locale, text] of Object.entries(item.values)) out.set(`copy.${index}.${locale}`, text);
  });
  for (const [collection, categories] of Object.entries(values.categories ?? {})) {
    for (const category of categories)
      for (const [locale, name] of Object.entries(category.names))
        out.set(`categories.${collection}.${category.id}.${locale}`, name);
  }
  return out;
}

/**
 * The value a field's text stands for: null for an empty optional field, "unlimited" for the word
 * in the admin's language (`settings.unlimited`: "ubegrenset") or in English, a number where one is
 * asked (decimal comma too; a declared percentage as its share), a time written with a full stop
 * (09.00, the Norwegian norm) with a colon, else the text. `field` is the declared setting the path
 * belongs to, if any.
 */
function valueOf(
  path: string,
  text: string,
  original: string,
  field?: ScreenField,
  unlimitedWord = 'unlimited',
): string | number | boolean | null {
  if (field ? field.type === 'boolean' : original === 'true' || original === 'false') return text === 'true';
  const trimmed = text.trim();
  if (trimmed === '' && (field ? field.optional : optional.test(path))) return null;
  if (field?.unlimited && [unlimitedWord.toLowerCase(), 'unlimited'].includes(trimmed.toLowerCase()))
    return 'unlimited';
  if (clockTime.test(path) && /^\d{1,2}\.\d{2}$/.test(trimmed)) return trimmed.replace('.', ':').padStart(5, '0');
  if ((field ? field.type === 'number' : numeric.test(path)) && /^-?\d+(?:[.,]\d+)?$/.test(trimmed)) {
    const number = Number(trimmed.replace(',', '.'));
    return field?.percent ? Number((number / 100).toFixed(8)) : number;
  }
  return trimmed;
}

/** A value a change sends: a field's value, or a plan's whole price. */
type ChangeValue = string | number | boolean | null | Record<string, string | number | boolean | null>;

/** A server path ("plans[1].limits.users") as a field path ("plans.1.limits.users"). */
const fieldPath = (path: string | null) => (path ?? '').replace(/\[(\d+)\]/g, '.$1');
const idOf = (path: string) => `setting-${path.replace(/\./g, '-')}`;

export default function AdminSettings(props: AdminSettingsProps) {
  const { text } = props;
  const [loaded, setLoaded] = useState<{ values: Values; version: string; fields: Map<string, string> } | undefined>();
  const [draft, setDraft] = useState<Map<string, string>>(new Map());
  const [errors, setErrors] = useState<SettingsError[]>([]);
  const [review, setReview] = useState<{ diff: string; changes?: ChangeInWords[] } | undefined>();
  const [busy, setBusy] = useState<'reviewing' | 'saving' | undefined>();
  const [notice, setNotice] = useState<{ kind: 'info' | 'error'; text: string; stale?: boolean } | undefined>();
  const [failed, setFailed] = useState(false);
  /** An editor on a site without review: the server refuses the settings (403). */
  const [forbidden, setForbidden] = useState(false);
  /** Categories marked for removal ("blog/events"), and the new category's id and names per collection. */
  const [removed, setRemoved] = useState<Set<string>>(new Set());
  const [added, setAdded] = useState<Record<string, { id: string; names: Record<string, string> }>>({});
  const sessionRef = useRef<AdminSession | undefined>(undefined);
  const reviewRef = useRef<HTMLHeadingElement>(null);
  const summaryRef = useRef<HTMLDivElement>(null);
  const noticeRef = useRef<HTMLParagraphElement>(null);
  // Editors may propose settings when the site has review on (`admin.review`): the server says whether.
  const state = usePageSession(props.signIn, 'editor', (session) => {
    sessionRef.current = session;
    void load();
  });

  async function load() {
    const answer = await callApi<{ values: Values; version: string }>('GET', '/api/admin/settings');
    if (answer.status === 401) return location.assign(props.signIn);
    if (answer.status === 403) return setForbidden(true);
    if (answer.status !== 200) return setFailed(true);
    const fields = fieldsOf(answer.body.values, props.settings, Object.keys(props.languages), text.unlimited);
    setFailed(false);
    setLoaded({ ...answer.body, fields });
    setDraft(new Map(fields));
    setRemoved(new Set());
    setAdded({});
  }

  /** The changes of the draft against the loaded values. */
  function changes(): { path: string; value: ChangeValue }[] {
    if (!loaded) return [];
    const out: { path: string; value: ChangeValue }[] = [];
    const prices = new Set<number>();
    for (const [path, original] of loaded.fields) {
      const now = draft.get(path) ?? original;
      const price = priceField.exec(path);
      if (price) {
        if (now !== original) prices.add(Number(price[1]));
        continue;
      }
      if (now === original) continue;
      const field = declaredFieldOf(props.settings, path);
      const value = valueOf(path, now, original, field, text.unlimited);
      if (value !== valueOf(path, original, original, field, text.unlimited)) out.push({ path, value });
    }
    for (const index of prices) {
      const at = (key: string) => draft.get(`plans.${index}.price.${key}`) ?? '';
      const amount = valueOf(`plans.${index}.price.amount`, at('amount'), '');
      out.push({
        path: `plans.${index}.price`,
        value:
          at('kind') === 'on-request'
            ? null
            : { amount, currency: at('currency').trim().toUpperCase(), period: at('period') },
      });
    }
    for (const key of removed) {
      const [collection, term] = key.split('/');
      for (let index = out.length - 1; index >= 0; index--)
        if (out[index]!.path.startsWith(`categories.${collection}.${term}.`)) out.splice(index, 1);
      out.push({ path: `categories.${collection}.${term}`, value: null });
    }
    for (const [collection, category] of Object.entries(added)) {
      const id = category.id.trim();
      if (!id) continue;
      for (const locale of Object.keys(props.languages))
        out.push({ path: `categories.${collection}.${id}.${locale}`, value: category.names[locale] ?? '' });
    }
    return out;
  }

  function edit(path: string, value: string) {
    setDraft((current) => new Map(current).set(path, value));
    setReview(undefined);
  }

  /** Shows the errors of a 422 (at their fields, and in the summary, which takes focus). */
  function showErrors(found: SettingsError[]) {
    // The copy's words where it has them (the server's hint then says nothing more).
    setErrors(
      found.map((error) => {
        const declared = declaredFieldOf(props.settings, fieldPath(error.path));
        const plain = plainProblem(props.problems, error.path) ?? declared?.problem;
        return plain ? { path: error.path, message: plain } : error;
      }),
    );
    setReview(undefined);
    requestAnimationFrame(() => summaryRef.current?.focus());
  }

  async function onReview(event: FormEvent) {
    event.preventDefault();
    setNotice(undefined);
    // A new category with names but no id: said here, before asking the server.
    const unnamed = Object.entries(added).find(
      ([, category]) => !category.id.trim() && Object.values(category.names).some((name) => name.trim()),
    );
    if (unnamed) return showErrors([{ path: `categories.${unnamed[0]}.new.id`, message: text.newCategoryId }]);
    const asked = changes();
    if (asked.length === 0) {
      setErrors([]);
      setNotice({ kind: 'info', text: text.noChanges });
      requestAnimationFrame(() => noticeRef.current?.focus());
      return;
    }
    setBusy('reviewing');
    const answer = await callApi<{ diff: string; changes?: ChangeInWords[]; errors?: SettingsError[] }>(
      'POST',
      '/api/admin/settings/diff',
      {
        body: { changes: asked },
        csrf: sessionRef.current?.csrfToken,
      },
    );
    setBusy(undefined);
    if (answer.status === 401) return location.assign(props.signIn);
    if (answer.status === 422) return showErrors(answer.body.errors ?? []);
    if (answer.status !== 200) return setNotice({ kind: 'error', text: text.failed });
    setErrors([]);
    setReview({ diff: answer.body.diff, changes: answer.body.changes });
    requestAnimationFrame(() => reviewRef.current?.focus());
  }

  async function onSave() {
    if (!loaded) return;
    setBusy('saving');
    const answer = await callApi<{ rebuilt?: boolean; ms?: number; errors?: SettingsError[] }>(
      'PUT',
      '/api/admin/settings',
      { body: { changes: changes() }, csrf: sessionRef.current?.csrfToken, ifMatch: loaded.version },
    );
    setBusy(undefined);
    if (answer.status === 401) return location.assign(props.signIn);
    if (answer.status === 422) return showErrors(answer.body.errors ?? []);
    setReview(undefined);
    if (answer.status === 409) setNotice({ kind: 'error', text: text.stale, stale: true });
    else if (answer.status === 202) {
      // An editor's changes wait for an administrator: the form shows the settings as they are.
      setErrors([]);
      setNotice({ kind: 'info', text: text.proposed });
      await load();
    } else if (answer.status !== 200) setNotice({ kind: 'error', text: text.failed });
    else {
      setErrors([]);
      setNotice({
        kind: 'info',
        text: answer.body.rebuilt ? text.saved.replace('{ms}', String(answer.body.ms ?? 0)) : text.savedDev,
      });
      await load();
    }
    requestAnimationFrame(() => noticeRef.current?.focus());
  }

  if (state === 'loading') return <p role="status">{text.loading}</p>;
  if (state === 'unavailable')
    return (
      <p className="banner banner-info" role="status">
        {text.unavailable}
      </p>
    );
  const bar = <AdminBar session={state.session} signIn={props.signIn} text={text} />;
  if (!state.allowed || forbidden)
    return (
      <>
        {bar}
        <p className="banner banner-info" role="status">
          {text.forbidden}
        </p>
      </>
    );
  if (!loaded)
    return (
      <>
        {bar}
        <p role="status" className={failed ? 'banner banner-error' : undefined}>
          {failed ? text.failed : text.loading}
        </p>
      </>
    );

  const { values } = loaded;
  /** An editor's save is a proposal an administrator approves (the history and its restore are theirs). */
  const proposes = state.session.user.role !== 'admin';
  /** A settings path as the field that shows it: a new category's paths are its row's. */
  const shownAt = (path: string) => {
    const category = /^categories\.([^.]+)\.([^.]+)(\.[a-z]{2,3})?$/.exec(path);
    if (category && added[category[1]!] && added[category[1]!]!.id.trim() === category[2] && !loaded?.fields.has(path))
      return `categories.${category[1]}.new${category[3] ?? '.id'}`;
    return path;
  };
  const errorAt = (path: string) => errors.find((error) => shownAt(fieldPath(error.path)) === path);
  const label = (key: string) => props.fields[key] ?? key;

  /** One labelled input (or checkbox) for a path; `key` names its label and help. */
  const field = (
    path: string,
    key: string,
    options: {
      type?: string;
      inputMode?: 'numeric' | 'decimal';
      labelledBy?: string;
      wide?: boolean;
      multiline?: boolean;
      label?: string;
      hint?: string;
      checkbox?: boolean;
      choices?: [string, string][];
    } = {},
  ): ReactNode => {
    const id = idOf(path);
    const error = errorAt(path);
    const hint = options.hint ?? props.hints[key];
    const described = [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(' ') || undefined;
    const value = draft.get(path) ?? '';
    const common = {
      id,
      name: path,
      'aria-invalid': error ? true : undefined,
      'aria-describedby': described,
      'aria-labelledby': options.labelledBy,
    };
    const input =
      (options.checkbox ?? (loaded.fields.get(path) === 'true' || loaded.fields.get(path) === 'false')) ? (
        <input
          {...common}
          type="checkbox"
          checked={value === 'true'}
          onChange={(event) => edit(path, String(event.currentTarget.checked))}
        />
      ) : options.choices ? (
        <select {...common} value={value} onChange={(event) => edit(path, event.currentTarget.value)}>
          {options.choices.map(([choice, name]) => (
            <option key={choice} value={choice}>
              {name}
            </option>
          ))}
        </select>
      ) : options.multiline ? (
        <textarea
          {...common}
          rows={3}
          value={value}
          onChange={(event) => edit(path, event.currentTarget.value)}
          className="input-wide"
        />
      ) : (
        <input
          {...common}
          type={options.type ?? 'text'}
          inputMode={options.inputMode}
          value={value}
          onChange={(event) => edit(path, event.currentTarget.value)}
          className={options.wide ? 'input-wide' : undefined}
        />
      );
    return (
      <div className={`field${options.labelledBy ? ' field-in-table' : ''}`}>
        {!options.labelledBy && <label htmlFor={id}>{options.label ?? label(key)}</label>}
        {hint && !options.labelledBy && (
          <p className="field-hint" id={`${id}-hint`}>
            {hint}
          </p>
        )}
        {input}
        {error && (
          <p className="field-error" id={`${id}-error`}>
            {error.message}
          </p>
        )}
      </div>
    );
  };
  const fieldset = (legend: string, children: ReactNode) => (
    <fieldset className="admin-settings-group">
      <legend>{legend}</legend>
      <div className="admin-settings-fields">{children}</div>
    </fieldset>
  );
  const localeIds = Object.keys(props.languages);
  const planColumns = [
    ...localeIds.map((locale) => ({
      key: `name.${locale}`,
      label: label('plans.name').replace('{language}', props.languages[locale]!),
    })),
    { key: 'price', label: label('plans.price') },
    { key: 'highlighted', label: label('plans.highlighted') },
    { key: 'signupUrl', label: label('plans.signupUrl') },
  ];
  /** A plan's price: on request, or an amount in a currency per month or year (the labels name the plan). */
  const priceFields = (index: number) => {
    const plan = values.plans[index]!;
    const named = (key: string) => `${label(key)} (${plan.name[localeIds[0]!] ?? plan.id})`;
    return (
      <div className="admin-price">
        {field(`plans.${index}.price.kind`, 'plans.price.kind', {
          label: named('plans.price.kind'),
          choices: [
            ['on-request', text.onRequest],
            ['price', text.priced],
          ],
        })}
        {draft.get(`plans.${index}.price.kind`) === 'price' && (
          <>
            {field(`plans.${index}.price.amount`, 'plans.price.amount', {
              label: named('plans.price.amount'),
              inputMode: 'decimal',
            })}
            {field(`plans.${index}.price.currency`, 'plans.price.currency', { label: named('plans.price.currency') })}
            {field(`plans.${index}.price.period`, 'plans.price.period', {
              label: named('plans.price.period'),
              choices: [
                ['month', text.perMonth],
                ['year', text.perYear],
              ],
            })}
          </>
        )}
      </div>
    );
  };

  /** The input of a declared setting at a path (a text per language: one for each language). */
  const declaredInput = (path: string, declared: ScreenField, labelledBy?: string): ReactNode => {
    const options = {
      label: declared.label,
      hint: declared.help,
      labelledBy,
      checkbox: declared.type === 'boolean',
      ...(declared.type === 'url' ? { type: 'url', wide: true } : {}),
      // "unlimited" is typed in words, so such a field keeps the full keyboard.
      ...(declared.type === 'number' && !declared.unlimited
        ? { inputMode: declared.integer && !declared.percent ? ('numeric' as const) : ('decimal' as const) }
        : {}),
    };
    if (declared.type !== 'localized-text') return field(path, path, options);
    return localeIds.map((locale) => (
      <div key={locale}>
        {field(`${path}.${locale}`, path, {
          ...options,
          labelledBy: undefined,
          label: `${options.label} (${props.languages[locale]})`,
        })}
      </div>
    ));
  };
  /** A group the site declares: its fields without `*` one by one, those with `*` as a table with a row for each key `*` stands for. */
  const declaredGroup = (group: ScreenGroup, index: number) => {
    const found = values.declared ?? [];
    const single = group.fields.filter((declared) => !declared.path.includes('*'));
    const starred = group.fields.filter((declared) => declared.path.includes('*'));
    const rows = [
      ...new Set(
        found
          .filter(
            (entry) => entry.row !== undefined && starred.some((declared) => matchesPattern(declared.path, entry.path)),
          )
          .map((entry) => entry.row!),
      ),
    ];
    const caption = group.label;
    const id = `declared-${index}`;
    return (
      <fieldset className="admin-settings-group" key={id}>
        <legend>{caption}</legend>
        {group.help && <p className="field-hint">{group.help}</p>}
        {single.length > 0 && (
          <div className="admin-settings-fields">
            {single
              .filter((declared) => found.some((entry) => entry.path === declared.path))
              .map((declared) => (
                <div key={declared.path}>{declaredInput(declared.path, declared)}</div>
              ))}
          </div>
        )}
        {rows.length > 0 && (
          <div className="admin-table-scroll" role="region" aria-labelledby={`${id}-caption`} tabIndex={0}>
            <table className="admin-posts admin-settings-table">
              <caption id={`${id}-caption`} className="visually-hidden">
                {caption}
              </caption>
              <thead>
                <tr>
                  <th scope="col">
                    <span className="visually-hidden">{caption}</span>
                  </th>
                  {starred.map((declared, column) => (
                    <th scope="col" key={declared.path} id={`${id}-col-${column}`}>
                      {declared.label}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {rows.map((row, at) => (
                  <tr key={row}>
                    <th scope="row" id={`${id}-row-${at}`}>
                      {group.keys[row] ?? <code>{row}</code>}
                    </th>
                    {starred.map((declared, column) => {
                      const path = found.find(
                        (entry) => entry.row === row && matchesPattern(declared.path, entry.path),
                      )?.path;
                      return (
                        <td key={declared.path} data-label={declared.label}>
                          {path && declaredInput(path, declared, `${id}-row-${at} ${id}-col-${column}`)}
                        </td>
                      );
                    })}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </fieldset>
    );
  };

  return (
    <div className="admin-settings">
      {bar}
      {notice && (
        <p
          ref={noticeRef}
          tabIndex={-1}
          className={`banner banner-${notice.kind} admin-notice`}
          role={notice.kind === 'error' ? 'alert' : 'status'}
        >
          {notice.text}
          {notice.stale && (
            <>
              {' '}
              <button
                type="button"
                className="button button-secondary"
                onClick={() => {
                  setNotice(undefined);
                  void load();
                }}
              >
                {text.reload}
              </button>
            </>
          )}
        </p>
      )}
      {errors.length > 0 && (
        <div ref={summaryRef} tabIndex={-1} className="banner banner-error admin-notice" role="alert">
          <p>{text.errorSummary}</p>
          <ul>
            {errors.map((error, index) => {
              const path = shownAt(fieldPath(error.path));
              const known = loaded.fields.has(path) || /^categories\.[^.]+\.new\./.test(path);
              return (
                <li key={index}>
                  {known ? (
                    <a
                      href={`#${idOf(path)}`}
                      onClick={(event) => {
                        event.preventDefault();
                        document.getElementById(idOf(path))?.focus();
                      }}
                    >
                      {error.message}
                    </a>
                  ) : (
                    error.message
                  )}
                  {error.hint && <> ({error.hint})</>}
                </li>
              );
            })}
          </ul>
        </div>
      )}
      <form className="admin-settings-form" onSubmit={(event) => void onReview(event)} noValidate>
        {fieldset(
          text.company,
          <>
            {field('company.legalName', 'company.legalName')}
            {field('company.orgNumber', 'company.orgNumber')}
            {field('company.email', 'company.email', { type: 'email' })}
            {Object.keys(values.company.address).map((key) => (
              <div key={key}>{field(`company.address.${key}`, `company.address.${key}`)}</div>
            ))}
            {Object.keys(values.company.social).map((key) => (
              <div key={key}>
                {field(`company.social.${key}`, `company.social.${key}`, { type: 'url', wide: true })}
              </div>
            ))}
            {field('company.openingHours.opens', 'company.openingHours.opens')}
            {field('company.openingHours.closes', 'company.openingHours.closes')}
          </>,
        )}
        {fieldset(
          text.booking,
          <>
            {field('booking.url', 'booking.url', { type: 'url', wide: true })}
            {field('booking.minutes', 'booking.minutes', { inputMode: 'numeric' })}
          </>,
        )}
        <fieldset className="admin-settings-group">
          <legend>{text.plans}</legend>
          {props.hints.plans && <p className="field-hint">{props.hints.plans}</p>}
          <div className="admin-table-scroll" role="region" aria-labelledby="plans-caption" tabIndex={0}>
            <table className="admin-posts admin-settings-table">
              <caption id="plans-caption" className="visually-hidden">
                {text.plans}
              </caption>
              <thead>
                <tr>
                  <th scope="col" id="plans-col-plan">
                    {text.plan}
                  </th>
                  {planColumns.map((column) => (
                    <th scope="col" key={column.key} id={`plans-col-${column.key.replace('.', '-')}`}>
                      {column.label}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {values.plans.map((plan, index) => (
                  <tr key={plan.id}>
                    <th scope="row" id={`plans-row-${index}`}>
                      <code>{plan.id}</code>
                    </th>
                    {planColumns.map((column) => (
                      <td key={column.key} data-label={column.key === 'price' ? undefined : column.label}>
                        {column.key === 'price'
                          ? priceFields(index)
                          : field(`plans.${index}.${column.key}`, `plans.${column.key}`, {
                              labelledBy: `plans-row-${index} plans-col-${column.key.replace('.', '-')}`,
                            })}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </fieldset>
        {props.settings.map(declaredGroup)}
        {fieldset(text.contact, field('contact.endpoint', 'contact.endpoint', { wide: true }))}
        {Object.keys(values.collections).map((collection) => (
          <div key={collection}>
            {fieldset(
              text.collections.replace('{collection}', collection),
              <>
                {field(`collections.${collection}.pageSize`, 'collections.pageSize', { inputMode: 'numeric' })}
                {field(`collections.${collection}.wordsPerMinute`, 'collections.wordsPerMinute', {
                  inputMode: 'numeric',
                })}
              </>,
            )}
          </div>
        ))}
        {(values.copy ?? []).length > 0 && (
          <fieldset className="admin-settings-group">
            <legend>{text.copy}</legend>
            {(values.copy ?? []).map((item, index) => (
              <fieldset className="admin-settings-subgroup" key={`${item.content}:${item.key}`}>
                <legend>{props.fields[`copy.${item.content}.${item.key}`] ?? `${item.content}: ${item.key}`}</legend>
                <div className="admin-settings-fields">
                  {Object.keys(item.values).map((locale) => (
                    <div key={locale} className="field-wide">
                      {field(`copy.${index}.${locale}`, `copy.${locale}`, {
                        multiline: true,
                        label: props.languages[locale] ?? locale,
                      })}
                    </div>
                  ))}
                </div>
              </fieldset>
            ))}
          </fieldset>
        )}
        {Object.entries(values.categories ?? {}).map(([collection, categories]) => {
          const fresh = added[collection] ?? { id: '', names: {} };
          const setFresh = (next: { id: string; names: Record<string, string> }) => {
            setAdded((current) => ({ ...current, [collection]: next }));
            setReview(undefined);
          };
          const newField = (key: string, value: string, labelledBy: string, onChange: (value: string) => void) => {
            const path = `categories.${collection}.new.${key}`;
            const error = errorAt(path);
            return (
              <div className="field field-in-table">
                <input
                  id={idOf(path)}
                  type="text"
                  value={value}
                  aria-labelledby={labelledBy}
                  aria-invalid={error ? true : undefined}
                  aria-describedby={error ? `${idOf(path)}-error` : undefined}
                  onChange={(event) => onChange(event.currentTarget.value)}
                />
                {error && (
                  <p className="field-error" id={`${idOf(path)}-error`}>
                    {error.message}
                  </p>
                )}
              </div>
            );
          };
          const caption = text.categories.replace('{collection}', collection);
          return (
            <fieldset className="admin-settings-group" key={collection}>
              <legend>{caption}</legend>
              {props.hints.categories && <p className="field-hint">{props.hints.categories}</p>}
              <div
                className="admin-table-scroll"
                role="region"
                aria-labelledby={`categories-${collection}-caption`}
                tabIndex={0}
              >
                <table className="admin-posts admin-settings-table">
                  <caption id={`categories-${collection}-caption`} className="visually-hidden">
                    {caption}
                  </caption>
                  <thead>
                    <tr>
                      <th scope="col" id={`categories-${collection}-col-id`}>
                        {text.category}
                      </th>
                      {localeIds.map((locale) => (
                        <th scope="col" key={locale} id={`categories-${collection}-col-${locale}`}>
                          {label('categories.name').replace('{language}', props.languages[locale]!)}
                        </th>
                      ))}
                      <th scope="col">{label('categories.posts')}</th>
                      <th scope="col">
                        <span className="visually-hidden">{text.remove}</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {categories.map((category) => {
                      const key = `${collection}/${category.id}`;
                      const gone = removed.has(key);
                      const rowId = `categories-${collection}-row-${category.id}`;
                      return (
                        <tr key={category.id} className={gone ? 'is-removed' : undefined}>
                          <th scope="row" id={rowId}>
                            <code>{category.id}</code>
                            {gone && (
                              <>
                                {' '}
                                <span className="badge">{text.toBeRemoved}</span>
                              </>
                            )}
                          </th>
                          {localeIds.map((locale) => (
                            <td
                              key={locale}
                              data-label={label('categories.name').replace('{language}', props.languages[locale]!)}
                            >
                              {field(`categories.${collection}.${category.id}.${locale}`, 'categories.name', {
                                labelledBy: `${rowId} categories-${collection}-col-${locale}`,
                              })}
                            </td>
                          ))}
                          <td data-label={label('categories.posts')}>{category.posts.length}</td>
                          <td>
                            <button
                              type="button"
                              className="button button-secondary"
                              aria-describedby={rowId}
                              onClick={() => {
                                setRemoved((current) => {
                                  const next = new Set(current);
                                  if (gone) next.delete(key);
                                  else next.add(key);
                                  return next;
                                });
                                setReview(undefined);
                              }}
                            >
                              {gone ? text.keep : text.remove}
                            </button>
                            {errorAt(`categories.${collection}.${category.id}`) && (
                              <p className="field-error">
                                {errorAt(`categories.${collection}.${category.id}`)!.message}
                              </p>
                            )}
                          </td>
                        </tr>
                      );
                    })}
                    <tr>
                      <th scope="row" id={`categories-${collection}-row-new`}>
                        <span className="visually-hidden">{text.newCategory}: </span>
                        {newField(
                          'id',
                          fresh.id,
                          `categories-${collection}-row-new categories-${collection}-col-id`,
                          (id) => setFresh({ ...fresh, id }),
                        )}
                      </th>
                      {localeIds.map((locale) => (
                        <td key={locale}>
                          {newField(
                            locale,
                            fresh.names[locale] ?? '',
                            `categories-${collection}-row-new categories-${collection}-col-${locale}`,
                            (name) => setFresh({ ...fresh, names: { ...fresh.names, [locale]: name } }),
                          )}
                        </td>
                      ))}
                      <td colSpan={2}>
                        <span className="field-hint">{text.newCategory}</span>
                      </td>
                    </tr>
                  </tbody>
                </table>
              </div>
            </fieldset>
          );
        })}
        <p className="admin-actions">
          <button type="submit" className="button button-primary" disabled={busy !== undefined}>
            {busy === 'reviewing' ? text.reviewing : text.review}
          </button>
        </p>
      </form>
      {review !== undefined && (
        <section className="admin-settings-review" aria-labelledby="settings-review-heading">
          <h2 id="settings-review-heading" ref={reviewRef} tabIndex={-1}>
            {text.diffHeading}
          </h2>
          <ChangeList changes={review.changes} diff={review.diff} text={props.history} fileHelp={text.diffHelp} />
          <p className="admin-settings-actions">
            <button
              type="button"
              className="button button-primary"
              disabled={busy !== undefined}
              onClick={() => void onSave()}
            >
              {busy === 'saving' ? text.saving : proposes ? text.propose : text.save}
            </button>
            <button type="button" className="button button-secondary" onClick={() => setReview(undefined)}>
              {text.keepEditing}
            </button>
          </p>
        </section>
      )}
      {!proposes && (
        <History
          api="/api/admin/settings"
          csrf={sessionRef.current?.csrfToken}
          version={loaded.version}
          text={props.history}
          onRestored={() => void load()}
        />
      )}
    </div>
  );
}
