/** @jsxImportSource preact */
import { exactBytes, size } from "../format";

/** A size in human units ("1.0 MB"), the exact byte count on hover. */
export function Size({ bytes }: { bytes: number }) {
  return <span title={exactBytes(bytes)}>{size(bytes)}</span>;
}
