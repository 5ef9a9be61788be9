/** @jsxImportSource preact */
import type { ComponentChildren } from "preact";

/**
 * A named box that scrolls on its own (a body, a tree, a command). It takes the focus, so that a
 * keyboard can scroll it too.
 */
export function Scroller({ label, class: cls, children }: { label: string; class?: string; children: ComponentChildren }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a region that scrolls must be reachable by keyboard to be scrolled (WCAG 2.1.1; axe-core's scrollable-region-focusable)
    <section class={`scroller ${cls ?? ""}`} aria-label={label} tabIndex={0}>
      {children}
    </section>
  );
}
