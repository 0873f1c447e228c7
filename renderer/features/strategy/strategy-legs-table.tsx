import { priceDecimals } from '@shared/trading/money';
import type { Instrument } from '@shared/domain/instrument';
import { formatPrice } from '../../lib/format';
import { parseNumber } from '../ticket/ticket-model';
import { formatExpiry } from '../options/chain-model';
import { contractsOf, legMoved, type BuilderLeg } from './builder-model';
import type { LegRow } from './use-strategy-view';
import { ACTIONS, GridTable, num, type Column } from '../layout/grid-table';

/** What each leg's row needs from the table. */
interface LegRowProps {
  readonly expiries: readonly string[];
  readonly strikes: ReadonlyMap<string, readonly number[]>;
  readonly nearest: string;
  /** Moves a leg to another contract (expiry, strike or type), or says there is none. */
  readonly move: (leg: BuilderLeg, change: Parameters<typeof legMoved>[1]) => void;
  readonly onChange: (id: number, leg: BuilderLeg) => void;
  readonly onRemove: (id: number) => void;
  readonly disabled: boolean;
}

/**
 * The strategy's legs, each editable in place (docs/strategy.md §Building): side, lots, expiry,
 * strike, call/put/future and the entry price; its live price, the IV it is valued at and its
 * delta beside. Changing the contract takes the new contract's last price as the entry.
 */
export function StrategyLegsTable(props: {
  readonly rows: readonly LegRow[];
  readonly list: readonly Instrument[];
  readonly lastPrice: (token: number) => number | undefined;
  readonly onChange: (id: number, leg: BuilderLeg) => void;
  readonly onRemove: (id: number) => void;
  readonly onMoveFailed: (message: string) => void;
  readonly disabled: boolean;
}) {
  const underlying = props.rows[0]?.leg.underlying ?? '';
  const { expiries, strikes } = contractsOf(props.list, underlying);
  const move = (leg: BuilderLeg, change: Parameters<typeof legMoved>[1]): void => {
    const moved = legMoved(leg, change, props.list, props.lastPrice);
    if (moved) props.onChange(leg.id, moved);
    else
      props.onMoveFailed(`No ${underlying} contract for leg ${props.rows.findIndex((r) => r.leg === leg) + 1} there`);
  };
  const rowProps: LegRowProps = {
    expiries,
    strikes,
    nearest: expiries[0] ?? '',
    move,
    onChange: props.onChange,
    onRemove: props.onRemove,
    disabled: props.disabled,
  };
  return (
    <div className="table-scroll strategy__legs">
      <GridTable
        label="Strategy legs"
        columns={COLUMNS}
        rows={props.rows}
        none="No legs yet: pick a template, use B / S on the option chain in strategy mode, or start from your positions"
        row={(row, n) => <LegRowView key={row.leg.id} row={row} n={n} {...rowProps} />}
      />
    </div>
  );
}

const COLUMNS: readonly Column[] = [
  '#',
  'Side',
  num('Lots'),
  'Expiry',
  num('Strike'),
  'Type',
  num('Entry'),
  num('LTP'),
  num('IV', 'The implied volatility the leg is valued at, % a year'),
  num('Δ', 'Delta per unit'),
  'Contract',
  ACTIONS,
];

