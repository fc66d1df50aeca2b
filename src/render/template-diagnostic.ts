/**
 * What a template raises when the content it renders is not usable (a missing image, a list too
 * long for the layout): `templateError(message, { field, hint })`. The renderer turns it into a
 * TEMPLATE_REJECTED SiteError that names the page's content file and the field, at the field's
 * line, instead of an internal error with a stack. Templates are bundled with their own copy of
 * this module, so it is recognised by a registered symbol, not by `instanceof`.
 */

const brand = Symbol.for('site.templateDiagnostic');

/** Where in the page's content the problem is, and what to do. */
export interface TemplateDiagnosticOptions {
  /** The dotted path of the field in the content file (`hero.image`, `items[2].title`). */
  field?: string;
  /** What the editor should do; defaults to the catalogue's hint. */
  hint?: string;
}

/** A problem a template found in the content it renders. */
export class TemplateDiagnostic extends Error {
  readonly field?: string;
  readonly hint?: string;
  readonly [brand] = true;

  constructor(message: string, options: TemplateDiagnosticOptions = {}) {
    super(message);
    this.name = 'TemplateDiagnostic';
    this.field = options.field;
    this.hint = options.hint;
  }
}

/** Stops rendering the page with a diagnostic about its content (from a template). */
export function templateError(message: string, options: TemplateDiagnosticOptions = {}): never {
  throw new TemplateDiagnostic(message, options);
}

/** Whether a thrown value is a TemplateDiagnostic, from whichever copy of this module. */
export function isTemplateDiagnostic(value: unknown): value is TemplateDiagnostic {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[brand] === true;
}
