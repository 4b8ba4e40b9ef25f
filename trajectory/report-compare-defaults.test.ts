import { describe, expect, it } from 'vitest';
import { chooseComparison } from './report-compare-defaults';
import type { AgentVariantRuns } from './report-compare-defaults';

const ALL = '*';
// Two agents with one variant each that outnumber an agent with two: the mix the issue saw.
const pairs: AgentVariantRuns[] = [
  { agent: 'ops-agent', variant: 'guarded', runs: 40 },
  { agent: 'exporter', variant: 'nightly', runs: 30 },
  { agent: 'coder', variant: 'v1', runs: 12 },
  { agent: 'coder', variant: 'v2', runs: 10 },
  { agent: 'crawler', variant: 'v1', runs: 3 },
];

describe('what the compare page opens on', () => {
  it('defaults to the agent with the most runs among those with two variants', () => {
    expect(chooseComparison(pairs, {}, ALL)).toMatchObject({
      agent: 'coder',
      agentDefaulted: true,
      a: 'v1',
      b: 'v2',
      variants: ['v1', 'v2'],
      mixedAgents: false,
    });
  });

  it('over all agents it warns when the two sides come from different agents', () => {
    const mixed = chooseComparison(pairs, { agent: ALL }, ALL);
    expect(mixed).toMatchObject({ agent: null, a: 'guarded', b: 'nightly', mixedAgents: true });
    expect(mixed.agentsOf).toEqual({ a: ['ops-agent'], b: ['exporter'] });
    const v1v2 = chooseComparison(pairs, { agent: ALL, a: 'v1', b: 'v2' }, ALL);
    // v1 ran on coder and crawler, v2 only on coder: still mixed.
    expect(v1v2).toMatchObject({ mixedAgents: true, agentsOf: { a: ['coder', 'crawler'] } });
    const same = chooseComparison(
      [...pairs, { agent: 'crawler', variant: 'v2', runs: 1 }],
      { agent: ALL, a: 'v1', b: 'v2' },
      ALL,
    );
    expect(same.mixedAgents).toBe(false);
  });

  it('a link that names variants of other agents compares them over all agents, and warns', () => {
    expect(chooseComparison(pairs, { a: 'guarded', b: 'nightly' }, ALL)).toMatchObject({
      agent: null,
      agentDefaulted: false,
      a: 'guarded',
      b: 'nightly',
      mixedAgents: true,
    });
    // Variants one agent has: that agent.
    expect(chooseComparison(pairs, { a: 'v2', b: 'v1' }, ALL)).toMatchObject({
      agent: 'coder',
      agentDefaulted: true,
    });
  });

  it('keeps what the URL asks for', () => {
    expect(chooseComparison(pairs, { agent: 'coder', a: 'v2', b: 'v1' }, ALL)).toMatchObject({
      agent: 'coder',
      agentDefaulted: false,
      a: 'v2',
      b: 'v1',
    });
    expect(chooseComparison(pairs, { a: 'v2' }, ALL)).toMatchObject({ a: 'v2', b: 'v1' });
  });

  it('with no agent of two variants, compares over all agents and says if they differ', () => {
    const single = pairs.filter((p) => p.agent !== 'coder');
    expect(chooseComparison(single, {}, ALL)).toMatchObject({
      agent: null,
      agentDefaulted: false,
      a: 'guarded',
      b: 'nightly',
      mixedAgents: true,
    });
    expect(chooseComparison([], {}, ALL)).toMatchObject({ a: undefined, b: undefined });
  });
});
