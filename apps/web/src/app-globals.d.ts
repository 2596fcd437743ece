/** Version of the root package, injected by Vite's `define` (vite.config.ts). */
declare const __APP_VERSION__: string;
