// A rule's condition in words, for the dashboard's list.
import type { RuleCondition } from './rule';
import { dollars } from './judge-run';

export function describeCondition(when: RuleCondition): string {
  switch (when.kind) {
    case 'fabricated_success':
      return 'a run claims success the environment contradicted';
    case 'loop':
      return when.minWastedUsd
        ? `a run loops and wastes at least ${dollars(when.minWastedUsd)}`
        : 'a run loops (repeat, A/B/A revisit or stall)';
    case 'exit_category':
      return `a run ends ${when.categories.join(' or ')}`;
    case 'run_cost_over':
      return `a run costs more than ${dollars(when.usd)}`;
    case 'unexplained_stop':
      return 'a run stops without naming why';
    case 'exit_share_rise':
      return `${when.category}'s share of runs over ${when.window} rises ${when.points} points on the ${when.window} before`;
    case 'cost_per_verified_unit_rise':
      return `cost per verified unit rises ${when.percent}% week on week`;
  }
}
