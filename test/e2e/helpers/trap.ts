// A trap for injected script: installed before any script of the page runs, in every frame.
import type { Page } from 'playwright-core';

declare global {
  interface Window {
    __xss?: boolean;
    __xssHits?: string[];
  }
}

/** Replaces the functions XSS payloads call to prove they ran, and records every call. */
function installTrap(): void {
  const hits: string[] = [];
  window.__xss = false;
  window.__xssHits = hits;
  const trap =
    (name: string) =>
    (...args: unknown[]): undefined => {
      window.__xss = true;
      hits.push(
        `${name}(${args
          .map((arg) => String(arg))
          .join(', ')
          .slice(0, 120)})`,
      );
      return undefined;
    };
  for (const name of ['alert', 'confirm', 'prompt', 'print', 'open'] as const) {
    try {
      Object.defineProperty(window, name, { value: trap(name), configurable: false, writable: false });
    } catch {
      // A frame that already locked the property keeps its own; dialogs are still caught by page.on('dialog').
    }
  }
}

export interface Trap {
  /** Dialogs opened by any frame (a payload that reached the real alert). */
  dialogs: string[];
  /** Calls recorded by the trap in the main frame and its child frames. */
  hits(): Promise<string[]>;
}

export async function armTrap(page: Page): Promise<Trap> {
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss().catch(() => undefined);
  });
  await page.addInitScript(installTrap);
  return {
    dialogs,
    async hits() {
      const all: string[] = [];
      for (const frame of page.frames()) {
        const frameHits = await frame
          .evaluate(() => (window.__xss ? [...(window.__xssHits ?? []), '__xss flag set'] : []))
          .catch(() => [] as string[]);
        all.push(...frameHits.map((hit) => `${frame.url()}: ${hit}`));
      }
      return all;
    },
  };
}

/**
 * Fires the events that inline handlers listen to (on every element of <main>) without activating
 * links: a plain Event named "click" has no activation behaviour. Any on* attribute that survived
 * sanitising would run here and hit the trap.
 */
export async function fireHandlers(page: Page): Promise<void> {
  await page.evaluate(() => {
    const types = [
      'click',
      'dblclick',
      'mouseover',
      'mouseenter',
      'mousemove',
      'mousedown',
      'mouseup',
      'focus',
      'focusin',
      'blur',
      'load',
      'error',
      'toggle',
      'animationstart',
      'transitionend',
      'pointerover',
      'keydown',
      'input',
      'change',
      'submit',
      'scroll',
      'wheel',
    ];
    // Article content and titles only ever land in <main>; the layout around it is the playground's own.
    for (const element of Array.from(document.querySelectorAll('main, main *'))) {
      for (const type of types) element.dispatchEvent(new Event(type, { bubbles: false }));
    }
  });
}

/** Markup that could run script if it were ever triggered: reported with the element, for the message. */
export async function scriptCapableMarkup(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const found: string[] = [];
    const describe = (el: Element) => el.outerHTML.slice(0, 160);
    for (const el of Array.from(
      document.querySelectorAll('script, object, embed, applet, base, form, svg script, math, body meta[http-equiv]'),
    )) {
      found.push(`element: ${describe(el)}`);
    }
    for (const el of Array.from(document.querySelectorAll('*'))) {
      for (const attr of Array.from(el.attributes)) {
        const name = attr.name.toLowerCase();
        // Browsers ignore whitespace and control characters inside a URL scheme ("java\tscript:").
        const value = [...attr.value]
          .filter((ch) => ch.charCodeAt(0) > 0x20)
          .join('')
          .toLowerCase();
        if (name.startsWith('on')) found.push(`handler attribute ${name}: ${describe(el)}`);
        if (name === 'srcdoc') found.push(`srcdoc: ${describe(el)}`);
        if (
          /^(javascript|vbscript|data:text\/html|data:image\/svg)/.test(value) &&
          /^(href|src|action|formaction|xlink:href|data|poster|background|srcset)$/.test(name)
        ) {
          found.push(`script URL in ${name}: ${describe(el)}`);
        }
      }
    }
    for (const frame of Array.from(document.querySelectorAll('iframe'))) {
      if (!frame.hasAttribute('sandbox')) found.push(`iframe without sandbox: ${describe(frame)}`);
    }
    return found;
  });
}
