/**
 * The client as a browser would get it: `src/client` bundled by esbuild for the browser platform (a Node
 * built-in anywhere in it fails the build), minified, with its size.
 */
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

export interface ClientBundle {
  code: string;
  /** Minified size in bytes. */
  bytes: number;
  /** Gzipped size in bytes, what a browser downloads. */
  gzipBytes: number;
  /** Bytes in the output per input file (own code and each dependency). */
  inputs: Record<string, number>;
}

/** `esm` for the size a bundler would ship; `iife` to load in a page as `window.gateway`. */
export async function bundleClient(format: 'esm' | 'iife' = 'esm'): Promise<ClientBundle> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL('../../src/client/index.ts', import.meta.url))],
    bundle: true,
    minify: true,
    format,
    globalName: 'gateway',
    platform: 'browser',
    target: 'es2022',
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const code = result.outputFiles[0]!.text;
  const output = Object.values(result.metafile.outputs)[0]!;
  const inputs = Object.fromEntries(Object.entries(output.inputs).map(([file, { bytesInOutput }]) => [file, bytesInOutput]));
  return { code, bytes: Buffer.byteLength(code), gzipBytes: gzipSync(code).length, inputs };
}
