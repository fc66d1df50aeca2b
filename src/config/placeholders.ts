/**
 * Placeholder facts still in the config: the demo company's `.example` domains, the org number
 * `999 999 999`, a phone number of zeros, an address that says "example". Each is a warning at
 * the line of its field, not an error: a site can be built and previewed with them, but should not
 * go live with them.
 */
import type { Diagnostics } from '../diagnostics.js';
import { formatPath, locate, type YamlSource } from '../yaml-source.js';
import type { SiteConfig } from './schema.js';

/** Domains reserved for examples and tests (RFC 2606, RFC 6761): mail to them never arrives, links lead nowhere. */
const reservedDomain = /(^|\.)(example|test|invalid|localhost)$|(^|\.)example\.(com|net|org)$/i;
/** The word "example" inside a name, handle or address, or the Norwegian "eksempel" (also as the first part of a compound, "Eksempelgata"). */
const exampleWord = /(^|[^a-z])(example(?![a-z])|eksempel)/i;

/** Why `value`, at `path`, is a placeholder; undefined when it looks real. */
export function placeholderReason(path: readonly PropertyKey[], value: string): string | undefined {
  const key = String(path.at(-1));
  const domain = domainOf(value);
  if (domain && reservedDomain.test(domain))
    return `"${value}" is a placeholder: ${domain} is a domain reserved for examples, so ${value.includes('@') && !value.includes('://') ? 'mail to it never arrives' : 'links to it lead nowhere'}`;
  const digits = value.replace(/\D/g, '');
  if (key === 'orgNumber' && digits.length > 0 && /^(\d)\1*$/.test(digits))
    return `"${value}" is a placeholder organisation number`;
  // A country code (up to three digits), then nothing but zeros: "+47 000 00 000".
  if (/phone|tel/i.test(key) && /^\d{0,3}0{6,}$/.test(digits)) return `"${value}" is a placeholder phone number`;
  if (exampleWord.test(value)) return `"${value}" looks like a placeholder: it says "${exampleWord.exec(value)![2]}"`;
  return undefined;
}

/**
 * Records a warning for each placeholder among the company facts (everything under `company:`),
 * the site's origin and the booking link, at the line of its field.
 */
export function checkPlaceholders(config: SiteConfig, source: YamlSource, diagnostics: Diagnostics): void {
  const here = diagnostics.child({ file: source.file });
  const check = (path: PropertyKey[], value: unknown) => {
    if (typeof value === 'string') {
      const reason = placeholderReason(path, value);
      if (reason)
        here.warn({ code: 'CONFIG_PLACEHOLDER', message: reason, field: formatPath(path), ...locate(source, path) });
    } else if (Array.isArray(value)) {
      value.forEach((item, index) => check([...path, index], item));
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, item] of Object.entries(value)) check([...path, key], item);
    }
  };
  check(['site', 'origin'], config.site.origin);
  check(['company'], config.company);
  check(['booking', 'url'], config.booking?.url);
}

/** The domain of an e-mail address or a URL, or undefined. */
function domainOf(value: string): string | undefined {
  const mail = /^[^@\s]+@([^@\s]+)$/.exec(value);
  if (mail) return mail[1]!.toLowerCase();
  try {
    return new URL(value).hostname.toLowerCase() || undefined;
  } catch {
    return undefined;
  }
}
