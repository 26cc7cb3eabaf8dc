// Marking the fields of long-lived model objects that change only on rare events.
//
// V8 compiles an object field that nothing has written since the object was built as a
// constant, and the first write to it (on any object of that shape) throws away every
// optimised function that relied on that, to be compiled again. A field that first changes on
// a rare event (a node's first reservation, say) is often read on every heartbeat, and that
// first change can come long after the hot code was optimised: FB-2009's one reservation threw
// away and recompiled about a dozen of the replay's hottest functions. Writing such a field
// once more when the object is built tells V8 it is state. No value changes.

/** Rewrite each named field of `target` with its own value; names must be fields it already has. */
export function markAsState(target: object, ...fields: readonly string[]): void {
  const record = target as Record<string, unknown>;
  for (const field of fields) {
    // A misspelt name would add a property and give every such object a new shape.
    if (!Object.prototype.hasOwnProperty.call(record, field)) throw new Error(`no field ${field} to mark`);
    const value = record[field];
    record[field] = value;
  }
}
