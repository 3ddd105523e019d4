/// <reference types="vite/client" />

/** The built files of each page module (vite.config.ts, pageFiles); null without a build. */
declare module 'virtual:page-files' {
  const pageFiles: { files: string[]; modules: Record<string, number[]> } | null;
  export default pageFiles;
}
