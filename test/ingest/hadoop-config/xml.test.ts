import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import {
  HadoopConfigError,
  parseHadoopConfiguration,
  parseXmlDocument,
  readHadoopConfiguration,
} from '../../../src/ingest/hadoop-config/index.js';
import { UserError } from '../../../src/model/errors.js';

const fixture = (name: string): string => fileURLToPath(new URL(`../../fixtures/hadoop-config/${name}`, import.meta.url));

const conf = (body: string): string => `<?xml version="1.0"?>\n<configuration>\n${body}\n</configuration>\n`;
const prop = (name: string, value: string): string => `  <property><name>${name}</name><value>${value}</value></property>`;

describe('parseHadoopConfiguration', () => {
  it('reads name/value elements and the attribute form, ignores <final> and <description>', () => {
    const parsed = parseHadoopConfiguration(
      conf(
        [
          '  <property>',
          '    <name> yarn.a </name>',
          '    <value> 42 </value>',
          '    <final>true</final>',
          '    <description>the answer</description>',
          '  </property>',
          '  <property name="yarn.b" value="x &amp; y"/>',
          prop('yarn.c', '<![CDATA[<z>]]>'),
        ].join('\n'),
      ),
      'site.xml',
    );
    expect(parsed.properties.map((p) => [p.name, p.value, p.line])).toEqual([
      ['yarn.a', '42', 3],
      ['yarn.b', 'x & y', 9],
      ['yarn.c', '<z>', 10],
    ]);
    expect(parsed.findings).toEqual([]);
  });

  it('keeps the last of a repeated property and reports the others, and the empty values', () => {
    const parsed = parseHadoopConfiguration(conf([prop('yarn.a', '1'), prop('yarn.b', ''), prop('yarn.a', '2')].join('\n')), 'site.xml');
    expect(parsed.properties.map((p) => [p.name, p.value])).toEqual([['yarn.a', '2']]);
    expect(parsed.findings.map((f) => [f.property, f.line, f.kind, f.reason])).toEqual([
      ['yarn.a', 3, 'ignored', 'set again at line 5; the last value wins'],
      ['yarn.b', 4, 'ignored', 'empty value: Hadoop keeps the default'],
    ]);
  });

  it('reports XInclude and elements that are not properties instead of dropping them', () => {
    const parsed = parseHadoopConfiguration(
      `<configuration xmlns:xi="http://www.w3.org/2001/XInclude">\n  <xi:include href="more.xml"/>\n  <setting>x</setting>\n  <property><value>1</value></property>\n</configuration>`,
      'site.xml',
    );
    expect(parsed.findings.map((f) => [f.property, f.value, f.line, f.kind])).toEqual([
      ['<xi:include>', 'more.xml', 2, 'unsupported'],
      ['<setting>', 'x', 3, 'unknown'],
      ['<property>', '1', 4, 'unknown'],
    ]);
  });

  it('substitutes ${var} from the same file, as deep as it goes, and stops at an undefined one', () => {
    const parsed = parseHadoopConfiguration(
      conf(
        [
          prop('site.host', 'rm1.example.com'),
          prop('site.port', '8032'),
          prop('site.endpoint', '${site.host}:${site.port}'),
          prop('yarn.resourcemanager.address', '${site.endpoint}'),
          prop('yarn.nodemanager.resource.memory-mb', '16384'),
          prop('yarn.scheduler.maximum-allocation-mb', '${yarn.nodemanager.resource.memory-mb}'),
          prop('yarn.log.dir', '${hadoop.log.dir}/${site.host}'),
        ].join('\n'),
      ),
      'site.xml',
    );
    const byName = new Map(parsed.properties.map((p) => [p.name, p]));
    expect(byName.get('yarn.resourcemanager.address')?.value).toBe('rm1.example.com:8032');
    expect(byName.get('yarn.resourcemanager.address')?.rawValue).toBe('${site.endpoint}');
    expect(byName.get('yarn.scheduler.maximum-allocation-mb')?.value).toBe('16384');
    expect(byName.get('yarn.scheduler.maximum-allocation-mb')?.unresolved).toBeNull();
    // Hadoop stops at the first name it cannot resolve and leaves the rest as written.
    expect(byName.get('yarn.log.dir')?.value).toBe('${hadoop.log.dir}/${site.host}');
    expect(byName.get('yarn.log.dir')?.unresolved).toBe('${hadoop.log.dir}');
  });

  it('refuses a variable that refers to itself', () => {
    expect(() => parseHadoopConfiguration(conf(prop('a', 'x${a}')), 'site.xml')).toThrow(
      /site.xml:3 a: variable substitution goes deeper than 20 levels/,
    );
  });

  it('names the file, line and column of malformed XML, as a user error', async () => {
    const path = fixture('malformed.xml');
    const error: unknown = await readHadoopConfiguration(path, 'yarn-site.xml').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HadoopConfigError);
    expect(error).toBeInstanceOf(UserError);
    expect((error as Error).message).toBe(
      `${path} is not well-formed XML: line 9, column 16: Expected closing tag 'value' (opened in line 9, col 5) instead of closing tag 'valeu'.`,
    );
  });

  it('refuses entity declarations, external or internal, naming the file and the entity', () => {
    const withDoctype = (subset: string, value: string): string =>
      `<?xml version="1.0"?>\n<!DOCTYPE configuration [ ${subset} ]>\n<configuration>${prop('a', value)}</configuration>\n`;
    const refused = "its DOCTYPE declares the entity '";
    for (const [subset, value, entity] of [
      ['<!ENTITY xxe SYSTEM "file:///etc/passwd">', '&xxe;', 'xxe'],
      [`<!ENTITY big "${'A'.repeat(200_000)}">`, '&big;&big;', 'big'],
      ['<!ENTITY a "aaaaaaaaaa"> <!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">', '&b;', 'a'],
      ['<!ENTITY % p SYSTEM "http://example.com/x.dtd"> %p;', 'x', 'p'],
      ['<!ENTITY mb "1024">', '&mb;', 'mb'],
    ]) {
      const error: unknown = (() => {
        try {
          return parseHadoopConfiguration(withDoctype(subset!, value!), 'site.xml');
        } catch (e) {
          return e;
        }
      })();
      expect(error, subset).toBeInstanceOf(HadoopConfigError);
      expect((error as Error).message).toBe(
        `site.xml: ${refused}${entity}'; entity declarations are not read (an external one would read another file): ` +
          'write the values out in the file and remove the DOCTYPE',
      );
    }
    // A DOCTYPE without entities is read; "<!ENTITY" in a comment or CDATA declares nothing.
    const plain =
      '<?xml version="1.0"?>\n<!DOCTYPE configuration SYSTEM "configuration.dtd">\n<!-- <!ENTITY x "y"> -->\n' +
      `<configuration>${prop('a', '<![CDATA[<!ENTITY x>]]>')}</configuration>\n`;
    expect(parseHadoopConfiguration(plain, 'site.xml').properties.map((p) => [p.name, p.value])).toEqual([['a', '<!ENTITY x>']]);
  });

  it('turns a DOCTYPE the parser cannot read into a user error naming the file', () => {
    const text = '<?xml version="1.0"?>\n<!DOCTYPE configuration [ <!WRONG> ]>\n<configuration/>\n';
    expect(() => parseHadoopConfiguration(text, 'site.xml')).toThrow(HadoopConfigError);
    expect(() => parseHadoopConfiguration(text, 'site.xml')).toThrow('site.xml cannot be read as XML: Invalid DOCTYPE');
  });

  it('refuses a file whose top-level element is not the expected one', () => {
    expect(() => parseHadoopConfiguration('<allocations/>', 'site.xml')).toThrow(
      'site.xml: the top-level element is <allocations>, expected <configuration>',
    );
    expect(() => parseXmlDocument('', 'empty.xml', 'allocations')).toThrow(/empty.xml is not well-formed XML/);
    expect(() => parseXmlDocument('<a/><b/>', 'two.xml', 'a')).toThrow('two.xml is not well-formed XML: it has 2 top-level elements, expected one <a>');
  });

  it('names a missing file and its error code', async () => {
    await expect(readHadoopConfiguration('/no/such/yarn-site.xml', 'yarn-site.xml')).rejects.toThrow(
      'cannot read yarn-site.xml /no/such/yarn-site.xml (ENOENT)',
    );
  });
});
