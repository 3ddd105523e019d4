import { twMerge } from 'tailwind-merge';

/**
 * Joins class names, skipping falsy values; of two Tailwind classes that set the same property
 * (at the same breakpoint and state), the later one wins. A plain join left both in the class
 * list, where the stylesheet's order decided: `hidden` given to a button lost to its own
 * `inline-flex`, and the public blog header's links overlapped on phones.
 */
export function cn(...classes: Array<string | false | null | undefined>): string {
  return twMerge(classes);
}
