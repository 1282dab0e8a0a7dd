/**
 * Cross-origin isolation: WebContainers need SharedArrayBuffer, which needs both headers on every page.
 * One source for the dev/preview servers and the deploy configs written into the build.
 */
export const isolationHeaders = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};
