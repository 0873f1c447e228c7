import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { describeAlert, type AlertChange, type AlertDraft, type PriceAlert } from '@shared/domain/alert';
import { beep } from '../../lib/beep';
import { formatPrice } from '../../lib/format';
import { call, subscribe } from '../../lib/ipc-client';
import { useSoundOnRef } from '../../state/settings-store';
import { useToastActions } from '../../state/toast-store';
import { OUTCOME_WORDS } from './alert-form';

/** Query factory for price alerts (docs/contract.md §Price alerts): main keeps and evaluates them; pushes keep the list current. */
export const alertQueries = {
  list: () => queryOptions({ queryKey: ['alerts', 'list'], queryFn: () => call('alerts.list'), retry: false }),
};

/** Creates an alert. */
export function useCreateAlert() {
  return useMutation({
    mutationKey: ['alerts', 'create'],
    mutationFn: (draft: AlertDraft) => call('alerts.create', draft),
  });
}

/** Changes an alert (and arms it again). */
export function useUpdateAlert() {
  return useMutation({
    mutationKey: ['alerts', 'update'],
    mutationFn: (v: { id: string; change: AlertChange }) => call('alerts.update', v),
  });
}

/** Deletes an alert. */
export function useDeleteAlert() {
  return useMutation({ mutationKey: ['alerts', 'delete'], mutationFn: (id: string) => call('alerts.delete', { id }) });
}

/** "INFY above 1,510.00", "INFY crosses above EMA 20 (5 min)", "MTM below ₹-20,000.00": an alert in words. */
export function alertText(
  a: Pick<PriceAlert, 'tradingsymbol' | 'condition' | 'price'> & Partial<Pick<PriceAlert, 'basis'>>,
): string {
  return describeAlert(a, (n) => formatPrice(n));
}

/**
 * Keeps the alert list current from `alerts.changed`, and turns each `alerts.fired` into a
 * toast, and a tone when the alert asks for one or Sound is on. Main fired it whether or not
 * this window was showing (and showed the OS notification itself when the alert asks for one).
 */
export function useAlertEvents(): void {
  const client = useQueryClient();
  const { toastRaised } = useToastActions();
  const soundRef = useSoundOnRef();
  useEffect(() => {
    const offChanged = subscribe('alerts.changed', ({ alerts }) =>
      client.setQueryData(alertQueries.list().queryKey, alerts),
    );
    const offFired = subscribe('alerts.fired', (a) => {
      toastRaised({
        id: `alert-${a.id}-${a.triggeredAt ?? 0}`,
        tone: 'neutral',
        title: `Alert: ${alertText(a)}`,
        detail:
          a.triggeredPrice === null
            ? a.note
            : `${a.basis.kind === 'mtm' ? 'MTM ₹' : 'LTP '}${formatPrice(a.triggeredPrice)}${a.note ? ` · ${a.note}` : ''}${a.orders.length > 0 ? ` · placing ${a.orders.length === 1 ? 'its order' : `${a.orders.length} orders`}` : ''}`,
      });
      // The alert's own tone, or every alert's when the desk-wide Sound switch is on (docs/contract.md §Alert notifications).
      if (a.notify.sound || soundRef.current) beep('neutral');
    });
    // What a fired alert's orders came to: placed, refused with why, or not yet confirmed (docs/desk.md §Alerts).
    const offOrdered = subscribe('alerts.ordered', (a) => {
      const o = a.outcome;
      if (!o) return;
      toastRaised({
        id: `alert-orders-${a.id}-${a.triggeredAt ?? 0}`,
        tone: o.state === 'placed' ? 'good' : o.state === 'unconfirmed' ? 'neutral' : 'bad',
        title: `Alert orders ${OUTCOME_WORDS[o.state].toLowerCase()}: ${alertText(a)}`,
        detail: o.detail,
      });
    });
    return () => {
      offChanged();
      offFired();
      offOrdered();
    };
  }, [client, toastRaised, soundRef]);
}
