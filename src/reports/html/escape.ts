// Text into HTML: every string that reaches the page from a log or the database (app names,
// users, queues, trace names, paths) goes through here, in element text and attribute values.

const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** `text` with the five characters HTML gives meaning to replaced by entities. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ENTITIES[character]!);
}
