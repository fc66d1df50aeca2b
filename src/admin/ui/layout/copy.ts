/**
 * Pieces of the admin screens' copy schemas. The engine's defaults are in src/admin/ui/copy/; a
 * site's content/pages/<id>/<locale>.yaml replaces one screen's copy whole, checked by the same
 * schema.
 */
import { z } from 'zod';

const text = z.string().min(1);

/** What every admin screen's copy has: its meta, and the admin layout's texts (AdminLayout.tsx). */
export const adminLayoutCopy = { title: text, description: text, skipToContent: text, backToSite: text };
/** The copy of every admin page with the admin navigation (AdminPage.tsx). */
export const adminPageCopy = { ...adminLayoutCopy, heading: text, lead: text, notice: text, nav: text };
export { text, z };
