/** @jsxImportSource preact */
import { visible } from "../format";

/** Names and values (headers, query parameters, form fields) as a table, as text (format characters as escapes). */
export function KvTable({ label, rows, empty }: { label: string; rows: [string, string][]; empty: string }) {
  if (rows.length === 0) return <p class="muted">{empty}</p>;
  return (
    <div class="scroll">
      <table class="kv" aria-label={label}>
        <tbody>
          {rows.map(([k, v], i) => (
            <tr key={i}>
              <th scope="row">{visible(k)}</th>
              <td>{visible(v)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A query string's parameters, in order, repeated names kept. */
export function queryRows(query: string): [string, string][] {
  return query ? [...new URLSearchParams(query)] : [];
}
