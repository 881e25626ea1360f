/**
 * Which backend runs the models here, for the public API: a module of its
 * own, so that the library's typings never reach onnxruntime's (which need
 * the DOM library in a Node project).
 */
export async function activeBackend(): Promise<'wasm' | 'native' | 'webgpu'> {
  const { activeBackend: active } = await import('./onnx-model.js');
  return active();
}
