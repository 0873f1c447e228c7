/**
 * The browser host bridge's own close codes, with no zod behind them: the page's socket module
 * starts before the app's code (renderer/main.tsx), so what it imports stays small
 * (docs/live-data.md §The first screen first).
 */

/**
 * The close code of a browser host bridge whose main window a newer page claimed (a reload, a
 * second tab): that page does not reconnect, or two pages would take the window from each other
 * (docs/workstation.md §Which page draws which window).
 */
export const BRIDGE_REPLACED = 4001;
/** The close code of a bridge that claimed a pop-out not on the desk; the page retries as after any drop. */
export const BRIDGE_NO_SUCH_WINDOW = 4004;
