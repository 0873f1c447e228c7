import { useQuery } from '@tanstack/react-query';
import type { Gtt } from '@shared/domain/gtt';
import { describeError } from '../../lib/describe-error';
import { formatIstDateTime, formatPrice, formatQty } from '../../lib/format';
import { useInstruments } from '../instruments/queries';
import { Panel } from '../layout/panel';
import { PanelPlaceholder } from '../layout/panel-states';
import { RecordTable, RowActions } from '../layout/record-table';
import { usePollInterval } from '../layout/use-poll-interval';
import { useMarketSubscription } from '../market/use-market-subscription';
import { useQuotesOf } from '../market/use-quotes';
import { distance, formOfGtt } from './gtt-model';
import { useGttDialogActions } from './gtt-store';
import { gttQueries, useDeleteGtt } from './queries';

/** A GTT status's badge colour, in the blotter's palette. */
const STATUS_CLASS: Readonly<Record<Gtt['status'], string>> = {
  active: 'st-pending',
  triggered: 'st-complete',
  rejected: 'st-rejected',
  cancelled: 'st-cancelled',
  expired: 'st-cancelled',
};

/**
 * The GTT panel (docs/gtt.md): every GTT the broker holds, newest first, with its status, trigger
 * values and how far the price is from each, the orders it placed once triggered, and Modify
 * and Cancel on the active ones. The list follows the order pushes (a firing GTT places an
 * order) and otherwise polls at the positions' pace.
 */
export function GttPanel() {
  const refetchInterval = usePollInterval('positions');
  const result = useQuery({ ...gttQueries.list(), refetchInterval });
  const gtts = result.data ?? [];
  const quotes = useQuotesOf(gtts.map((g) => g.instrumentToken));
  const { byToken } = useInstruments();
  useMarketSubscription(
    'gtt',
    gtts.filter((g) => g.status === 'active').map((g) => g.instrumentToken),
  );
  return (
    <Panel
      title="GTT"
      source={{ ...result, queryKey: gttQueries.list().queryKey }}
      actions={<span className="muted">{formatQty(gtts.filter((g) => g.status === 'active').length)} active</span>}
    >
      {result.data === undefined ? (
        <PanelPlaceholder what="GTTs" error={result.error} />
      ) : (
        <div className="table-scroll">
          <RecordTable
            label="GTT"
            columns={[
              'Created',
              'Symbol',
              'Type',
              'Side',
              { header: 'Qty', num: true },
              { header: 'Triggers', num: true },
              { header: 'LTP', num: true },
              { header: 'Distance', num: true },
              'Status',
              'Orders',
            ]}
            records={gtts}
            what="GTTs"
            empty="No GTTs"
            row={(g) => (
              <GttRow
                key={g.gttId}
                gtt={g}
                ltp={quotes[g.instrumentToken]?.lastPrice}
                tick={byToken.get(g.instrumentToken)?.tickSize}
              />
            )}
          />
        </div>
      )}
    </Panel>
  );
}

function GttRow(props: { readonly gtt: Gtt; readonly ltp: number | undefined; readonly tick: number | undefined }) {
  const { gtt: g, ltp, tick } = props;
  const del = useDeleteGtt();
  const { opened } = useGttDialogActions();
  const active = g.status === 'active';
  const first = g.legs[0];
  const names = g.type === 'oco' ? ['SL', 'T'] : [''];
  return (
    <tr data-testid={`gtt-row-${g.gttId}`}>
      <td className="muted small">{formatIstDateTime(g.createdAt)}</td>
      <td className="sym">
        {g.tradingsymbol} <span className="muted small">{g.exchange}</span>
      </td>
      <td>{g.type === 'oco' ? 'OCO' : 'Single'}</td>
      <td className={first?.transactionType === 'BUY' ? 'buy' : 'sell'}>{first?.transactionType}</td>
      <td className="num">{formatQty(first?.quantity ?? 0)}</td>
      <td className="num">
        {g.triggerValues.map((v, i) => `${names[i] ? `${names[i]} ` : ''}${formatPrice(v, tick)}`).join(' · ')}
      </td>
      <td className="num">{formatPrice(ltp ?? 0, tick)}</td>
      <td className="num">{active ? g.triggerValues.map((v) => distance(v, ltp)).join(' · ') : '–'}</td>
      <td>
        <span
          className={`badge ${STATUS_CLASS[g.status]}`}
          data-testid={`gtt-status-${g.gttId}`}
          title={g.statusMessage ?? ''}
        >
          {g.status}
        </span>
      </td>
      <td className="small" data-testid={`gtt-orders-${g.gttId}`}>
        {g.legs.map((l, i) =>
          l.orderId ? (
            <span key={i}>
              {names[i] ? `${names[i]}: ` : ''}order {l.orderId}
            </span>
          ) : g.status === 'triggered' || g.status === 'rejected' ? (
            <span key={i} className="muted">
              {names[i] ? `${names[i]}: ` : ''}done{' '}
            </span>
          ) : null,
        )}
      </td>
      <RowActions>
        {active ? (
          <>
            <button
              type="button"
              aria-label={`Modify GTT ${g.gttId}`}
              onClick={() => opened(g.instrumentToken, formOfGtt(g), g)}
            >
              Modify
            </button>
            <button
              type="button"
              aria-label={`Cancel GTT ${g.gttId}`}
              disabled={del.isPending}
              onClick={() => del.mutate(g.gttId)}
              title={del.error ? describeError(del.error) : undefined}
            >
              Cancel
            </button>
          </>
        ) : null}
      </RowActions>
    </tr>
  );
}
