import { z } from 'zod';

/** `instrumentToken` → `instrument_token`, as a type. */
export type SnakeCase<S extends string> = S extends `${infer Head}${infer Tail}`
  ? `${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}${SnakeCase<Tail>}`
  : S;

/** The wire's own name for a field, where it is not the snake_case of the app's. */
type Renames<Shape> = { readonly [K in keyof Shape]?: string };

type WireShape<Shape, R extends Renames<Shape>> = {
  [
    K in keyof Shape as K extends keyof R
      ? R[K] extends string
        ? R[K]
        : never
      : K extends string
        ? SnakeCase<K>
        : never
  ]: Shape[K];
};

/** `instrumentToken` → `instrument_token`. */
export function snakeCase(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/**
 * The REST dialect's spelling of a domain object (docs/api.md: snake_case): the same fields with
 * the same rules, each key in snake_case or under the wire's own name in `renames`. For objects
 * the wire carries as the app models them, so the two are never mirrored by hand; a nested
 * object the wire spells differently is given again with `.extend`.
 */
export function snakeCased<Shape extends z.ZodRawShape, const R extends Renames<Shape> = Record<never, never>>(
  schema: z.ZodObject<Shape>,
  renames?: R,
): z.ZodObject<WireShape<Shape, R>> {
  const names: Readonly<Record<string, string | undefined>> = renames ?? {};
  const shape = Object.fromEntries(
    Object.entries(schema.shape).map(([key, field]) => [names[key] ?? snakeCase(key), field]),
  );
  return z.object(shape) as unknown as z.ZodObject<WireShape<Shape, R>>;
}
