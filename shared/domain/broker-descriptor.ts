import { z } from 'zod';
import { Product, Validity } from './order';

/** A broker kind's name in the registry (`paper`, `rest`, `kite`…): what a profile and `--broker` name. */
export const BrokerKindName = z
  .string()
  .regex(/^[a-z][a-z0-9-]{0,31}$/, 'must be a broker kind: lower-case letters, digits or "-", at most 32');
export type BrokerKindName = z.infer<typeof BrokerKindName>;

/**
 * How a broker kind logs in (docs/brokers.md §The broker registry): `none` — nothing to ask (the
 * embedded paper broker); `token` — main gets the session from the profile's fields alone (a key
 * and secret, or a pasted token for the day); `login-window` — through the broker's own page,
 * which redirects to main on loopback.
 */
export const LoginKind = z.enum(['none', 'token', 'login-window']);
export type LoginKind = z.infer<typeof LoginKind>;

/** One box of a profile's form: `secret` is masked and never saved; `flag` is a check box. */
export const ProfileFieldKind = z.enum(['text', 'secret', 'url', 'number', 'flag']);
export type ProfileFieldKind = z.infer<typeof ProfileFieldKind>;

/** A field of a broker kind's profile, as the session dialog asks for it. */
export const ProfileField = z.object({
  /** The profile's key (`apiKey`, `baseUrl`); a refusal from main names it as `profile.<name>`. */
  name: z.string().regex(/^[a-zA-Z][a-zA-Z0-9]{0,31}$/),
  label: z.string().min(1).max(80),
  kind: ProfileFieldKind,
  required: z.boolean(),
  help: z.string().max(300).optional(),
  placeholder: z.string().max(200).optional(),
  /** Asked only when the trader logs in this way (Kite: the secret for its page, or the day's token). */
  login: LoginKind.optional(),
});
export type ProfileField = z.infer<typeof ProfileField>;

/** A way to log in the kind offers, in the words the dialog shows when there is more than one. */
export const LoginWay = z.object({ kind: LoginKind, label: z.string().min(1).max(120) });
export type LoginWay = z.infer<typeof LoginWay>;

/** A product the broker takes, in the broker's own name for it ("Intraday (I)"). */
export const ProductOffer = z.object({ product: Product, label: z.string().min(1).max(40) });
export type ProductOffer = z.infer<typeof ProductOffer>;

/**
 * What the renderer knows of a broker kind, from main's registry (`brokers.list`): the session
 * dialog draws the kind's form from `fields`, and the ticket offers its products and validities.
 * Data only: the renderer never names a broker kind in code.
 */
export const BrokerDescriptor = z.object({
  kind: BrokerKindName,
  /** The kind's name in the dialog ("Zerodha Kite"). */
  title: z.string().min(1).max(80),
  logins: z.array(LoginWay).min(1).max(LoginKind.options.length),
  fields: z.array(ProfileField).max(24),
  products: z.array(ProductOffer).min(1).max(Product.options.length),
  validities: z.array(Validity).min(1).max(Validity.options.length),
  /** A line the dialog shows under the kind's form ("Kite sessions end at 6:00 AM IST…"). */
  note: z.string().max(300).optional(),
});
export type BrokerDescriptor = z.infer<typeof BrokerDescriptor>;

/** Most fields a profile carries on the bridge or on disk. */
const MAX_PROFILE_FIELDS = 24;

/**
 * A profile as it crosses the bridge and is saved: its kind and the values of its fields. Main
 * judges it by the kind's own schema in its registry (a refusal names `profile.<field>`), so a
 * new broker kind needs nothing here.
 */
export const BrokerProfile = z
  .object({ kind: BrokerKindName })
  .catchall(z.union([z.string().max(4_096), z.number().finite(), z.boolean()]))
  .refine((p) => Object.keys(p).length <= MAX_PROFILE_FIELDS + 1, {
    message: `A profile has at most ${MAX_PROFILE_FIELDS} fields`,
  });
export type BrokerProfile = z.infer<typeof BrokerProfile>;
