import type { Handlers } from '../dispatcher';
import type { SquareOffHost } from '../square-off/square-off-host';

/** `squareOff.*`: the square-off at a time, kept and run by main (docs/contract.md §Risk guard). */
export function squareOffHandlers(
  host: SquareOffHost,
): Pick<Handlers, 'squareOff.get' | 'squareOff.set' | 'squareOff.answer'> {
  return {
    'squareOff.get': async () => host.current().state(),
    'squareOff.set': async ({ settings }) => host.current().set(settings),
    'squareOff.answer': async ({ run }) => host.current().answer(run),
  };
}
