import { AlertsButton, AlertsDialog } from '../alerts/alerts-dialog';
import { useAlertEvents } from '../alerts/queries';
import { SafetyConfirmSlot, useKillSwitchHotkey } from './kill-switch';
import { RiskDialog } from './risk-dialog';
import { RiskBanner } from './risk-status';
import { useAlertsDialogOpen, useRiskDialogOpen, useSafetyActions } from './safety-store';
import { SafetyRunDialog } from './safety-run-dialog';
import { useSafetyEvents } from './queries';
import './safety.css';

/**
 * Everything of the safety net that is not a button: the kill switch's hotkey, the run's
 * progress pushes, price alerts' pushes (a toast when one fires), the loss-limit banner and the
 * dialogs (limits, confirmation, progress, alerts).
 */
export function SafetyLayer() {
  useKillSwitchHotkey();
  useSafetyEvents();
  useAlertEvents();
  const riskOpen = useRiskDialogOpen();
  const alertsOpen = useAlertsDialogOpen();
  const { alertsDialogToggled } = useSafetyActions();
  return (
    <>
      <RiskBanner />
      {riskOpen ? <RiskDialog /> : null}
      <SafetyConfirmSlot />
      <SafetyRunDialog />
      {alertsOpen ? <AlertsDialog onClose={() => alertsDialogToggled(false)} /> : null}
    </>
  );
}

/** The header's alerts button (opens the alerts dialog). */
export function AlertsHeaderButton() {
  const { alertsDialogToggled } = useSafetyActions();
  return <AlertsButton onOpen={() => alertsDialogToggled(true)} />;
}
