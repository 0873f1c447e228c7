/**
 * The bridge's size limits, one set for both transports (docs/architecture.md §The bridge): the
 * browser host closes a socket on a larger frame, so the page refuses to send one, and the
 * contract bounds what may be sent to fit inside it — in Electron too, so a file that imports in
 * one window imports in every window.
 */

/** The largest message the browser host accepts from a page, in bytes (its WebSocket's `maxPayload`). */
export const MAX_BRIDGE_MESSAGE_BYTES = 256 * 1024;

/**
 * The largest Console tradebook one `journal.importCsv` takes, in UTF-8 bytes: the bridge's
 * limit less room for the call's envelope and the JSON escaping of the file's line breaks and
 * quotes (docs/journal.md §Import and export).
 */
export const MAX_IMPORT_CSV_BYTES = 192 * 1024;

/** A size in KB as the trader reads it. */
export function kilobytes(bytes: number): string {
  return `${Math.ceil(bytes / 1024).toLocaleString('en-IN')} KB`;
}

/** The UTF-8 size of a text, in bytes (what the bridge sends). */
export function utf8Bytes(text: string): number {
  return new TextEncoder().encode(text).length;
}
