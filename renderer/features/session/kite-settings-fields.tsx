import { MarketProtection } from '@shared/domain/session';

/** What the trader chose for a Kite profile's settings, as typed. */
export interface KiteSettingsDraft {
  readonly protection: 'automatic' | 'percent';
  /** The percentage as typed ("2", "0.5"). */
  readonly percent: string;
  readonly ipv4Only: boolean;
}

export const KITE_SETTINGS_DEFAULT: KiteSettingsDraft = { protection: 'automatic', percent: '2', ipv4Only: false };

/**
 * The settings a Kite profile sends with its login (remembered with the profile, never secrets),
 * or the error to show next to the percentage: market protection is -1 (Kite's automatic) or a
 * percentage above 0 and up to 100 (docs/kite.md §Market protection).
 */
export function kiteSettingsOf(
  d: KiteSettingsDraft,
): { settings: { marketProtection: number; ipv4Only?: true } } | { error: string } {
  const value = d.protection === 'automatic' ? -1 : Number(d.percent.trim().replace(/%$/, ''));
  const parsed = MarketProtection.safeParse(d.percent.trim() === '' && d.protection === 'percent' ? Number.NaN : value);
  if (!parsed.success || Number.isNaN(value))
    return { error: 'Market protection is a percentage above 0 and up to 100, such as 2 or 0.5' };
  return { settings: { marketProtection: parsed.data, ...(d.ipv4Only ? { ipv4Only: true as const } : {}) } };
}

/**
 * The Kite profile's order settings in the session dialog: the market protection sent with
 * MARKET and SL-M orders (Kite refuses them without it), and whether calls leave over IPv4 only
 * — for a machine whose registered static IP is its IPv4 address (docs/kite.md §Static IP).
 */
export function KiteSettingsFields(props: {
  readonly value: KiteSettingsDraft;
  readonly error: string | null;
  readonly onChange: (next: KiteSettingsDraft) => void;
}) {
  const v = props.value;
  return (
    <fieldset>
      <legend>Market protection (MARKET and SL-M orders)</legend>
      <label className="check">
        <input
          type="radio"
          name="kite-protection"
          checked={v.protection === 'automatic'}
          onChange={() => props.onChange({ ...v, protection: 'automatic' })}
        />
        Automatic (Kite chooses the percentage)
      </label>
      <label className="check">
        <input
          type="radio"
          name="kite-protection"
          checked={v.protection === 'percent'}
          onChange={() => props.onChange({ ...v, protection: 'percent' })}
        />
        At most
        <input
          className="kite-protection__pct"
          aria-label="Market protection %"
          inputMode="decimal"
          value={v.percent}
          disabled={v.protection !== 'percent'}
          aria-invalid={props.error !== null || undefined}
          aria-describedby={props.error ? 'kite-protection-error' : undefined}
          onChange={(e) => props.onChange({ ...v, percent: e.target.value })}
        />
        % from the last price
      </label>
      {props.error ? (
        <span className="field-error" id="kite-protection-error">
          {props.error}
        </span>
      ) : null}
      <label className="check">
        <input
          type="checkbox"
          checked={v.ipv4Only}
          onChange={(e) => props.onChange({ ...v, ipv4Only: e.target.checked })}
        />
        Send orders over IPv4 only (when your static IP registered with Kite is an IPv4 address)
      </label>
    </fieldset>
  );
}
