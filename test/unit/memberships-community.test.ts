import { beforeAll, describe, expect, it } from 'vitest';
import { cleanText, moderateThread, publicAuthor, threadSort } from '../../shared/memberships/community/rules';
import { csrfValid } from '../../shared/memberships/member-area/access';
import { accessMail, areaHeaders, refusedPage, threadPage } from '../../shared/memberships/member-area/pages';
import { translator, loadedTranslator, loadTranslator } from '../../shared/platform/i18n/translator';
import { LOCALES } from '../../shared/platform/i18n/locales';
import type { MemberAreaRecord, ThreadRecord } from '../../shared/memberships/records';
import { escapeHtml } from '../../shared/platform/html';

// Every language's catalogue, loaded as a buyer's request would load it (each but English is imported on first use).
beforeAll(async () => {
  for (const locale of LOCALES) await loadTranslator(locale);
});

const thread: ThreadRecord = {
  _id: '65a000000000000000000001',
  membershipId: 'm1',
  title: 'T',
  body: 'B',
  authorEmail: 'a@example.com',
  authorName: 'Ann',
  authorRole: 'member',
  hidden: false,
  locked: false,
  pinned: false,
  replyCount: 0,
  rev: 0,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};

describe('community rules', () => {
  it('sorts pinned threads before newer unpinned ones when read descending', () => {
    const older = threadSort({ _id: '65a000000000000000000001', pinned: true });
    const newer = threadSort({ _id: '65b000000000000000000001', pinned: false });
    expect([newer, older].sort().reverse()).toEqual([older, newer]);
  });

  it('moderation returns undefined when nothing changes, else the new flags and time', () => {
    expect(moderateThread(thread, { hidden: false }, 'now')).toBeUndefined();
    expect(moderateThread(thread, { hidden: true, pinned: true }, 'now')).toMatchObject({ hidden: true, pinned: true, locked: false, updatedAt: 'now' });
  });

  it('never shows an email to members: a name, "A member", or the creator label', () => {
    expect(publicAuthor({ authorName: 'Ann', authorRole: 'member' }, 'Club')).toBe('Ann');
    expect(publicAuthor({ authorName: ' ', authorRole: 'member' }, 'Club')).toBe('A member');
    expect(publicAuthor({ authorName: null, authorRole: 'creator' }, 'Club')).toBe('Club');
  });

  it('cleans text: unified line ends, trimmed', () => {
    expect(cleanText('  a\r\nb\rc  ')).toBe('a\nb\nc');
    expect(cleanText(' \n ')).toBe('');
  });
});

describe('member area pages', () => {
  const area = { csrf: 'x'.repeat(32) } as MemberAreaRecord;

  it('compares the CSRF secret exactly', () => {
    expect(csrfValid(area, 'x'.repeat(32))).toBe(true);
    expect(csrfValid(area, 'x'.repeat(31) + 'y')).toBe(false);
    expect(csrfValid(area, 'x')).toBe(false);
    expect(csrfValid(area, undefined)).toBe(false);
  });

  it('escapes what people wrote and hides the reply form of a locked thread', () => {
    const frame = {
      nonce: 'n0nce',
      area: 'https://api.example/member-area/tok',
      membership: { name: 'Club <x>', communityEnabled: true },
      t: translator('en'),
      brand: { name: 'Clay Studio', logoUrl: null, accent: '#aa3300', accentText: '#aa3300', onAccent: '#ffffff', supportEmail: null },
    };
    const html = threadPage(frame, { ...thread, title: '<img src=x onerror=alert(1)>', locked: true }, [], undefined, area.csrf);
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<form');
    expect(html).toContain('<style nonce="n0nce">');
    // Branded like the checkout: the creator's name and accent colour frame the page.
    expect(html).toContain('<span class="name">Clay Studio</span>');
    expect(html).toContain('--accent:#aa3300');
    expect(html).not.toContain('a@example.com');
    expect(escapeHtml(`"'&`)).toBe('&quot;&#39;&amp;');
    expect(areaHeaders('n0nce')['content-security-policy']).toContain("default-src 'none'");
  });

  it("speaks the member's language; what the creator and members wrote stays as written", () => {
    const frame = {
      nonce: 'n0nce',
      area: 'https://api.example/member-area/tok',
      membership: { name: 'Club Moos', communityEnabled: true },
      t: loadedTranslator('de'),
      brand: { name: 'Clay Studio', logoUrl: null, accent: '#aa3300', accentText: '#aa3300', onAccent: '#ffffff', supportEmail: null },
    };
    const html = threadPage(frame, { ...thread, title: 'Garden bench', replyCount: 2 }, [], undefined, area.csrf);
    expect(html).toContain('<html lang="de">');
    for (const words of ['Beiträge', 'Ihre Antwort', '2 Antworten', 'Garden bench']) expect(html).toContain(words);
    expect(threadPage({ ...frame, t: loadedTranslator('ja') }, { ...thread, replyCount: 1, locked: true }, [], undefined, area.csrf)).toContain(
      'ロックされています',
    );
    const refused = refusedPage('ended', 'n', loadedTranslator('es'));
    expect(refused.status).toBe(403);
    expect(refused.html).toContain('Su membresía ha terminado');
    const mail = accessMail({ membershipName: 'Club <Moos>', url: 'https://api.example/member-area/tok' }, loadedTranslator('fr'));
    expect(mail.subject).toBe('Votre accès à Club <Moos>');
    expect(mail.html).toContain('Bienvenue dans <strong>Club &lt;Moos&gt;</strong>.');
    expect(mail.html).toContain('<a href="https://api.example/member-area/tok">Ouvrez l’espace membres</a> pour lire');
    expect(mail.text).toContain('rejoignez la communauté ici\u202f: https://api.example/member-area/tok');
  });
});
