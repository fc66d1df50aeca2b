/**
 * Icons from Lucide (lucide-static), inlined as SVG when the page is rendered: no icon font, no
 * script, and only the icons named here end up in the template bundle. Decorative: the text
 * beside an icon says what it means.
 */
import BadgeCheck from 'lucide-static/dist/esm/icons/badge-check.mjs';
import Bot from 'lucide-static/dist/esm/icons/bot.mjs';
import Boxes from 'lucide-static/dist/esm/icons/boxes.mjs';
import CalendarCheck from 'lucide-static/dist/esm/icons/calendar-check.mjs';
import ChartColumn from 'lucide-static/dist/esm/icons/chart-column.mjs';
import ClipboardList from 'lucide-static/dist/esm/icons/clipboard-list.mjs';
import Eye from 'lucide-static/dist/esm/icons/eye.mjs';
import FileCheck from 'lucide-static/dist/esm/icons/file-check.mjs';
import GraduationCap from 'lucide-static/dist/esm/icons/graduation-cap.mjs';
import Handshake from 'lucide-static/dist/esm/icons/handshake.mjs';
import Layers from 'lucide-static/dist/esm/icons/layers.mjs';
import Leaf from 'lucide-static/dist/esm/icons/leaf.mjs';
import Link from 'lucide-static/dist/esm/icons/link-2.mjs';
import MapPin from 'lucide-static/dist/esm/icons/map-pin.mjs';
import MessageSquareText from 'lucide-static/dist/esm/icons/message-square-text.mjs';
import MonitorSmartphone from 'lucide-static/dist/esm/icons/monitor-smartphone.mjs';
import QrCode from 'lucide-static/dist/esm/icons/qr-code.mjs';
import ReceiptText from 'lucide-static/dist/esm/icons/receipt-text.mjs';
import Recycle from 'lucide-static/dist/esm/icons/recycle.mjs';
import Rocket from 'lucide-static/dist/esm/icons/rocket.mjs';
import ScanLine from 'lucide-static/dist/esm/icons/scan-line.mjs';
import Scissors from 'lucide-static/dist/esm/icons/scissors.mjs';
import Settings from 'lucide-static/dist/esm/icons/settings-2.mjs';
import ShieldCheck from 'lucide-static/dist/esm/icons/shield-check.mjs';
import Shirt from 'lucide-static/dist/esm/icons/shirt.mjs';
import Store from 'lucide-static/dist/esm/icons/store.mjs';
import TrendingUp from 'lucide-static/dist/esm/icons/trending-up.mjs';
import Users from 'lucide-static/dist/esm/icons/users.mjs';
import Wallet from 'lucide-static/dist/esm/icons/wallet.mjs';

const sources = {
  'badge-check': BadgeCheck,
  bot: Bot,
  boxes: Boxes,
  'calendar-check': CalendarCheck,
  'chart-column': ChartColumn,
  'clipboard-list': ClipboardList,
  eye: Eye,
  'file-check': FileCheck,
  'graduation-cap': GraduationCap,
  handshake: Handshake,
  layers: Layers,
  leaf: Leaf,
  link: Link,
  'map-pin': MapPin,
  'message-square-text': MessageSquareText,
  'monitor-smartphone': MonitorSmartphone,
  'qr-code': QrCode,
  'receipt-text': ReceiptText,
  recycle: Recycle,
  rocket: Rocket,
  'scan-line': ScanLine,
  scissors: Scissors,
  settings: Settings,
  'shield-check': ShieldCheck,
  shirt: Shirt,
  store: Store,
  'trending-up': TrendingUp,
  users: Users,
  wallet: Wallet,
} satisfies Record<string, string>;

/** The name of an icon this site uses. */
export type IconName = keyof typeof sources;

/** The shapes inside a Lucide SVG (its <svg> wrapper is ours), with whitespace collapsed. */
function innerShapes(svg: string): string {
  const start = svg.indexOf('>', svg.indexOf('<svg')) + 1;
  return svg.slice(start, svg.lastIndexOf('</svg>')).replace(/\s+/g, ' ').replace(/> </g, '><').trim();
}

const shapes = Object.fromEntries(Object.entries(sources).map(([name, svg]) => [name, innerShapes(svg)])) as Record<
  IconName,
  string
>;

/** One icon, 24 × 24 by default, in the text colour of its container. */
export function Icon({ name, size = 24, className }: { name: IconName; size?: number; className?: string }) {
  return (
    <svg
      className={className ? `icon ${className}` : 'icon'}
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
      dangerouslySetInnerHTML={{ __html: shapes[name] }}
    />
  );
}
