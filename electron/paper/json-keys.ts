/**
 * Finds a key that appears twice in one JSON object.
 *
 * `JSON.parse` keeps the last of duplicate keys, so `{"transaction_type":"BUY", …,
 * "transaction_type":"SELL"}` would place a SELL while a log, a proxy or a reviewer reading the
 * first occurrence sees a BUY. The broker refuses such bodies instead (docs/api.md §Hostile
 * input); this is the scan that tells them apart, run on text `JSON.parse` already accepted.
 */

interface Frame {
  /** Keys seen so far (objects), or null for an array. */
  readonly keys: Set<string> | null;
  /** This container's name in its parent: a key or an index. */
  readonly name: string;
  expectKey: boolean;
  lastKey: string;
  index: number;
}

/**
 * The dotted path of the first duplicated key (`transaction_type`, `order.price`, `legs.1.qty`),
 * or null when every object's keys are distinct. `text` must be valid JSON.
 */
export function firstDuplicateKey(text: string): string | null {
  const stack: Frame[] = [];
  const childName = (parent: Frame | undefined): string =>
    parent === undefined ? '' : parent.keys ? parent.lastKey : String(parent.index);
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    const top = stack[stack.length - 1];
    if (ch === '"') {
      let j = i + 1;
      while (text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      if (top?.keys && top.expectKey) {
        const key = JSON.parse(text.slice(i, j + 1)) as string;
        if (top.keys.has(key)) return [...stack.slice(1).map((f) => f.name), key].join('.');
        top.keys.add(key);
        top.lastKey = key;
        top.expectKey = false;
      }
      i = j;
    } else if (ch === '{' || ch === '[') {
      stack.push({
        keys: ch === '{' ? new Set() : null,
        name: childName(top),
        expectKey: ch === '{',
        lastKey: '',
        index: 0,
      });
    } else if (ch === '}' || ch === ']') {
      stack.pop();
    } else if (ch === ',' && top) {
      if (top.keys) top.expectKey = true;
      else top.index += 1;
    }
  }
  return null;
}
