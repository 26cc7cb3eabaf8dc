// Reading Hadoop XML files: a well-formedness check, a small element tree with line numbers,
// and Hadoop's `<configuration>` format (properties, last one wins, `${var}` substitution).

import { readTextFile } from '../text-file.js';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { UserError } from '../../model/errors.js';
import { finding, FindingList } from './findings.js';
import type { Findings } from './findings.js';

/** A Hadoop configuration file that cannot be read or makes no sense: the message names the file. */
export class HadoopConfigError extends UserError {
  override readonly name: string = 'HadoopConfigError';
}

export interface XmlElement {
  readonly name: string;
  readonly attributes: Readonly<Record<string, string>>;
  readonly children: readonly XmlElement[];
  /** The element's own text (CDATA included, entities decoded), trimmed; '' when none. */
  readonly text: string;
  /** 1-based line of the start tag. */
  readonly line: number;
}

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  captureMetaData: true,
  // Numeric character references (&#65;) are decoded only with this on.
  htmlEntities: true,
});
// Typed as the `Symbol` wrapper object by the library; it is a primitive symbol at run time.
const META = XMLParser.getMetaDataSymbol() as unknown as symbol;
const ATTRIBUTES = ':@';
const TEXT = '#text';

// Comments and CDATA sections, which may mention `<!ENTITY` without declaring anything.
const COMMENT_OR_CDATA = /<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>/g;
const ENTITY_DECLARATION = /<!ENTITY\s+(?:%\s+)?([^\s>]*)/;

/**
 * Entities a DOCTYPE declares are refused: Hadoop's files need none, an external one would read
 * another file (or a URL), and an internal one can multiply the text it stands for.
 */
function refuseEntityDeclarations(body: string, file: string): void {
  const markup = body.includes('<!') ? body.replace(COMMENT_OR_CDATA, '') : body;
  const declaration = ENTITY_DECLARATION.exec(markup);
  if (declaration === null) return;
  throw new HadoopConfigError(
    `${file}: its DOCTYPE declares the entity '${declaration[1]}'; entity declarations are not read ` +
      '(an external one would read another file): write the values out in the file and remove the DOCTYPE',
  );
}

/**
 * Parse an XML document whose single top-level element must be `rootName`. Malformed XML is
 * a user error with the file, line and column.
 */
export function parseXmlDocument(text: string, file: string, rootName: string): XmlElement {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  refuseEntityDeclarations(body, file);
  const valid = XMLValidator.validate(body);
  if (valid !== true) {
    const { msg, line, col } = valid.err;
    const at = col === undefined ? `line ${line}` : `line ${line}, column ${col}`;
    throw new HadoopConfigError(`${file} is not well-formed XML: ${at}: ${msg}`);
  }
  const lineStarts = [0];
  for (let i = body.indexOf('\n'); i >= 0; i = body.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  const lineOf = (index: number): number => {
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid]! <= index) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  };
  let parsed: unknown;
  try {
    parsed = parser.parse(body);
  } catch (error) {
    // What the validator let through and the parser would not take (a DOCTYPE it cannot read).
    const message = error instanceof Error ? error.message.split('\n')[0]! : String(error);
    throw new HadoopConfigError(`${file} cannot be read as XML: ${message}`);
  }
  const top = toElements(parsed, lineOf);
  if (top.length !== 1) {
    throw new HadoopConfigError(`${file} is not well-formed XML: it has ${top.length} top-level elements, expected one <${rootName}>`);
  }
  const root = top[0]!;
  if (root.name !== rootName) {
    throw new HadoopConfigError(`${file}: the top-level element is <${root.name}>, expected <${rootName}>`);
  }
  return root;
}

function isRecord(value: unknown): value is Record<string | symbol, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** fast-xml-parser's ordered output (`[{ tag: [...children], ':@': {attrs} }, { '#text': 'x' }]`) as elements. */
function toElements(nodes: unknown, lineOf: (index: number) => number): XmlElement[] {
  if (!Array.isArray(nodes)) return [];
  const out: XmlElement[] = [];
  for (const node of nodes as unknown[]) {
    if (!isRecord(node)) continue;
    const name = Object.keys(node).find((key) => key !== ATTRIBUTES && key !== TEXT);
    if (name === undefined) continue;
    const content = node[name];
    const attributes: Record<string, string> = {};
    const rawAttributes = node[ATTRIBUTES];
    if (isRecord(rawAttributes)) {
      for (const [key, value] of Object.entries(rawAttributes)) attributes[key] = String(value);
    }
    const texts: string[] = [];
    if (Array.isArray(content)) {
      for (const child of content as unknown[]) {
        if (isRecord(child) && typeof child[TEXT] === 'string') texts.push(child[TEXT]);
      }
    }
    const meta = node[META];
    const startIndex = isRecord(meta) && typeof meta.startIndex === 'number' ? meta.startIndex : 0;
    out.push({
      name,
      attributes,
      children: toElements(content, lineOf),
      text: texts.join('').trim(),
      line: lineOf(startIndex),
    });
  }
  return out;
}

/** One effective property of a Hadoop configuration file. */
export interface HadoopProperty {
  readonly file: string;
  readonly line: number;
  readonly name: string;
  /** After `${var}` substitution within the file, trimmed (Hadoop's typed getters trim). */
  readonly value: string;
  /** As written. */
  readonly rawValue: string;
  /** The first `${var}` that the file does not define (Hadoop leaves it, and the rest, as is). */
  readonly unresolved: string | null;
}

