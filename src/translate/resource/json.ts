import { ResourceError, type Segment } from "./types";

/**
 * String values of a JSON document, at any depth; object keys, numbers, booleans and null are
 * not translatable. Throws ResourceError when the data is not JSON.
 */
export function jsonSegments(data: string): Segment[] {
  try {
    JSON.parse(data);
  } catch {
    throw new ResourceError("the resource data is not valid JSON");
  }
  // The document is valid JSON, so a plain scan for string tokens is exact.
  const out: Segment[] = [];
  let i = 0;
  while (i < data.length) {
    if (data[i] !== '"') {
      i++;
      continue;
    }
    let j = i + 1;
    while (data[j] !== '"') j += data[j] === "\\" ? 2 : 1;
    let k = j + 1;
    while (k < data.length && /\s/.test(data[k]!)) k++;
    if (data[k] !== ":") out.push({ start: i + 1, end: j, text: JSON.parse(data.slice(i, j + 1)) as string });
    i = j + 1;
  }
  return out;
}