/** One leg: its side and lots, its contract, its entry price, what it is worth now, and its remove button. */
function LegRowView(props: LegRowProps & { readonly row: LegRow; readonly n: number }) {
  const { leg, lastPrice, iv, delta } = props.row;
  const name = `leg ${props.n + 1}`;
  return (
    <tr data-testid="strategy-leg">
      <td>{props.n + 1}</td>
      <td>
        <button
          type="button"
          className={`mini strategy__side ${leg.side === 'BUY' ? 'buy' : 'sell'}`}
          aria-label={`Side of ${name}: ${leg.side}, switch`}
          disabled={props.disabled}
          onClick={() => props.onChange(leg.id, { ...leg, side: leg.side === 'BUY' ? 'SELL' : 'BUY' })}
        >
          {leg.side === 'BUY' ? 'B' : 'S'}
        </button>
      </td>
      <td className="num">
        <input
          className="strategy__lots"
          type="number"
          min={1}
          max={100}
          step={1}
          aria-label={`Lots of ${name}`}
          value={leg.lots}
          disabled={props.disabled}
          onChange={(e) => {
            const lots = Math.round(Number(e.target.value));
            if (lots >= 1 && lots <= 100) props.onChange(leg.id, { ...leg, lots });
          }}
        />
      </td>
      <ContractCells leg={leg} name={name} {...props} />
      <td className="num">
        <EntryPrice leg={leg} name={name} disabled={props.disabled} onChange={props.onChange} />
      </td>
      <td className="num">{formatPrice(lastPrice, leg.tickSize)}</td>
      <td className="num">{leg.kind === 'FUT' ? '–' : iv === null ? '?' : (iv * 100).toFixed(2)}</td>
      <td className="num">{delta === null ? '–' : delta.toFixed(2)}</td>
      <td className="sym small">{leg.tradingsymbol}</td>
      <td className="row-actions">
        <button
          type="button"
          className="mini"
          aria-label={`Remove ${name}`}
          disabled={props.disabled}
          onClick={() => props.onRemove(leg.id)}
        >
          ×
        </button>
      </td>
    </tr>
  );
}

/** The leg's contract, as three pickers: expiry, strike (none for a future) and CE / PE / FUT. */
function ContractCells(props: LegRowProps & { readonly leg: BuilderLeg; readonly name: string }) {
  const { leg, name, expiries, move } = props;
  return (
    <>
      <td>
        <select
          aria-label={`Expiry of ${name}`}
          value={leg.expiry}
          disabled={props.disabled}
          onChange={(e) => move(leg, { expiry: e.target.value })}
        >
          {(expiries.includes(leg.expiry) ? expiries : [leg.expiry, ...expiries]).map((x) => (
            <option key={x} value={x}>
              {formatExpiry(x, props.nearest)}
            </option>
          ))}
        </select>
      </td>
      <td className="num">
        {leg.kind === 'FUT' ? (
          '–'
        ) : (
          <select
            aria-label={`Strike of ${name}`}
            value={leg.strike}
            disabled={props.disabled}
            onChange={(e) => move(leg, { strike: Number(e.target.value) })}
          >
            {(props.strikes.get(leg.expiry) ?? [leg.strike]).map((k) => (
              <option key={k} value={k}>
                {k.toLocaleString('en-IN')}
              </option>
            ))}
          </select>
        )}
      </td>
      <td>
        <select
          aria-label={`Type of ${name}`}
          value={leg.kind}
          disabled={props.disabled}
          onChange={(e) => move(leg, { kind: e.target.value as BuilderLeg['kind'] })}
        >
          <option value="CE">CE</option>
          <option value="PE">PE</option>
          <option value="FUT">FUT</option>
        </select>
      </td>
    </>
  );
}

/** The entry price, read on leaving the field (a half-typed "18" is not a price yet). */
function EntryPrice(props: {
  readonly leg: BuilderLeg;
  readonly name: string;
  readonly disabled: boolean;
  readonly onChange: (id: number, leg: BuilderLeg) => void;
}) {
  const { leg } = props;
  return (
    <input
      key={leg.price}
      className="strategy__price"
      inputMode="decimal"
      aria-label={`Entry price of ${props.name}`}
      defaultValue={leg.price.toFixed(priceDecimals(leg.tickSize))}
      disabled={props.disabled}
      onBlur={(e) => {
        const price = parseNumber(e.target.value);
        if (Number.isFinite(price) && price > 0) props.onChange(leg.id, { ...leg, price });
        else e.target.value = leg.price.toFixed(priceDecimals(leg.tickSize));
      }}
      onKeyDown={(e) => {
        if (e.key === 'Enter') e.currentTarget.blur();
      }}
    />
  );
}
