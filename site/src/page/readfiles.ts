// Reading uploaded or dropped files, shared by the workspace's upload
// (./filesmenu.ts) and the Changes panel's baseline (./changes.ts): .proto
// files as text (named by their folder path when a folder was picked), a
// .zip's .proto files, and descriptor sets (../lib/descset.ts) as base64
// text under their names.
import { isDescriptorSetName, toBase64 } from "../lib/descset";
import { toast } from "./ui";
import { unzip } from "./zip";

// readUploads reads list into name and text pairs. A .zip without .proto
// files and a file over 8 MiB are skipped with a toast; it throws when a
// file cannot be read (a damaged zip).
export async function readUploads(list: FileList | File[]): Promise<{ name: string; content: string }[]> {
  const out: { name: string; content: string }[] = [];
  for (const file of list) {
    if (/\.zip$/i.test(file.name)) {
      const entries = await unzip(new Uint8Array(await file.arrayBuffer()), (n) => n.endsWith(".proto") && !n.startsWith("__MACOSX/"));
      if (!entries.length) toast(`${file.name} holds no .proto files`);
      out.push(...entries);
    } else if (file.size > 8 << 20) toast(`${file.name} is over 8 MiB; skipped`);
    else if (isDescriptorSetName(file.name)) out.push({ name: file.name, content: toBase64(new Uint8Array(await file.arrayBuffer())) });
    else out.push({ name: (file as File & { webkitRelativePath?: string }).webkitRelativePath || file.name, content: await file.text() });
  }
  return out;
}

// The file picker's accept list for what readUploads reads.
export const UPLOAD_ACCEPT = ".proto,.zip,.binpb,.pb,.protoset,.desc,text/plain,application/zip,application/octet-stream";
