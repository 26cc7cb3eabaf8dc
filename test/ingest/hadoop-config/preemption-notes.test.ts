// A what-if on files that turn preemption on says, in words, that the replay ignores it.

import { describe, expect, it } from 'vitest';
import { preemptionNotes } from '../../../src/ingest/hadoop-config/index.js';

describe('preemptionNotes', () => {
  it('says a file that turns preemption on is ignored, and nothing of one that leaves it off or does not apply', () => {
    const finding = (property: string, value: string, kind: 'used' | 'unsupported' | 'ignored') =>
      ({ file: 'yarn-site.xml', line: 3, property, value, kind, field: null, reason: '' }) as const;
    expect(
      preemptionNotes([
        finding('yarn.scheduler.fair.preemption', 'true', 'unsupported'),
        finding('yarn.resourcemanager.scheduler.monitor.enable', 'true', 'ignored'),
        finding('yarn.resourcemanager.scheduler.monitor.enable', 'false', 'used'),
      ]),
    ).toEqual([
      'yarn-site.xml turns preemption on (yarn.scheduler.fair.preemption = true); the replay never preempts, so this what-if ignores it',
    ]);
  });
});
