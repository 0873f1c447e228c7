import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect } from './fixtures';

/**
 * axe-core over what the page shows (docs/renderer.md §Accessibility checks): every rule
 * axe has, and a finding of serious or critical impact fails. Findings come back as one line
 * per element (rule, where, and axe's reason with its figures: "contrast of 3.5 (foreground
 * #0f9d58, background #ffffff…)"), so a failure reads without a trace.
 */

/** The serious and critical findings in `scope` (a CSS selector; the whole page when absent), one per element. */
export async function seriousViolations(page: Page, scope?: string): Promise<string[]> {
  let axe = new AxeBuilder({ page });
  if (scope) {
    // A scope that matches nothing would check nothing and pass: insist it is on screen.
    await expect(page.locator(scope).first()).toBeVisible();
    axe = axe.include(scope);
  }
  const { violations } = await axe.analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) =>
      v.nodes.map((n) => {
        const why = n.any[0]?.message ?? n.all[0]?.message ?? n.none[0]?.message ?? v.help;
        return `${v.impact} ${v.id} at ${n.target.join(' ')}: ${why}`;
      }),
    );
}

/** Fails (softly: the rest of the walk still runs) when `what` has a serious or critical finding. */
export async function expectAccessible(page: Page, what: string, scope?: string): Promise<void> {
  expect.soft(await seriousViolations(page, scope), `axe on ${what}`).toEqual([]);
}
