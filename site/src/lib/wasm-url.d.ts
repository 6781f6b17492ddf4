// "protoplay/protoplay.wasm" as a bundler's file loader gives it: the URL
// the .wasm was copied to (esbuild --loader:.wasm=file, Vite ?url and
// the like), for initialize({ wasmURL }).
declare const wasmURL: string;
export default wasmURL;
