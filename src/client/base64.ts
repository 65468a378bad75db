/**
 * Base64 without Node's Buffer (atob/btoa exist in browsers and in Node 16+), so the client runs anywhere.
 */

/**
 * Decodes base64 (or a `data:…;base64,` URL) to bytes.
 *
 * @example
 *   base64ToBytes('iVBORw0KGgo='); // Uint8Array [137, 80, 78, 71, 13, 10, 26, 10]
 */
export function base64ToBytes(base64: string): Uint8Array {
  const binary = atob(base64.replace(/^data:[^,]*;base64,/, '').replace(/\s+/g, ''));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/**
 * Encodes bytes as base64.
 *
 * @example
 *   bytesToBase64(new Uint8Array([137, 80, 78, 71])); // 'iVBORw=='
 */
export function bytesToBase64(bytes: Uint8Array): string {
  // btoa takes a "binary string"; build it in slices, as String.fromCharCode(...all) overflows the stack on large images.
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
