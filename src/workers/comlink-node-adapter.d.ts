// comlink ships node-adapter.d.ts beside node-adapter.mjs, where TypeScript looks for node-adapter.d.mts instead.
declare module 'comlink/dist/esm/node-adapter.mjs' {
  export { default } from 'comlink/dist/esm/node-adapter';
}
