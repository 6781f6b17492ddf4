// Bytes as hex text, as the core writes them ("0a 03 41"; bytes.hex of
// every result) and as the API sends a Uint8Array.

// toHex writes b as lower-case hex digits, two per byte, unspaced.
export function toHex(b: Uint8Array): string {
  let s = "";
  for (let i = 0; i < b.length; i++) s += hexByte[b[i]];
  return s;
}

const hexByte = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));

// fromHex reads pairs of hex digits, skipping every other character
// (the core's spaces); an odd last digit is dropped.
export function fromHex(h: string): Uint8Array {
  const clean = h.replace(/[^0-9a-fA-F]/g, "");
  const out = new Uint8Array(clean.length >> 1);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(clean.slice(2 * i, 2 * i + 2), 16);
  return out;
}
