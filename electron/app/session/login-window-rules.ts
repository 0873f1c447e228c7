/** The navigation rule of each open login window, by its contents (the global lockdown asks it). */
const rules = new WeakMap<object, (url: string) => boolean>();

/** Gives a login window's contents its own navigation rule (docs/session.md §Login through the broker's page). */
export function setLoginWindowRule(contents: object, rule: (url: string) => boolean): void {
  rules.set(contents, rule);
}

/**
 * The rule for `contents` when it is a Kite login window, else undefined: such a window may
 * navigate within the login page's origin and to the loopback callback only.
 */
export function loginWindowRule(contents: object): ((url: string) => boolean) | undefined {
  return rules.get(contents);
}
