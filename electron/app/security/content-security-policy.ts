/**
 * The renderer's Content-Security-Policy.
 *
 * No remote scripts and no eval (`script-src 'self'`), no network but the app's own origin
 * (`connect-src 'self'`: the renderer never calls the broker; in the browser host 'self' also
 * covers the same-origin bridge WebSocket), no plugins, no framing, no form posts. Sent as a
 * response header by both the app:// protocol handler and the browser host, and mirrored as a
 * <meta> in renderer/index.html as defence in depth.
 *
 * @see https://www.electronjs.org/docs/latest/tutorial/security#7-define-a-content-security-policy
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "media-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
  "object-src 'none'",
].join('; ');

/** Headers every served renderer file carries. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
});
