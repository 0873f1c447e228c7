// sql.js's build with its WebAssembly inlined (one file esbuild bundles, no .wasm to ship beside
// it): the same API as the package's main entry, whose types @types/sql.js gives.
declare module 'sql.js/dist/sql-wasm-inline.js' {
  import type initSqlJs from 'sql.js';
  const init: typeof initSqlJs;
  export = init;
}
