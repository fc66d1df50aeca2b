/** Escaping for text written into HTML and into inline JSON. */

/** Escapes text for an HTML attribute value or text node. */
export function escapeHtml(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!,
  );
}

/**
 * Serialises data for a `<script type="application/json">` or JSON-LD block. `<`, `>`, `&` and
 * the line separators are escaped so no value can close the script element or break out of it.
 */
export function serializeJsonForScript(data: unknown): string {
  return JSON.stringify(data).replace(
    /[<>&\u2028\u2029]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
