/**
 * The admin's earlier name for the engine's one atomic write (src/atomic-write.ts, issue 47). Only
 * live-site.ts still imports it from here, since that file is being changed on another branch at
 * the same time; this file goes once live-site.ts imports ../atomic-write.js itself.
 */
export { writeFileAtomic } from '../atomic-write.js';
