import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { MtmStatus } from '@shared/domain/mtm';
import { mtmHeadline, signedRupees } from '@shared/trading/mtm-rules';
import { formatRupees } from '../../lib/format';
import { useNow } from '../../lib/use-now';
import { usePollInterval } from '../layout/use-poll-interval';
import { safetyQueries } from '../safety/queries';
import { MtmDialog } from './mtm-dialog';
import { mtmQueries, useConfirmMtm, useDismissMtm, useMtmEvents } from './queries';
import './mtm.css';

/**
 * The header's MTM piece (docs/desk.md §MTM stop and target): the day's MTM against its stop and
 * target as a small bar, "MTM unknown" while positions are not known, a soft level's countdown
 * with Run now / Keep positions, and after a run why and at what figure ("Flattened at 14:02:11
 * by MTM stop −₹20,140"). Opens the levels' dialog.
 */
export function MtmHeader() {
  useMtmEvents();
  const refetchInterval = usePollInterval('positions');
  const state = useQuery({ ...mtmQueries.state(), refetchInterval });
  const run = useQuery(safetyQueries.run());
  const [open, setOpen] = useState(false);
  const s = state.data?.status;
  const headline = s ? mtmHeadline(s, run.data ?? null) : null;
  return (
    <span className="mtm-header" data-testid="mtm-header" data-state={s?.state ?? 'loading'}>
      {s?.state === 'asking' ? (
        <Asking status={s} />
      ) : headline ? (
        <span
          className={`mtm-header__headline${run.data?.state === 'incomplete' ? ' mtm-header__headline--bad' : ''}`}
          title={headline}
        >
          {headline}
        </span>
      ) : s?.state === 'unknown' ? (
        <span className="mtm-header__unknown" title={s.why ?? undefined}>
          MTM unknown
        </span>
      ) : s?.state === 'watching' ? (
        <MtmBar status={s} />
      ) : null}
      <button type="button" className="risk-chip" onClick={() => setOpen(true)} data-testid="mtm-button">
        {s?.state === 'off' || !s ? (
          <>
            <span className="wide-only">MTM stop/target</span>
            <span className="narrow-only">MTM</span>
          </>
        ) : (
          'MTM'
        )}
      </button>
      {open ? <MtmDialog onClose={() => setOpen(false)} /> : null}
    </span>
  );
}

/** The day's MTM on a track from the stop (left) to the target (right), the lock-in marked. */
function MtmBar(props: { readonly status: MtmStatus }) {
  const { mtm, stop, target, lockedAt, charges } = props.status;
  if (mtm === null) return null;
  const span = Math.max(Math.abs(mtm) * 1.5, 1);
  const lo = stop ?? Math.min(-span, lockedAt ?? 0);
  const hi = target ?? Math.max(span, lockedAt ?? 0);
  const at = (v: number): string => `${Math.min(100, Math.max(0, ((v - lo) / (hi - lo)) * 100)).toFixed(1)}%`;
  const title = [
    stop !== null ? `stop ${signedRupees(stop)}` : null,
    target !== null ? `target ${signedRupees(target)}` : null,
    lockedAt !== null ? `locked in at ${signedRupees(lockedAt)}` : null,
    charges !== null ? `charges ≈ ${formatRupees(charges)}` : null,
  ]
    .filter(Boolean)
    .join(' · ');
  return (
    <span className="mtm-bar" title={title}>
      <span className={`mtm-bar__figure ${mtm < 0 ? 'down' : mtm > 0 ? 'up' : ''}`}>MTM {signedRupees(mtm)}</span>
      <span
        className="mtm-bar__track"
        role="meter"
        aria-label="MTM between stop and target"
        aria-valuemin={lo}
        aria-valuemax={hi}
        aria-valuenow={mtm}
      >
        <span className="mtm-bar__zero" style={{ left: at(0) }} />
        {lockedAt !== null ? <span className="mtm-bar__lock" style={{ left: at(lockedAt) }} /> : null}
        <span className="mtm-bar__mark" style={{ left: at(mtm) }} />
      </span>
      {charges !== null ? <span className="muted small mtm-bar__charges">chg {formatRupees(charges)}</span> : null}
    </span>
  );
}

/** A soft level hit: the countdown, and the trader's two answers. */
function Asking(props: { readonly status: MtmStatus }) {
  const confirm = useConfirmMtm();
  const dismiss = useDismissMtm();
  const now = useNow();
  const t = props.status.trigger;
  if (!t) return null;
  const left = t.runsAt === null ? 0 : Math.max(0, Math.ceil((t.runsAt - now) / 1_000));
  const word = t.level === 'stop' ? 'MTM stop' : t.level === 'target' ? 'MTM target' : 'MTM lock-in';
  return (
    <span className="mtm-header__asking" role="alert">
      {word} {signedRupees(t.mtm)}: flattening in {left} s
      <button type="button" className="danger small" onClick={() => confirm.mutate()} disabled={confirm.isPending}>
        Run now
      </button>
      <button type="button" className="small" onClick={() => dismiss.mutate()} disabled={dismiss.isPending}>
        Keep positions
      </button>
    </span>
  );
}
