// A finished run's verdict: what was expected (every invariant held, or for a
// mistake the one it must break), each invariant check, and the expectations.
import type { VerdictView } from '../../api/console.api.js';
import { DataTable } from './data-table.js';
import { Badge } from './status-badge.js';

type Check = VerdictView['checks'][number];

export function VerdictPanel({ verdict }: { readonly verdict: VerdictView }) {
  return (
    <div class="verdict">
      <p>
        <Badge text={verdict.passed ? 'PASS' : 'FAIL'} />{' '}
        {verdict.expected.kind === 'break'
          ? `The mistake must break ${verdict.expected.invariant}.`
          : 'Every invariant must hold.'}
      </p>
      {verdict.failures.length === 0 ? null : (
        <>
          <h4>Failures</h4>
          <ul>
            {verdict.failures.map((failure) => (
              <li key={failure}>{failure}</li>
            ))}
          </ul>
        </>
      )}
      <DataTable<Check>
        name="Invariants"
        rows={verdict.checks}
        rowKey={(check) => check.name}
        empty="No invariant was checked."
        columns={[
          { header: 'Name', cell: (check) => <span title={check.title}>{check.name}</span> },
          { header: 'Status', cell: (check) => <Badge text={check.status} /> },
          { header: 'Summary', cell: (check) => <CheckSummary check={check} /> },
        ]}
      />
      {verdict.expectations.length === 0 ? null : (
        <>
          <h4>Expectations</h4>
          <ul>
            {verdict.expectations.map((expectation) => (
              <li key={expectation.description}>
                <Badge text={expectation.held ? 'held' : 'broken'} /> {expectation.description}
                {expectation.detail === null ? null : (
                  <span class="muted">{` (${expectation.detail})`}</span>
                )}
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

function CheckSummary({ check }: { readonly check: Check }) {
  return (
    <>
      {check.summary}
      {check.violations.length === 0 ? null : (
        <ul class="violations">
          {check.violations.map((violation) => (
            <li
              key={`${violation.subject}:${violation.detail}`}
            >{`${violation.subject}: ${violation.detail}`}</li>
          ))}
        </ul>
      )}
    </>
  );
}
