// The allocation file's <queuePlacementPolicy>: the two rule lists the replay models become
// userAsDefaultQueue and allowUndeclaredPools; any other is judged not modelled.

import type { FairImport } from './fair-import.js';
import type { FindingSource } from './findings.js';
import type { XmlElement } from './xml.js';

export function judgePlacementPolicy(im: FairImport, element: XmlElement, source: FindingSource): void {
  const rules = element.children.map((rule) => ({
    name: rule.name === 'rule' ? (rule.attributes.name ?? '') : `<${rule.name}>`,
    create: (rule.attributes.create ?? 'true').toLowerCase() !== 'false',
    simple:
      rule.name === 'rule' &&
      rule.children.length === 0 &&
      Object.keys(rule.attributes).every((a) => a === 'name' || a === 'create' || (a === 'queue' && rule.attributes.name === 'default')),
    queue: rule.attributes.queue,
  }));
  const rendered = rules.map((r) => `${r.name}${r.create ? '' : '(create=false)'}${r.queue ? `(queue=${r.queue})` : ''}`).join(', ');
  const placed = { ...source, value: rendered };
  const names = rules.map((r) => r.name);
  const specified = rules[0];
  const defaultQueueOk = rules.every((r) => r.name !== 'default' || r.queue === undefined || r.queue === 'default' || r.queue === 'root.default');
  const simple = rules.every((r) => r.simple) && defaultQueueOk && specified?.name === 'specified';
  const shapeUser = names.length >= 2 && names[1] === 'user' && (names.length === 2 || (names.length === 3 && names[2] === 'default'));
  const shapeDefault = names.length === 2 && names[1] === 'default';
  if (simple && shapeUser && rules[1]!.create === specified.create) {
    im.fair.userAsDefaultQueue = true;
    im.fair.allowUndeclaredPools = specified.create;
    im.record(placed, 'used', 'applied: the specified queue, else root.<user>', 'scheduler.fair.userAsDefaultQueue, scheduler.fair.allowUndeclaredPools');
  } else if (simple && shapeDefault) {
    im.fair.userAsDefaultQueue = false;
    im.fair.allowUndeclaredPools = specified.create;
    im.record(placed, 'used', 'applied: the specified queue, else root.default', 'scheduler.fair.userAsDefaultQueue, scheduler.fair.allowUndeclaredPools');
  } else {
    im.record(
      placed,
      'unsupported',
      'only the placement policies "specified, user[, default]" and "specified, default" are modelled: the replay places apps in the queue the trace names, else by yarn.scheduler.fair.user-as-default-queue',
    );
  }
}
