// The plain-script build (protoplay.iife.js, for <script src> from a CDN):
// the API as the global `protoplay`, and <protoplay-editor> defined.
// protoplay.wasm is fetched from beside the script.
export * from "./index";
export { ProtoplayEditor } from "./element";
