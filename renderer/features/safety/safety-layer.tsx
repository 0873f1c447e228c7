import { SafetyConfirmSlot, useKillSwitchHotkey } from './kill-switch';
import { RiskDialog } from './risk-dialog';
import { RiskBanner } from './risk-status';
import { useRiskDialogOpen } from './safety-store';
import { SafetyRunDialog } from './safety-run-dialog';
import { useSafetyEvents } from './queries';
import './safety.css';

/**
 * Everything of the safety net that is not a button: the kill switch's hotkey, the run's
 * progress pushes, the loss-limit banner and the dialogs (limits, confirmation, progress).
 */
export function SafetyLayer() {
  useKillSwitchHotkey();
  useSafetyEvents();
  const riskOpen = useRiskDialogOpen();
  return (
    <>
      <RiskBanner />
      {riskOpen ? <RiskDialog /> : null}
      <SafetyConfirmSlot />
      <SafetyRunDialog />
    </>
  );
}
