/**
 * Resolves once the browser has drawn what is on screen now: in the task after the next animation
 * frame. Where there are no frames to wait for (no requestAnimationFrame), at once.
 */
export function afterPaint(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof requestAnimationFrame !== 'function') return resolve();
    requestAnimationFrame(() => setTimeout(resolve, 0));
  });
}
