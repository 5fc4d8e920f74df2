import { utf8 } from "../core/bytes.js";

/**
 * Markers that migrations and new-module genesis leave in a module's store, so that their effects show in the app
 * hash and can be counted. The 0xfe prefix is outside every key range the modules use.
 */
const MARKER_PREFIX = 0xfe;

export const migrationMarkerKey = (from: number): Uint8Array =>
  Uint8Array.of(MARKER_PREFIX, ...utf8(`migrated ${from}->${from + 1}`));
export const genesisMarkerKey = (): Uint8Array => Uint8Array.of(MARKER_PREFIX, ...utf8("genesis"));
export const markerValue = (height: number): Uint8Array => utf8(String(height));
