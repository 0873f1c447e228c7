import { describe, expect, it } from 'vitest';
import { firstDuplicateKey } from './json-keys';

describe('firstDuplicateKey', () => {
  it('names a key repeated at the top level, in a nested object and inside an array element', () => {
    expect(firstDuplicateKey('{"a":1,"b":2,"a":3}')).toBe('a');
    expect(firstDuplicateKey('{"o":{"p":1,"p":2}}')).toBe('o.p');
    expect(firstDuplicateKey('{"legs":[{"q":1},{"q":1,"q":2}]}')).toBe('legs.1.q');
  });

  it('tells keys from string values, escaped quotes and equal keys in sibling objects', () => {
    expect(firstDuplicateKey('{"a":"a","b":"\\"a\\"","c":{"a":1},"d":[{"a":1},{"a":2}]}')).toBeNull();
    expect(firstDuplicateKey('{"x\\"y":1,"x\\u0022y":2}')).toBe('x"y');
    expect(firstDuplicateKey('[1,{"k":[]},"{\\"k\\":1,\\"k\\":2}"]')).toBeNull();
  });
});
