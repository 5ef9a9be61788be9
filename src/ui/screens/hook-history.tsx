/** @jsxImportSource preact */
import type { Attempt, Hook } from "../api";
import { Time } from "../parts/time";

/** What happened to a hook: its handlers' attempts, and its events from the moment it was caught. */
export function HookHistory({ hook, attempts }: { hook: Hook; attempts: Attempt[] }) {
  return (
    <>
      <h2>Handler attempts</h2>
      {attempts.length === 0 ? (
        <p class="muted">No handler ran on this hook.</p>
      ) : (
        <div class="scroll">
          <table class="cards" aria-label="Attempts">
            <thead>
              <tr>
                <th>Handler</th>
                <th>#</th>
                <th>Outcome</th>
                <th>Status</th>
                <th>When</th>
                <th>Excerpt</th>
                <th>Error</th>
              </tr>
            </thead>
            <tbody>
              {attempts.map((a, i) => (
                <tr key={i}>
                  <td data-label="Handler">
                    {a.handler}
                    {a.resigned && (
                      <>
                        {" "}
                        <span class="tag" title={`signed afresh as ${a.resigned}`}>
                          re-signed: {a.resigned}
                        </span>
                      </>
                    )}
                    {a.chaos && (
                      <>
                        {" "}
                        <span class="tag" title="delivery chaos done on purpose">
                          chaos: {a.chaos}
                        </span>
                      </>
                    )}
                  </td>
                  <td data-label="#">{a.attempt}</td>
                  <td data-label="Outcome">{a.outcome}</td>
                  <td data-label="Status">{a.http_status ?? a.exit_code ?? ""}</td>
                  <td data-label="When" class="when">
                    <Time at={a.due_at} />
                  </td>
                  <td data-label="Excerpt">
                    <code>{a.excerpt}</code>
                  </td>
                  <td data-label="Error">{a.error}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <h2>Events</h2>
      <div class="scroll">
        <table aria-label="Events">
          <thead>
            <tr>
              <th>When</th>
              <th>Event</th>
              <th>Actor</th>
              <th>Message</th>
            </tr>
          </thead>
          <tbody>
            <tr>
              <td class="when">
                <Time at={hook.created_at} />
              </td>
              <td>caught</td>
              <td>{hook.ip}</td>
              <td></td>
            </tr>
            {hook.events.map((e, i) => (
              <tr key={i}>
                <td class="when">
                  <Time at={e.created_at} />
                </td>
                <td>{e.kind}</td>
                <td>{e.actor}</td>
                <td>{e.message}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
