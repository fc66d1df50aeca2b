import { describe, expect, it } from 'vitest';
import { escapeHtml, serializeJsonForScript } from '../../src/render/html';
import { languageScript, menuScript } from '../../src/render/head';

describe('escaping', () => {
  it('escapes island props so they cannot close the script element', () => {
    const text = serializeJsonForScript({ label: '</script><script>alert(1)</script>', amp: 'a & b', line: '\u2028' });
    expect(text).not.toContain('</script');
    expect(text).not.toContain('<');
    expect(JSON.parse(text)).toEqual({ label: '</script><script>alert(1)</script>', amp: 'a & b', line: '\u2028' });
  });

  it('escapes attribute values', () => {
    expect(escapeHtml(`"a" <b> & 'c'`)).toBe('&quot;a&quot; &lt;b&gt; &amp; &#39;c&#39;');
  });

  it('keeps the inline language script under 1 KB', () => {
    expect(Buffer.byteLength(languageScript)).toBeLessThan(1024);
  });

  it('keeps the inline menu script under 1 KB', () => {
    expect(Buffer.byteLength(menuScript)).toBeLessThan(1024);
  });
});
