/**
 * A workwear garment label with a real QR code, made when the page is rendered (qrcode, drawn as one
 * SVG path). The code opens this site's page on QR-coded repairs, in the page's language.
 */
import { create } from 'qrcode/lib/core/qrcode.js';
import type { SiteContext } from 'typed-site/template';
import { Illustration } from './Frame';

/** The dark modules of a QR code for `text`, as one SVG path in module units, and its size. */
export function qrPath(text: string): { path: string; size: number } {
  const { modules } = create(text, { errorCorrectionLevel: 'M' });
  const parts: string[] = [];
  for (let row = 0; row < modules.size; row += 1) {
    for (let column = 0; column < modules.size; column += 1) {
      if (modules.get(row, column)) parts.push(`M${column} ${row}h1v1h-1z`);
    }
  }
  return { path: parts.join(''), size: modules.size };
}

export function GarmentLabel({ site, target }: { site: SiteContext; target: string }) {
  const t = (key: string) => site.t(`illustrations.garmentLabel.${key}`);
  const qr = qrPath(target);
  const box = 150;
  const quiet = 4;
  const scale = box / (qr.size + quiet * 2);
  return (
    <Illustration label={t('label')} width={400} height={400} className="ill-label">
      <rect className="ill-fabric" x="0" y="0" width="400" height="400" rx="24" />
      <path className="ill-seam" d="M0 56h400M0 344h400" />
      <rect className="ill-tag" x="70" y="40" width="260" height="320" rx="10" />
      <rect className="ill-tag-stitch" x="80" y="50" width="240" height="300" rx="6" />
      <text className="ill-strong ill-tag-brand" x="200" y="88" textAnchor="middle">
        {t('brand')}
      </text>
      <rect className="ill-qr-quiet" x="125" y="104" width={box} height={box} />
      <g transform={`translate(${125 + quiet * scale} ${104 + quiet * scale}) scale(${scale.toFixed(4)})`}>
        <path className="ill-qr" d={qr.path} />
      </g>
      <text className="ill-strong" x="200" y="282" textAnchor="middle">
        {t('garment')}
      </text>
      <text className="ill-muted" x="200" y="304" textAnchor="middle">
        {t('id')}
      </text>
      <text className="ill-accent-text" x="200" y="334" textAnchor="middle">
        {t('scan')}
      </text>
    </Illustration>
  );
}
