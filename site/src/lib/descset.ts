// Descriptor sets in a schema: a file whose name ends in one of these
// holds a google.protobuf.FileDescriptorSet (compiler.DescriptorSetExtensions),
// sent to the core as base64 text.

/** The file name endings of descriptor sets in a schema (see Schema). */
export const DESCRIPTOR_SET_EXTENSIONS = [".binpb", ".pb", ".protoset", ".desc"];

/** Whether a schema's file called name is a descriptor set. */
export function isDescriptorSetName(name: string): boolean {
  return DESCRIPTOR_SET_EXTENSIONS.some((ext) => name.endsWith(ext));
}

// toBase64 writes b in standard base64, in chunks (String.fromCharCode
// takes a bounded number of arguments).
export function toBase64(b: Uint8Array): string {
  let bin = "";
  for (let i = 0; i < b.length; i += 0x8000) bin += String.fromCharCode(...b.subarray(i, i + 0x8000));
  return btoa(bin);
}

// fromBase64 reads standard base64; null when it is not.
export function fromBase64(s: string): Uint8Array | null {
  try {
    const bin = atob(s);
    const out = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  } catch {
    return null;
  }
}

// setFileNames lists the names of the files of a FileDescriptorSet (field
// 1, each a FileDescriptorProto whose field 1 is its name), or null when
// the bytes are not one; the core checks the set itself.
export function setFileNames(b: Uint8Array): string[] | null {
  const names: string[] = [];
  let pos = 0;
  const varint = (end: number): number => {
    let v = 0;
    for (let shift = 0; pos < end && shift < 35; shift += 7) {
      const c = b[pos++];
      v += (c & 0x7f) * 2 ** shift;
      if (c < 0x80) return v;
    }
    throw new Error("bad varint");
  };
  try {
    while (pos < b.length) {
      const tag = varint(b.length);
      if ((tag & 7) !== 2) return null;
      const len = varint(b.length);
      const end = pos + len;
      if (end > b.length) return null;
      if (tag >>> 3 === 1) {
        let name = "";
        while (pos < end) {
          const t = varint(end);
          const wt = t & 7;
          if (wt === 0) varint(end);
          else if (wt === 1) pos += 8;
          else if (wt === 5) pos += 4;
          else if (wt === 2) {
            const l = varint(end);
            if (t >>> 3 === 1) name = new TextDecoder().decode(b.subarray(pos, pos + l));
            pos += l;
          } else return null;
        }
        names.push(name);
      }
      pos = end;
    }
  } catch {
    return null;
  }
  return names;
}
