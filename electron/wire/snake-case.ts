import { z } from 'zod';

/** `instrumentToken` → `instrument_token`, as a type. */
export type SnakeCase<S extends string> = S extends `${infer Head}${infer Tail}`
  ? `${Head extends Lowercase<Head> ? Head : `_${Lowercase<Head>}`}${SnakeCase<Tail>}`
  : S;

type SnakeShape<Shape> = { [K in keyof Shape as K extends string ? SnakeCase<K> : never]: Shape[K] };

/** `instrumentToken` → `instrument_token`. */
export function snakeCase(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/**
 * The REST dialect's spelling of a domain object (docs/api.md: snake_case): the same fields with
 * the same rules, each key in snake_case. For objects the wire carries exactly as the app models
 * them, so the two are never mirrored by hand; where the wire differs, its schema says so itself.
 */
export function snakeCased<Shape extends z.ZodRawShape>(schema: z.ZodObject<Shape>): z.ZodObject<SnakeShape<Shape>> {
  const shape = Object.fromEntries(Object.entries(schema.shape).map(([key, field]) => [snakeCase(key), field]));
  return z.object(shape) as unknown as z.ZodObject<SnakeShape<Shape>>;
}