export interface HadoopConfiguration extends Findings {
  readonly file: string;
  /** One per name, the last occurrence winning, in file order. */
  readonly properties: readonly HadoopProperty[];
}

// Hadoop's Configuration substitutes at most this many variables in one value.
const MAX_SUBSTITUTIONS = 20;
const VARIABLE = /\$\{[^}$\s]+\}/;

/**
 * Expand `${name}` the way Hadoop's Configuration does, looking names up in the same file
 * only (Java system properties and other files are not known here): left to right, each
 * inserted value expanded in turn, stopping at the first name that is not defined.
 */
function substituteVariables(
  raw: string,
  lookup: (name: string) => string | undefined,
  describe: string,
): { value: string; unresolved: string | null } {
  let value = raw;
  for (let i = 0; i < MAX_SUBSTITUTIONS; i++) {
    const match = VARIABLE.exec(value);
    if (!match) return { value, unresolved: null };
    const name = match[0].slice(2, -1);
    const replacement = lookup(name);
    if (replacement === undefined) return { value, unresolved: match[0] };
    value = value.slice(0, match.index) + replacement + value.slice(match.index + match[0].length);
  }
  if (!VARIABLE.test(value)) return { value, unresolved: null };
  throw new HadoopConfigError(
    `${describe}: variable substitution goes deeper than ${MAX_SUBSTITUTIONS} levels (a variable that refers to itself?)`,
  );
}

/** Parse the text of a Hadoop `<configuration>` file (yarn-site.xml, capacity-scheduler.xml). */
export function parseHadoopConfiguration(text: string, file: string): HadoopConfiguration {
  const root = parseXmlDocument(text, file, 'configuration');
  // What the file itself says of entries nobody reads: repeats, includes, empty values.
  const findings = new FindingList();
  const occurrences: { name: string; rawValue: string; line: number }[] = [];
  const collect = (element: XmlElement): void => {
    for (const child of element.children) {
      if (child.name === 'configuration') {
        collect(child);
        continue;
      }
      if (child.name === 'include' || child.name.endsWith(':include')) {
        const href = child.attributes.href ?? '';
        findings.push(
          finding(
            { file, line: child.line, property: `<${child.name}>`, value: href },
            'unsupported',
            'XInclude is not followed: the properties of the included file are not read; copy them into this file',
          ),
        );
        continue;
      }
      if (child.name !== 'property') {
        findings.push(
          finding(
            { file, line: child.line, property: `<${child.name}>`, value: child.text },
            'unknown',
            'not a <property> element; Hadoop skips it',
          ),
        );
        continue;
      }
      const field = (tag: string): string | undefined =>
        child.children.find((c) => c.name === tag)?.text ?? child.attributes[tag];
      const name = field('name')?.trim() ?? '';
      if (name === '') {
        findings.push(
          finding({ file, line: child.line, property: '<property>', value: field('value') ?? '' }, 'unknown', 'a <property> without a <name>'),
        );
        continue;
      }
      occurrences.push({ name, rawValue: field('value') ?? '', line: child.line });
    }
  };
  collect(root);

  const last = new Map<string, (typeof occurrences)[number]>();
  for (const o of occurrences) last.set(o.name, o);
  const raw = (name: string): string | undefined => {
    const entry = last.get(name);
    return entry === undefined || entry.rawValue === '' ? undefined : entry.rawValue;
  };
  const properties: HadoopProperty[] = [];
  for (const o of occurrences) {
    const winner = last.get(o.name)!;
    const source = { file, line: o.line, property: o.name, value: o.rawValue.trim() };
    if (winner !== o) {
      findings.push(finding(source, 'ignored', `set again at line ${winner.line}; the last value wins`));
      continue;
    }
    if (o.rawValue.trim() === '') {
      // Hadoop 2.7 does not set a property whose <value> is empty: the default stays.
      findings.push(finding(source, 'ignored', 'empty value: Hadoop keeps the default'));
      continue;
    }
    const { value, unresolved } = substituteVariables(o.rawValue, raw, `${file}:${o.line} ${o.name}`);
    properties.push({ file, line: o.line, name: o.name, value: value.trim(), rawValue: o.rawValue, unresolved });
  }
  return { file, properties, findings: findings.findings, findingCounts: findings.findingCounts };
}

/**
 * The largest Hadoop XML file read, in bytes. Such a file is parsed whole, at some 25 times its
 * size in memory (a 106 MB yarn-site.xml of a million properties took 2.4 GB), and a
 * `<configuration>` file cannot be read in a bounded space however it is read: the last of a
 * name's properties wins and a `${var}` may name any property of the file, so every property is
 * held. Hadoop's yarn-default.xml, every YARN property with its description, is under 200 KB.
 */
export const MAX_HADOOP_XML_BYTES = 8 * 1024 * 1024;

/** Read a Hadoop XML file (`what` names it in errors), refusing one over MAX_HADOOP_XML_BYTES. */
export async function readHadoopXmlText(file: string, what: string): Promise<string> {
  return readTextFile(file, what, '', { maxBytes: MAX_HADOOP_XML_BYTES, why: ': a Hadoop configuration file is a few hundred KB' });
}

/** Read and parse a Hadoop `<configuration>` file; `what` names it in errors (`yarn-site.xml`). */
export async function readHadoopConfiguration(file: string, what: string): Promise<HadoopConfiguration> {
  return parseHadoopConfiguration(await readHadoopXmlText(file, what), file);
}
