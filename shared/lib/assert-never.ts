/**
 * Exhaustiveness guard for `switch` statements over unions.
 *
 * The compiler rejects a call whose argument is not `never`, so adding a member to a union
 * without handling it is a type error, not a silent fall-through.
 */
export function assertNever(value: never, what = 'value'): never {
  throw new Error(`Unhandled ${what}: ${JSON.stringify(value)}`);
}
