import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { randomBase62 } from '../../platform/ids';
import {
  SpreadsheetError,
  type Cell,
  type CreatedSpreadsheet,
  type ProviderSession,
  type ProviderTokens,
  type SheetTab,
  type SpreadsheetPort,
} from '../../sheets/port';

interface LocalSheet {
  id: string;
  title: string;
  tabs: Map<string, Cell[][]>;
}

export const LOCAL_PERMISSION = 'local.file';

/**
 * The local runtime's spreadsheet provider: spreadsheets are CSV files under `.data/sheets/<id>/`
 * (or kept in memory with --memory), the consent link opens a local page that grants with one
 * click, and `failNext(count)` makes the next writes fail, for black-box tests.
 */
export class LocalSpreadsheets implements SpreadsheetPort {
  readonly permission = LOCAL_PERMISSION;
  private readonly sheets = new Map<string, LocalSheet>();
  private readonly codes = new Map<string, ProviderTokens>();
  private readonly revoked = new Set<string>();
  private failures = 0;
  private loaded?: Promise<void>;

  constructor(private readonly options: { baseUrl: () => string; dir?: string }) {}

  consentUrl(input: { state: string; redirectUri: string }): string {
    const url = new URL('/_local/sheets/consent', this.options.baseUrl());
    url.searchParams.set('state', input.state);
    url.searchParams.set('redirect_uri', input.redirectUri);
    url.searchParams.set('scope', this.permission);
    return url.toString();
  }

  /** The one click on the local consent page: a code the callback exchanges. */
  grant(): string {
    const code = randomBase62(24);
    this.codes.set(code, { accessToken: `lat_${randomBase62(24)}`, refreshToken: `lrt_${randomBase62(24)}`, scope: this.permission });
    return code;
  }

  async exchangeCode(input: { code: string }): Promise<ProviderTokens> {
    const tokens = this.codes.get(input.code);
    if (!tokens) throw new SpreadsheetError('invalid_grant: unknown or used code', 'unauthorized', 400);
    this.codes.delete(input.code);
    return tokens;
  }

  async revoke(tokens: ProviderTokens): Promise<void> {
    this.revoked.add(tokens.accessToken);
  }

  failNext(count: number): void {
    this.failures = count;
  }

  private authorize(session: ProviderSession) {
    if (this.revoked.has(session.tokens.accessToken)) throw new SpreadsheetError('Access revoked', 'unauthorized', 401);
  }

  private refuseIfAsked() {
    if (this.failures > 0) {
      this.failures--;
      throw new SpreadsheetError('Write refused (fail-next)', 'refused', 503);
    }
  }

  async createSpreadsheet(session: ProviderSession, input: { title: string; tabs: SheetTab[] }): Promise<CreatedSpreadsheet> {
    this.authorize(session);
    const id = `local_${randomBase62(16)}`;
    const sheet: LocalSheet = { id, title: input.title, tabs: new Map(input.tabs.map((tab) => [tab.title, [tab.header]])) };
    this.sheets.set(id, sheet);
    await this.save(sheet);
    return { spreadsheetId: id, title: input.title, url: `${this.options.baseUrl()}/_local/sheets?spreadsheetId=${id}` };
  }

  private async sheet(id: string): Promise<LocalSheet> {
    await this.load();
    const sheet = this.sheets.get(id);
    if (!sheet) throw new SpreadsheetError('Requested entity was not found.', 'not_found', 404);
    return sheet;
  }

  private tab(sheet: LocalSheet, title: string): Cell[][] {
    const rows = sheet.tabs.get(title);
    if (!rows) throw new SpreadsheetError(`Unable to parse range: ${title}`, 'refused', 400);
    return rows;
  }

  async append(session: ProviderSession, spreadsheetId: string, tab: string, rows: Cell[][]): Promise<void> {
    this.authorize(session);
    const sheet = await this.sheet(spreadsheetId);
    this.refuseIfAsked();
    this.tab(sheet, tab).push(...rows.map((row) => [...row]));
    await this.save(sheet);
  }

  async readColumn(session: ProviderSession, spreadsheetId: string, tab: string, column: string): Promise<string[]> {
    this.authorize(session);
    const index = column.charCodeAt(0) - 65;
    return this.tab(await this.sheet(spreadsheetId), tab).map((row) => String(row[index] ?? ''));
  }

  async updateCells(session: ProviderSession, spreadsheetId: string, updates: { range: string; values: Cell[][] }[]): Promise<void> {
    this.authorize(session);
    const sheet = await this.sheet(spreadsheetId);
    this.refuseIfAsked();
    for (const update of updates) {
      const match = /^(.+)!([A-Z])(\d+)$/.exec(update.range);
      if (!match) throw new SpreadsheetError(`Unable to parse range: ${update.range}`, 'refused', 400);
      const row = this.tab(sheet, match[1]!)[Number(match[3]) - 1];
      if (row) row[match[2]!.charCodeAt(0) - 65] = update.values[0]![0]!;
    }
    await this.save(sheet);
  }

  /** What the control API shows: every tab's rows, header first. */
  async read(spreadsheetId: string): Promise<{ id: string; title: string; tabs: Record<string, Cell[][]> } | undefined> {
    await this.load();
    const sheet = this.sheets.get(spreadsheetId);
    return sheet && { id: sheet.id, title: sheet.title, tabs: Object.fromEntries(sheet.tabs) };
  }

  // ---- persistence: one folder per spreadsheet, one CSV per tab ----

  private async save(sheet: LocalSheet) {
    if (!this.options.dir) return;
    const dir = join(this.options.dir, sheet.id);
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'meta.json'), JSON.stringify({ id: sheet.id, title: sheet.title, tabs: [...sheet.tabs.keys()] }));
    for (const [title, rows] of sheet.tabs) await writeFile(join(dir, `${title}.csv`), stringify(rows, { quoted_string: true }));
  }

  private load(): Promise<void> {
    this.loaded ??= (async () => {
      if (!this.options.dir) return;
      const entries = await readdir(this.options.dir).catch(() => [] as string[]);
      for (const id of entries) {
        try {
          const meta = JSON.parse(await readFile(join(this.options.dir, id, 'meta.json'), 'utf8')) as { id: string; title: string; tabs: string[] };
          const tabs = new Map<string, Cell[][]>();
          for (const title of meta.tabs) {
            const text = await readFile(join(this.options.dir, id, `${title}.csv`), 'utf8');
            // Money and counts come back as numbers, the rest as text.
            tabs.set(
              title,
              parse(text, {
                relax_column_count: true,
                cast: (value, context) => (context.quoting || value === '' || !/^-?\d+(\.\d+)?$/.test(value) ? value : Number(value)),
              }) as Cell[][],
            );
          }
          if (!this.sheets.has(meta.id)) this.sheets.set(meta.id, { id: meta.id, title: meta.title, tabs });
        } catch {
          /* not a spreadsheet folder */
        }
      }
    })();
    return this.loaded;
  }
}
