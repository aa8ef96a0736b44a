/**
 * The rows of docs/errors.md, the published reference of the service's error texts: its one
 * table, `| \`CODE\` | status | \`text\` | contract |`. Read by test/errors.test.ts (against
 * the catalogs) and scripts/check-error-reference.ts (against the contract).
 */
export interface ReferenceRow {
  code: string;
  status: number;
  text: string;
  /** The contract gives this text (the last column says `yes`). */
  contract: boolean;
  line: number;
}

const ROW = /^\|\s*`([A-Z_]+)`\s*\|\s*(\d{3})\s*\|\s*`([^`]+)`\s*\|\s*(\w*)\s*\|\s*$/;

export function readErrorReference(markdown: string): ReferenceRow[] {
  const rows: ReferenceRow[] = [];
  markdown.split('\n').forEach((line, index) => {
    if (!line.startsWith('| `')) return;
    const match = ROW.exec(line);
    if (!match) throw new Error(`docs/errors.md:${index + 1}: not a row of the table: ${line}`);
    const [, code, status, text, contract] = match as unknown as string[];
    rows.push({
      code: code as string,
      status: Number(status),
      text: text as string,
      contract: contract === 'yes',
      line: index + 1,
    });
  });
  return rows;
}
