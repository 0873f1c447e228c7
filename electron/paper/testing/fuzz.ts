import fc from 'fast-check';
import { afterAll, beforeAll, expect, vi, type MockInstance } from 'vitest';
import type WebSocket from 'ws';

/**
 * The paper broker's fuzz harness (docs/api.md §Hostile input), shared by every dialect's fuzz
 * test: how many runs, the watch for the broker's "unexpected error" log, and a socket fed random
 * frames. Each dialect keeps its own targets, bodies and protocol messages.
 */

/** Runs per property: FUZZ_RUNS turns a fuzz test into a longer campaign on demand; CI keeps the default. */
export const FUZZ_RUNS = Number(process.env.FUZZ_RUNS ?? 120);

/**
 * Watches console.error over the test file. The answer lists the broker's "unexpected error"
 * logs so far: a bug whatever the input, so a fuzz test expects none.
 */
export function watchUnexpectedErrors(): () => unknown[][] {
  let spy: MockInstance<typeof console.error> | null = null;
  beforeAll(() => {
    spy = vi.spyOn(console, 'error');
  });
  afterAll(() => spy?.mockRestore());
  return () => (spy?.mock.calls ?? []).filter((c) => String(c[0]).includes('unexpected error'));
}

/** Random frames for a socket: any JSON, any text, `shaped` (the protocol's own messages with wild values), raw bytes. */
export function socketFrames(shaped: fc.Arbitrary<string>): fc.Arbitrary<string | Buffer> {
  return fc.oneof(
    fc.json(),
    fc.string({ maxLength: 200 }),
    shaped,
    fc.uint8Array({ maxLength: 100 }).map((a) => Buffer.from(a)),
  );
}

/**
 * Opens `ws` and sends it every frame, each followed by `pingBack` (a message the server always
 * answers, so every round ends with an answer), waiting for that answer. Answers the text
 * messages that came back and the close code, if the socket closed.
 */
export async function fuzzSocket(
  ws: WebSocket,
  frames: fc.Arbitrary<string | Buffer>,
  pingBack: string,
): Promise<{ texts: string[]; closed: number | null }> {
  const texts: string[] = [];
  let closed: number | null = null;
  ws.on('message', (d, isBinary) => {
    if (!isBinary) texts.push(String(d));
  });
  ws.on('close', (code) => (closed = code));
  await new Promise((resolve, reject) => {
    ws.once('open', resolve);
    ws.once('error', reject);
  });
  await fc.assert(
    fc.asyncProperty(frames, async (f) => {
      const seen = texts.length;
      ws.send(f, { binary: Buffer.isBuffer(f) });
      ws.send(pingBack);
      await vi.waitFor(() => expect(texts.length).toBeGreaterThan(seen), { timeout: 5_000 });
    }),
    { numRuns: FUZZ_RUNS },
  );
  return { texts, closed };
}
